/**
 * An in-process ClusterBus: several servers in one process, sharing one store, behave as the
 * instances of a cluster (tests, and embedding several servers over one memory store). Messages
 * are delivered asynchronously, as a network bus would, and heartbeats expire on the local clock.
 */
import type { BusListener, ClusterBus, ClusterMessage, RunRecord, Runner } from './cluster-bus.js';

/** The shared state behind the buses of one in-process cluster. */
export class MemoryBusNetwork {
  private readonly listeners = new Set<BusListener>();
  private readonly expiries = new Map<string, number>();
  private readonly runs = new Map<string, RunRecord>();

  /** A bus for one more instance of this cluster. */
  bus(): ClusterBus {
    return new MemoryBus(this);
  }

  /** @internal */
  attach(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** @internal */
  send(message: ClusterMessage): void {
    // Copied per listener: a receiver must not see another's mutations, as across processes.
    const json = JSON.stringify(message);
    for (const listener of [...this.listeners]) {
      setImmediate(() => listener.message(JSON.parse(json) as ClusterMessage));
    }
  }

  /** @internal */
  beat(instanceId: string, ttlMs: number): void {
    this.expiries.set(instanceId, Date.now() + ttlMs);
  }

  /** @internal */
  leave(instanceId: string): void {
    this.expiries.delete(instanceId);
  }

  /** @internal */
  alive(instanceId: string): boolean {
    return (this.expiries.get(instanceId) ?? 0) > Date.now();
  }

  /** @internal */
  record(run: RunRecord): void {
    this.runs.set(key(run.agent, run.taskId), { ...run });
  }

  /** @internal */
  remove(agent: string, taskId: string, instanceId: string): void {
    const k = key(agent, taskId);
    if (this.runs.get(k)?.instanceId === instanceId) this.runs.delete(k);
  }

  /** @internal */
  runner(agent: string, taskId: string): Runner | undefined {
    const run = this.runs.get(key(agent, taskId));
    return run === undefined ? undefined : { instanceId: run.instanceId, alive: this.alive(run.instanceId) };
  }

  /** @internal */
  orphans(agent: string): RunRecord[] {
    return [...this.runs.values()]
      .filter((run) => run.agent === agent && !this.alive(run.instanceId))
      .map((run) => ({ ...run }));
  }

  /** @internal */
  claim(run: RunRecord, instanceId: string): boolean {
    const k = key(run.agent, run.taskId);
    const current = this.runs.get(k);
    if (current === undefined || current.instanceId !== run.instanceId) return false;
    this.runs.set(k, Object.assign({}, current, { instanceId }));
    return true;
  }
}

function key(agent: string, taskId: string): string {
  return `${agent}\u0000${taskId}`;
}

class MemoryBus implements ClusterBus {
  private detach: (() => void) | undefined;

  constructor(private readonly network: MemoryBusNetwork) {}

  open(listener: BusListener): Promise<void> {
    this.detach?.();
    this.detach = this.network.attach(listener);
    return Promise.resolve();
  }

  publish(message: ClusterMessage): Promise<void> {
    this.network.send(message);
    return Promise.resolve();
  }

  beat(instanceId: string, ttlMs: number): Promise<void> {
    this.network.beat(instanceId, ttlMs);
    return Promise.resolve();
  }

  leave(instanceId: string): Promise<void> {
    this.network.leave(instanceId);
    return Promise.resolve();
  }

  recordRun(run: RunRecord): Promise<void> {
    this.network.record(run);
    return Promise.resolve();
  }

  removeRun(agent: string, taskId: string, instanceId: string): Promise<void> {
    this.network.remove(agent, taskId, instanceId);
    return Promise.resolve();
  }

  runnerOf(agent: string, taskId: string): Promise<Runner | undefined> {
    return Promise.resolve(this.network.runner(agent, taskId));
  }

  orphanedRuns(agent: string): Promise<RunRecord[]> {
    return Promise.resolve(this.network.orphans(agent));
  }

  claimRun(run: RunRecord, instanceId: string): Promise<boolean> {
    return Promise.resolve(this.network.claim(run, instanceId));
  }

  close(): Promise<void> {
    this.detach?.();
    this.detach = undefined;
    return Promise.resolve();
  }
}

/** An in-process cluster: call `.bus()` once per server that acts as an instance. */
export function createMemoryBusNetwork(): MemoryBusNetwork {
  return new MemoryBusNetwork();
}
