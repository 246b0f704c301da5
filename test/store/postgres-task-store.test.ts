/**
 * The shared TaskStore suite against PostgreSQL (when CONCORD_TEST_POSTGRES_URL is set), plus what
 * only a shared database owes: two pools (as two processes would have) racing on one task lose no
 * update, and everything is there after reopening.
 */
import { describe, expect, it } from 'vitest';
import type { StreamResponse } from '../../src/protocol/model.js';
import { VersionConflictError, type TaskScope } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { POSTGRES_SKIP_NOTE, POSTGRES_URL, freshSchema, openTestPostgresStore } from '../helpers/postgres.js';
import { createCommit, describeTaskStoreSuite, makeTask, statusEvent } from './task-store-suite.js';

if (POSTGRES_URL === undefined) {
  describe('TaskStore suite: postgres', () => {
    it.skip(`runs against PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {});
  });
} else {
  describeTaskStoreSuite('postgres', async () => {
    const store = await openTestPostgresStore();
    return { store, cleanup: () => store.close() };
  });
}

describe.skipIf(POSTGRES_URL === undefined)(`PostgreSQL TaskStore across pools${POSTGRES_SKIP_NOTE}`, () => {
  const scope: TaskScope = { tenant: 'acme', owner: 'alice' };

  it('loses no update when two pools race to extend the same tasks', async () => {
    const schema = freshSchema();
    const url = POSTGRES_URL!;
    const a = await openPostgresStore({ connectionString: url, schema, poolSize: 4 });
    const b = await openPostgresStore({ connectionString: url, schema, poolSize: 4 });
    try {
      const ids = Array.from({ length: 5 }, (_, i) => `race-${i}`);
      for (const id of ids) await a.commit(createCommit(makeTask(id), scope));
      // Each writer reads, then commits one event on top of what it read, retrying on conflict:
      // the read-modify-write every runner does. Nothing may be lost or written twice.
      const writer = async (store: typeof a, name: string, id: string, rounds: number) => {
        let wins = 0;
        let conflicts = 0;
        while (wins < rounds) {
          const current = (await store.get(id, scope))!;
          const task = makeTask(id, {
            state: 'TASK_STATE_WORKING',
            timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, current.version)).toISOString(),
          });
          const event: StreamResponse = {
            statusUpdate: {
              taskId: id,
              contextId: task.contextId,
              status: task.status,
              metadata: { by: name },
            },
          };
          try {
            await store.commit({ ...scope, task, expectedVersion: current.version, events: [event] });
            wins++;
          } catch (error) {
            expect(error).toBeInstanceOf(VersionConflictError);
            conflicts++;
          }
        }
        return conflicts;
      };
      const rounds = 15;
      const results = await Promise.all(
        ids.flatMap((id) => [writer(a, 'a', id, rounds), writer(b, 'b', id, rounds)]),
      );
      expect(
        results.reduce((n, c) => n + c, 0),
        'the race should have produced conflicts',
      ).toBeGreaterThan(0);
      for (const id of ids) {
        const stored = await b.get(id, scope);
        expect(stored?.version).toBe(1 + 2 * rounds);
        const log = await a.readEvents(id, 0, scope);
        expect(log.map((r) => r.seq)).toEqual(Array.from({ length: 1 + 2 * rounds }, (_, i) => i + 1));
        const by = log
          .slice(1)
          .map((r) => ('statusUpdate' in r.event ? r.event.statusUpdate.metadata?.by : 0));
        expect(by.filter((w) => w === 'a')).toHaveLength(rounds);
        expect(by.filter((w) => w === 'b')).toHaveLength(rounds);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lets exactly one of many creators on two pools win', async () => {
    const schema = freshSchema();
    const a = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 5 });
    const b = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 5 });
    try {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? a : b).commit(createCommit(makeTask('hot', { contextId: `c${i}` }), scope)),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(VersionConflictError);
      expect(await a.readEvents('hot', 0, scope)).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('finds every task, event and list entry after reopening', async () => {
    const schema = freshSchema();
    let store = await openPostgresStore({ connectionString: POSTGRES_URL!, schema });
    const tasks = Array.from({ length: 5 }, (_, i) =>
      makeTask(`t${i}`, { timestamp: `2025-01-01T00:00:0${i}Z` }),
    );
    await Promise.all(tasks.map((t) => store.commit(createCommit(t, scope))));
    const done = makeTask('t0', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:09Z' });
    await store.commit({ ...scope, task: done, expectedVersion: 1, events: [statusEvent(done)] });
    // Not awaited: close() must let it finish.
    const inFlight = store.commit(
      createCommit(makeTask('late', { timestamp: '2024-12-31T00:00:00Z' }), scope),
    );
    await store.close();
    await expect(inFlight).resolves.toBe(1);
    await expect(store.get('t0', scope)).rejects.toThrow(/closed/);

    store = await openPostgresStore({ connectionString: POSTGRES_URL!, schema });
    try {
      expect(await store.get('t0', scope)).toEqual({ ...scope, version: 2, task: done });
      expect((await store.readEvents('t0', 0, scope)).map((r) => r.event)).toEqual([
        { task: tasks[0] },
        statusEvent(done),
      ]);
      const page = await store.list({ ...scope, pageSize: 10 });
      expect(page.tasks.map((t) => t.id)).toEqual(['t0', 't4', 't3', 't2', 't1', 'late']);
      expect(page.totalSize).toBe(6);
    } finally {
      await store.close();
    }
  });
});
