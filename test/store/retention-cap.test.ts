/**
 * The count cap of task retention (decision 0151) on both durable stores: past `maxTasks` terminal
 * tasks, the ones that finished longest ago go, whatever their tenant, with their events, push
 * configs, dead letters and idempotency keys; tasks still live and tasks with a pending delivery
 * stay; tasks that finished at the same instant as the last one kept stay with it; a backlog goes
 * batch by batch; the timer sweeps on its own, and so does a burst of creations between two ticks.
 */
import { describe, expect, it } from 'vitest';
import type { TaskScope } from '../../src/store/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import { pushConfig } from './push-store-suite.js';
import { openers, taskAt, type RetainingStore } from './retention-openers.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';

const T0 = Date.parse('2025-05-01T00:00:00Z');
/** The status time `ms` after T0. */
const at = (ms: number): string => new Date(T0 + ms).toISOString();
const scopeOf = (tenant: string): TaskScope => ({ tenant, owner: '' });

/** Creates `count` tasks completed `stepMs` apart from T0 + `fromMs`, ids `${prefix}${i}`. */
async function completed(store: RetainingStore, prefix: string, count: number, fromMs = 0, stepMs = 1) {
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, (_, j) =>
        store.commit(
          createCommit(
            makeTask(`${prefix}${i + j}`, {
              state: 'TASK_STATE_COMPLETED',
              timestamp: at(fromMs + (i + j) * stepMs),
            }),
          ),
        ),
      ),
    );
  }
}

/** Ids of every task of the default tenant. */
async function idsOf(store: RetainingStore, scope: TaskScope = ANON): Promise<string[]> {
  const page = await store.list({ ...scope, pageSize: 100 });
  return page.tasks.map((task) => task.id).sort();
}

