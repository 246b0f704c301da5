/**
 * The shared ClusterBus suite (house style 7: one suite per port), run against the in-process
 * bus, PostgreSQL and Redis. `cluster()` gives a factory of buses of one fresh cluster (a fresh
 * schema or key prefix); two calls give two clusters that must not hear each other.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BusListener, ClusterBus, ClusterMessage } from '../../src/server/index.js';

/** Buses of one cluster. */
export type BusFactory = () => ClusterBus;

/** Collects what a bus delivers. */
export class Inbox implements BusListener {
  readonly messages: ClusterMessage[] = [];
  readonly errors: unknown[] = [];
  reconnects = 0;
  message(message: ClusterMessage): void {
    this.messages.push(message);
  }
  reconnected(): void {
    this.reconnects++;
  }
  error(error: unknown): void {
    this.errors.push(error);
  }
  /** Resolves once a message satisfies `test`. */
  async waitFor(test: (m: ClusterMessage) => boolean, timeoutMs = 5_000): Promise<ClusterMessage> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(test);
      if (found !== undefined) return found;
      if (Date.now() > until)
        throw new Error(`no such message in ${timeoutMs} ms: ${JSON.stringify(this.messages)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Registers the suite; `cluster` makes a fresh cluster's bus factory. */
export function busSuite(name: string, cluster: () => BusFactory): void {
  describe(`ClusterBus: ${name}`, () => {
    const open: ClusterBus[] = [];
    const make = (factory: BusFactory): ClusterBus => {
      const bus = factory();
      open.push(bus);
      return bus;
    };
    afterEach(async () => {
      for (const bus of open.splice(0)) await bus.close();
    });

    it('delivers a message to every instance of the cluster, intact', async () => {
      const factory = cluster();
      const a = make(factory);
      const b = make(factory);
      const inA = new Inbox();
      const inB = new Inbox();
      await a.open(inA);
      await b.open(inB);
      const message: ClusterMessage = {
        type: 'committed',
        agent: 'echo',
        taskId: 't-1',
        version: 7,
        from: 'A',
      };
      await a.publish(message);
      expect(await inB.waitFor((m) => m.taskId === 't-1')).toEqual(message);
      expect(await inA.waitFor((m) => m.taskId === 't-1')).toEqual(message);
      const cancel: ClusterMessage = { type: 'cancel', agent: 'echo', taskId: 't-2', to: 'A', from: 'B' };
      await b.publish(cancel);
      expect(await inA.waitFor((m) => m.type === 'cancel')).toEqual(cancel);
      expect(inA.errors).toEqual([]);
    });

    it('keeps two clusters apart', async () => {
      const one = make(cluster());
      const two = make(cluster());
      const inTwo = new Inbox();
      await one.open(new Inbox());
      await two.open(inTwo);
      await one.publish({ type: 'committed', agent: '', taskId: 'x', version: 1, from: 'A' });
      await two.publish({ type: 'committed', agent: '', taskId: 'mine', version: 1, from: 'B' });
      await inTwo.waitFor((m) => m.taskId === 'mine');
      await sleep(100);
      expect(inTwo.messages.map((m) => m.taskId)).toEqual(['mine']);
      await one.beat('A', 10_000);
      await one.recordRun({ agent: '', taskId: 'x', instanceId: 'A', tenant: '', owner: '' });
      expect(await two.runnerOf('', 'x')).toBeUndefined();
    });

    it('tells live runners from stopped ones by their heartbeat TTL', async () => {
      const bus = make(cluster());
      await bus.open(new Inbox());
      await bus.beat('A', 60_000);
      await bus.beat('B', 300);
      await bus.recordRun({ agent: 'echo', taskId: 't-a', instanceId: 'A', tenant: 'acme', owner: 'alice' });
      await bus.recordRun({ agent: 'echo', taskId: 't-b', instanceId: 'B', tenant: '', owner: '' });
      await bus.recordRun({ agent: 'other', taskId: 't-c', instanceId: 'C', tenant: '', owner: '' });
      expect(await bus.runnerOf('echo', 't-a')).toEqual({ instanceId: 'A', alive: true });
      expect(await bus.runnerOf('echo', 't-b')).toEqual({ instanceId: 'B', alive: true });
      expect(await bus.runnerOf('echo', 'nope')).toBeUndefined();
      expect(await bus.orphanedRuns('echo')).toEqual([]);
      await sleep(450);
      expect(await bus.runnerOf('echo', 't-b')).toEqual({ instanceId: 'B', alive: false });
      expect(await bus.orphanedRuns('echo')).toEqual([
        { agent: 'echo', taskId: 't-b', instanceId: 'B', tenant: '', owner: '' },
      ]);
      // C never beat at all: its runs are orphans of their agent, and only of it.
      expect(await bus.orphanedRuns('other')).toEqual([
        { agent: 'other', taskId: 't-c', instanceId: 'C', tenant: '', owner: '' },
      ]);
      await bus.beat('B', 60_000);
      expect(await bus.orphanedRuns('echo')).toEqual([]);
      await bus.leave('A');
      expect(await bus.orphanedRuns('echo')).toEqual([
        { agent: 'echo', taskId: 't-a', instanceId: 'A', tenant: 'acme', owner: 'alice' },
      ]);
    });

    it('removes a run only for the instance that holds it, and lets one claimer win', async () => {
      const factory = cluster();
      const bus = make(factory);
      const other = make(factory);
      await bus.open(new Inbox());
      const run = { agent: 'echo', taskId: 't-1', instanceId: 'dead', tenant: '', owner: '' };
      await bus.recordRun(run);
      await bus.removeRun('echo', 't-1', 'someone-else');
      expect(await bus.runnerOf('echo', 't-1')).toEqual({ instanceId: 'dead', alive: false });
      const claims = await Promise.all([bus.claimRun(run, 'B'), other.claimRun(run, 'C')]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      const winner = claims[0] ? 'B' : 'C';
      expect((await bus.runnerOf('echo', 't-1'))?.instanceId).toBe(winner);
      expect(await bus.claimRun(run, 'D')).toBe(false);
      // A newer run of the task replaces the record; the old holder's removal leaves it alone.
      await bus.recordRun({ ...run, instanceId: 'E' });
      await bus.removeRun('echo', 't-1', winner);
      expect((await bus.runnerOf('echo', 't-1'))?.instanceId).toBe('E');
      await bus.removeRun('echo', 't-1', 'E');
      expect(await bus.runnerOf('echo', 't-1')).toBeUndefined();
      expect(await bus.claimRun(run, 'B')).toBe(false);
    });
  });
}
