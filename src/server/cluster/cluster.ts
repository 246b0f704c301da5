/**
 * One process's membership of a cluster (decision 0110): its instance id, its heartbeat on the
 * bus, and the dispatch of bus messages to the servers of this process that share the cluster
 * (a host mounts several agents; each is a member under its own key). Made once per process with
 * `createCluster` and given to every `createA2AServer` as `cluster`.
 */
import { newId } from '../common/ids.js';
import type { OrphanPolicy } from '../task-run/orphan-settling.js';
import type { BusListener, ClusterBus, ClusterMessage } from './cluster-bus.js';

/** What to do with a task whose instance stopped while it ran (decisions 0114, 0119). */
export type { OrphanPolicy };

/** Options of `createCluster`. */
export interface ClusterOptions {
  /** The transport: `concord-a2a/cluster/postgres`, `concord-a2a/cluster/redis`, or `createMemoryBusNetwork().bus()`. */
  bus: ClusterBus;
  /** This process's id (default: a fresh random id per start). */
  instanceId?: string | undefined;
  /** An instance counts as stopped this long after its last heartbeat (default 15 s). */
  instanceTtlMs?: number | undefined;
  /** Heartbeat period (default a third of the TTL). */
  heartbeatMs?: number | undefined;
  /** How often each agent looks for tasks of stopped instances (default half the TTL). */
  sweepMs?: number | undefined;
  /** How often followed tasks' logs are re-read in case an announcement was lost (default 5 s). */
  recheckMs?: number | undefined;
  /** How long a cancel waits for the instance running the task before committing it (default 5 s). */
  cancelTimeoutMs?: number | undefined;
  /** `fail` (default): such tasks end failed; `resume`: a live instance runs the executor again. */
  orphans?: OrphanPolicy | undefined;
  /** Receives failures that have no caller (a lost bus connection, a missed heartbeat). */
  onError?: ((error: unknown, where: string) => void) | undefined;
}

/** The settings every member reads. */
export interface ClusterSettings {
  instanceTtlMs: number;
  heartbeatMs: number;
  sweepMs: number;
  recheckMs: number;
  cancelTimeoutMs: number;
  orphans: OrphanPolicy;
}

/** A server of this process taking part in the cluster (the request handler's ClusterNode). */
export interface ClusterMember {
  readonly agent: string;
  receive(message: ClusterMessage): void;
  reconnected(): void;
}

/** A process's place in a cluster; see the file comment. */
export class Cluster {
  readonly instanceId: string;
  readonly bus: ClusterBus;
  readonly settings: ClusterSettings;
  /** Resolves once the first heartbeat is written and the bus listens; rejects if either failed. */
  readonly ready: Promise<void>;
  private readonly members = new Set<ClusterMember>();
  private readonly reportError: (error: unknown, where: string) => void;
  private heartbeat: NodeJS.Timeout | undefined;
  private isClosed = false;

  constructor(options: ClusterOptions) {
    this.bus = options.bus;
    this.instanceId = options.instanceId ?? newId();
    const ttl = positive(options.instanceTtlMs, 15_000, 'instanceTtlMs');
    this.settings = {
      instanceTtlMs: ttl,
      heartbeatMs: positive(options.heartbeatMs, Math.max(Math.floor(ttl / 3), 1), 'heartbeatMs'),
      sweepMs: positive(options.sweepMs, Math.max(Math.floor(ttl / 2), 1), 'sweepMs'),
      recheckMs: positive(options.recheckMs, 5_000, 'recheckMs'),
      cancelTimeoutMs: positive(options.cancelTimeoutMs, 5_000, 'cancelTimeoutMs'),
      orphans: options.orphans ?? 'fail',
    };
    if (this.settings.heartbeatMs >= ttl) {
      throw new TypeError(
        `cluster: heartbeatMs (${this.settings.heartbeatMs}) must be below instanceTtlMs (${ttl})`,
      );
    }
    this.reportError = options.onError ?? (() => undefined);
    this.ready = this.start();
    // Callers await `ready`; a process that never does must not crash on an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private async start(): Promise<void> {
    // Alive before anything is recorded as running here, so no sweeper takes our first runs.
    await this.bus.beat(this.instanceId, this.settings.instanceTtlMs);
    const listener: BusListener = {
      message: (message) => {
        for (const member of this.members) if (member.agent === message.agent) member.receive(message);
      },
      reconnected: () => {
        for (const member of this.members) member.reconnected();
      },
      error: (error, where) => this.reportError(error, where),
    };
    await this.bus.open(listener);
    if (this.isClosed) return;
    this.heartbeat = setInterval(() => {
      this.bus
        .beat(this.instanceId, this.settings.instanceTtlMs)
        .catch((error: unknown) => this.reportError(error, `heartbeat of instance ${this.instanceId}`));
    }, this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  /** @internal Adds a member; returns its removal. */
  join(member: ClusterMember): () => void {
    this.members.add(member);
    return () => this.members.delete(member);
  }

  /** True once `close` was called: the instance no longer takes part (its sweepers stop). */
  get closed(): boolean {
    return this.isClosed;
  }

  /** @internal Sends a message; failures are reported, never thrown (messages are hints). */
  announce(message: ClusterMessage): void {
    if (this.isClosed) return;
    this.bus
      .publish(message)
      .catch((error: unknown) => this.reportError(error, `cluster message ${message.type}`));
  }

  /** @internal Reports a failure with no caller. */
  onError(error: unknown, where: string): void {
    this.reportError(error, where);
  }

  /**
   * Leaves the cluster: stops the heartbeat, withdraws it (tasks still running here become
   * orphans for the other instances to settle at once), and closes the bus. Close the servers first.
   */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    clearInterval(this.heartbeat);
    await this.ready.catch(() => undefined);
    await this.bus
      .leave(this.instanceId)
      .catch((error: unknown) => this.reportError(error, 'leaving the cluster'));
    await this.bus.close();
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`cluster: ${name} must be a positive number of milliseconds`);
  return value;
}

/** Joins this process to a cluster over `options.bus`; await `ready` before serving. */
export function createCluster(options: ClusterOptions): Cluster {
  return new Cluster(options);
}