for (const opener of openers) {
  describe.skipIf(opener.skip)(`retention count cap: ${opener.name}`, () => {
    it('keeps the most recently finished terminal tasks of every tenant, and every live or pending one', async () => {
      const store = await opener.open();
      try {
        // Six finished tasks a second apart, alternating between two tenants: the cap is the store's.
        for (let i = 0; i < 6; i++) {
          await taskAt(
            store,
            `done-${i}`,
            'TASK_STATE_COMPLETED',
            at(i * 1000),
            scopeOf(i % 2 === 0 ? 'a' : 'b'),
          );
        }
        // Old, but still running: never deleted, whatever the cap.
        await taskAt(store, 'running', 'TASK_STATE_WORKING', at(-86_400_000), scopeOf('a'));
        // Finished early, holding an idempotency key.
        await store.commit({
          ...createCommit(
            makeTask('keyed', { state: 'TASK_STATE_COMPLETED', timestamp: at(200) }),
            scopeOf('b'),
          ),
          idempotencyKey: 'm:1',
        });
        // Finished early with a config and a dead letter: all of it goes.
        await store.commit(createCommit(makeTask('dead', { timestamp: at(0) }), scopeOf('a')));
        await store.push.putConfig(pushConfig('dead', 'hook', { tenant: 'a' }));
        const failed = makeTask('dead', { state: 'TASK_STATE_FAILED', timestamp: at(500) });
        await store.commit({
          ...scopeOf('a'),
          task: failed,
          expectedVersion: 1,
          events: [statusEvent(failed)],
        });
        const [entry] = await store.push.claimDue(Date.now(), 10, 1000);
        await store.push.settle(entry!.id, { outcome: 'dead', deliveredSeq: 1, reason: 'gone', url: 'u' });
        // Finished first of all, its delivery still pending: kept until the delivery settles.
        await store.commit(createCommit(makeTask('pending', { timestamp: at(-86_400_000) }), scopeOf('b')));
        await store.push.putConfig(pushConfig('pending', 'hook', { tenant: 'b' }));
        const done = makeTask('pending', { state: 'TASK_STATE_COMPLETED', timestamp: at(-86_400_000) });
        await store.commit({ ...scopeOf('b'), task: done, expectedVersion: 1, events: [statusEvent(done)] });

        // Nine terminal tasks; the four that finished last stay.
        expect(await store.deleteTasksOverCap(4)).toBe(4);
        expect(await idsOf(store, scopeOf('a'))).toEqual(['done-2', 'done-4', 'running']);
        expect(await idsOf(store, scopeOf('b'))).toEqual(['done-3', 'done-5', 'pending']);
        for (const [gone, tenant] of [
          ['done-0', 'a'],
          ['done-1', 'b'],
          ['keyed', 'b'],
          ['dead', 'a'],
        ] as const) {
          expect(await store.readEvents(gone, 0, scopeOf(tenant)), gone).toEqual([]);
        }
        expect(await store.findIdempotencyKey('m:1', scopeOf('b'))).toBeUndefined();
        expect(await store.push.listConfigs('dead')).toEqual([]);
        expect((await store.push.listDeadLetters()).deadLetters).toEqual([]);
        // Within the cap but for the pending one: nothing more goes until its delivery settles.
        expect(await store.deleteTasksOverCap(4)).toBe(0);
        const [due] = await store.push.claimDue(Date.now(), 10, 1000);
        await store.push.settle(due!.id, { outcome: 'delivered' });
        expect(await store.deleteTasksOverCap(4)).toBe(1);
        expect(await idsOf(store, scopeOf('b'))).toEqual(['done-3', 'done-5']);
        // At the cap: nothing to do.
        expect(await store.deleteTasksOverCap(4)).toBe(0);
        expect(await store.deleteTasksOverCap(100)).toBe(0);
      } finally {
        await store.close();
      }
    });

    it('keeps the tasks that finished at the same instant as the last one kept', async () => {
      const store = await opener.open();
      try {
        await completed(store, 'tie-', 5, 1000, 0);
        await completed(store, 'older-', 2, 0);
        expect(await store.deleteTasksOverCap(2)).toBe(2);
        expect(await idsOf(store)).toEqual(['tie-0', 'tie-1', 'tie-2', 'tie-3', 'tie-4']);
      } finally {
        await store.close();
      }
    });

    it('deletes a backlog of many batches, oldest first', async () => {
      const store = await opener.open();
      try {
        await completed(store, 't', 1250);
        expect(await store.deleteTasksOverCap(100)).toBe(1150);
        const kept = await store.list({ ...ANON, pageSize: 100 });
        expect(kept.totalSize).toBe(100);
        expect(kept.tasks.map((task) => task.id).sort()).toEqual(
          Array.from({ length: 100 }, (_, i) => `t${1150 + i}`).sort(),
        );
      } finally {
        await store.close();
      }
    });

    it('sweeps on its own timer', async () => {
      const store = await opener.open();
      // Created through another store, so this one counts no creations: only its timer sweeps.
      const sweeping = await opener.beside(store, { maxTasks: 3, intervalMs: 25 });
      try {
        await completed(store, 't', 6);
        await expect.poll(() => idsOf(sweeping), { timeout: 5000, interval: 25 }).toEqual(['t3', 't4', 't5']);
      } finally {
        await sweeping.close();
        await store.close();
      }
    });

    it('sweeps after a tenth of the cap in creations, without waiting for the timer', async () => {
      const store = await opener.open({ maxTasks: 20, intervalMs: 3_600_000 });
      try {
        for (let i = 0; i < 100; i++) {
          await store.commit(
            createCommit(makeTask(`t${i}`, { state: 'TASK_STATE_COMPLETED', timestamp: at(i) })),
          );
        }
        // A sweep starts every two creations: at most one created since the last one began.
        await expect
          .poll(async () => (await store.list({ ...ANON, pageSize: 1 })).totalSize, {
            timeout: 5000,
            interval: 20,
          })
          .toBeLessThanOrEqual(21);
        const kept = await idsOf(store);
        for (let i = 80; i < 100; i++) expect(kept).toContain(`t${i}`);
      } finally {
        await store.close();
      }
    });
  });
}

/** Runs `work`, counting the turns the event loop takes meanwhile (none if `work` holds it throughout). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let working = true;
  const turn = (): void => {
    turns++;
    if (working) setImmediate(turn);
  };
  const running = work();
  setImmediate(turn);
  const result = await running;
  working = false;
  return { result, turns };
}

describe('retention on SQLite', () => {
  it('lets the event loop run between batches', async () => {
    const store = await openers[0]!.open();
    try {
      await completed(store, 't', 1600);
      const expired = await turnsDuring(() => store.deleteExpiredTasks(1000, T0 + 800 + 1000));
      expect(expired.result).toBe(800);
      expect(expired.turns).toBeGreaterThanOrEqual(1);
      const capped = await turnsDuring(() => store.deleteTasksOverCap(10));
      expect(capped.result).toBe(790);
      expect(capped.turns).toBeGreaterThanOrEqual(1);
    } finally {
      await store.close();
    }
  });
});

describe('retention count cap options', () => {
  it('refuses a cap that is not a whole number of at least 1, and a policy with no limit', () => {
    for (const maxTasks of [0, -1, 1.5, Number.NaN]) {
      expect(
        () => new SqliteTaskStore({ path: ':memory:', retention: { maxTasks } }),
        String(maxTasks),
      ).toThrow(/retention: maxTasks must be a whole number of at least 1/);
    }
    expect(() => new SqliteTaskStore({ path: ':memory:', retention: { intervalMs: 10 } })).toThrow(
      /retention: give maxAgeMs, maxTasks or both/,
    );
  });
});
