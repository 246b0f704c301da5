/**
 * Task retention (decision 0103) on both durable stores: expired terminal tasks go with their
 * events, push configs and dead letters; tasks still running, recent ones and ones with a pending
 * delivery stay; big backlogs are deleted batch by batch; the timer sweeps on its own; and on
 * PostgreSQL two instances sweeping at once delete each task once.
 */
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/store/internal.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';
import { pushConfig } from './push-store-suite.js';
import { openers, taskAt } from './retention-openers.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';

const DAY = 86_400_000;

for (const opener of openers) {
  describe.skipIf(opener.skip)(`retention: ${opener.name}`, () => {
    it('deletes expired terminal tasks with their events, configs and dead letters, and nothing else', async () => {
      const store = await opener.open();
      try {
        const now = Date.parse('2025-06-01T00:00:00Z');
        await taskAt(store, 'old-done', 'TASK_STATE_COMPLETED', '2025-05-01T00:00:00Z');
        await store.commit({
          ...createCommit(
            makeTask('keyed', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-05-01T00:00:00Z' }),
          ),
          idempotencyKey: 'm:1',
        });
        await taskAt(store, 'old-running', 'TASK_STATE_WORKING', '2025-05-01T00:00:00Z');
        await taskAt(store, 'new-done', 'TASK_STATE_COMPLETED', '2025-05-31T12:00:00Z');
        // An expired task with a dead letter and a config: all of it goes.
        await store.commit(createCommit(makeTask('old-dead', { timestamp: '2025-05-01T00:00:00Z' })));
        await store.push.putConfig(pushConfig('old-dead', 'hook'));
        const failed = makeTask('old-dead', {
          state: 'TASK_STATE_COMPLETED',
          timestamp: '2025-05-01T00:00:01Z',
        });
        await store.commit({ ...ANON, task: failed, expectedVersion: 1, events: [statusEvent(failed)] });
        const [entry] = await store.push.claimDue(now, 10, 1000);
        await store.push.settle(entry!.id, { outcome: 'dead', deliveredSeq: 1, reason: 'gone', url: 'u' });
        // An expired task whose delivery is still pending: kept until it settles.
        await store.commit(createCommit(makeTask('old-pending', { timestamp: '2025-05-01T00:00:00Z' })));
        await store.push.putConfig(pushConfig('old-pending', 'hook'));
        const pending = makeTask('old-pending', {
          state: 'TASK_STATE_COMPLETED',
          timestamp: '2025-05-01T00:00:02Z',
        });
        await store.commit({ ...ANON, task: pending, expectedVersion: 1, events: [statusEvent(pending)] });

        expect(await store.deleteExpiredTasks(DAY, now)).toBe(3);
        // The key went with its task (decision 0091): a new send may use it again.
        expect(await store.findIdempotencyKey('m:1', ANON)).toBeUndefined();
        for (const gone of ['old-done', 'old-dead', 'keyed']) {
          expect(await store.get(gone, ANON), gone).toBeUndefined();
          expect(await store.readEvents(gone, 0, ANON), gone).toEqual([]);
        }
        expect(await store.push.listConfigs('old-dead')).toEqual([]);
        expect((await store.push.listDeadLetters()).deadLetters).toEqual([]);
        for (const kept of ['old-running', 'new-done', 'old-pending']) {
          expect((await store.get(kept, ANON))?.version, kept).toBe(2);
        }
        const listed = await store.list({ ...ANON, pageSize: 10 });
        expect(listed.tasks.map((t) => t.id).sort()).toEqual(['new-done', 'old-pending', 'old-running']);
        expect(listed.totalSize).toBe(3);
        // A second sweep finds nothing more; once the delivery settles, its task goes too.
        expect(await store.deleteExpiredTasks(DAY, now)).toBe(0);
        const [due] = await store.push.claimDue(now, 10, 1000);
        await store.push.settle(due!.id, { outcome: 'delivered' });
        expect(await store.deleteExpiredTasks(DAY, now)).toBe(1);
        expect(await store.get('old-pending', ANON)).toBeUndefined();
        expect(await store.push.listConfigs('old-pending')).toEqual([]);
        // The id is free again: a new task may take it.
        await store.commit(createCommit(makeTask('old-done')));
        expect((await store.get('old-done', ANON))?.version).toBe(1);
      } finally {
        await store.close();
      }
    });

    it('leaves ListTasks totalSize and the cap counting only the tasks that remain', async () => {
      // Decision 0160: deletes move the trigger-kept counters that totalSize and the cap read.
      const store = await opener.open();
      try {
        for (let i = 0; i < 6; i++) {
          await taskAt(store, `done-${i}`, 'TASK_STATE_COMPLETED', `2025-05-0${i + 1}T00:00:00Z`);
        }
        await taskAt(store, 'running', 'TASK_STATE_WORKING', '2025-05-01T00:00:00Z');
        const total = async (status?: 'TASK_STATE_COMPLETED') =>
          (await store.list({ ...ANON, pageSize: 100, ...(status ? { status } : {}) })).totalSize;
        // And with statusTimestampAfter, which sums per-hour counters (decision 0163).
        const since = async (after: string) =>
          (await store.list({ ...ANON, pageSize: 100, statusTimestampAfter: after })).totalSize;
        expect([await total(), await total('TASK_STATE_COMPLETED')]).toEqual([7, 6]);
        expect([await since('2025-04-30T00:00:00Z'), await since('2025-05-02T12:00:00Z')]).toEqual([7, 4]);
        // Expired: done-0 and done-1 (before May 3rd); the running task stays whatever its age.
        expect(await store.deleteExpiredTasks(DAY, Date.parse('2025-05-04T00:00:00Z'))).toBe(2);
        expect([await total(), await total('TASK_STATE_COMPLETED')]).toEqual([5, 4]);
        expect([await since('2025-04-30T00:00:00Z'), await since('2025-05-02T12:00:00Z')]).toEqual([5, 4]);
        // Four terminal tasks left: a cap of four deletes nothing, a cap of three the oldest.
        expect(await store.deleteTasksOverCap(4)).toBe(0);
        expect(await store.deleteTasksOverCap(3)).toBe(1);
        expect(await store.get('done-2', ANON)).toBeUndefined();
        expect([await total(), await total('TASK_STATE_COMPLETED')]).toEqual([4, 3]);
        expect([await since('2025-04-30T00:00:00Z'), await since('2025-05-02T12:00:00Z')]).toEqual([4, 3]);
      } finally {
        await store.close();
      }
    });

    it('deletes a backlog larger than one batch', async () => {
      const store = await opener.open();
      try {
        const count = 620;
        await Promise.all(
          Array.from({ length: count }, (_, i) =>
            store.commit(
              createCommit(
                makeTask(`t${i}`, { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:00Z' }),
              ),
            ),
          ),
        );
        expect(await store.deleteExpiredTasks(DAY, Date.parse('2025-02-01T00:00:00Z'))).toBe(count);
        expect((await store.list({ ...ANON, pageSize: 1 })).totalSize).toBe(0);
      } finally {
        await store.close();
      }
    });

    it('sweeps on its own timer', async () => {
      const store = await opener.open({ maxAgeMs: DAY, intervalMs: 25 });
      try {
        await taskAt(store, 'ancient', 'TASK_STATE_COMPLETED', '2020-01-01T00:00:00Z');
        await taskAt(store, 'fresh', 'TASK_STATE_COMPLETED', new Date().toISOString());
        await expect.poll(() => store.get('ancient', ANON), { timeout: 5000, interval: 25 }).toBeUndefined();
        expect((await store.get('fresh', ANON))?.version).toBe(2);
      } finally {
        await store.close();
      }
    });
  });
}

describe('retention options', () => {
  it('parses durations and refuses nonsense', () => {
    expect(parseDuration('30d')).toBe(30 * DAY);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('45s')).toBe(45_000);
    expect(parseDuration('250')).toBe(250);
    for (const bad of ['', '0', '-1d', '3 weeks', 'd'])
      expect(() => parseDuration(bad), bad).toThrow(/duration/);
  });

  it('refuses a non-positive maxAgeMs before opening anything', () => {
    expect(() => new SqliteTaskStore({ path: ':memory:', retention: { maxAgeMs: 0 } })).toThrow(/maxAgeMs/);
  });
});

describe.skipIf(POSTGRES_URL === undefined)(
  `retention across PostgreSQL instances${POSTGRES_SKIP_NOTE}`,
  () => {
    it('lets two instances sweep at once, deleting each task once', async () => {
      const schema = freshSchema();
      const a = await openPostgresStore({ connectionString: POSTGRES_URL!, schema });
      const b = await openPostgresStore({ connectionString: POSTGRES_URL!, schema });
      try {
        const count = 1200;
        for (let i = 0; i < count; i += 100) {
          await Promise.all(
            Array.from({ length: 100 }, (_, j) =>
              a.commit(
                createCommit(
                  makeTask(`t${i + j}`, { state: 'TASK_STATE_FAILED', timestamp: '2025-01-01T00:00:00Z' }),
                ),
              ),
            ),
          );
        }
        const now = Date.parse('2025-03-01T00:00:00Z');
        const [x, y] = await Promise.all([a.deleteExpiredTasks(DAY, now), b.deleteExpiredTasks(DAY, now)]);
        expect(x + y).toBe(count);
        expect((await b.list({ ...ANON, pageSize: 1 })).totalSize).toBe(0);
      } finally {
        await a.close();
        await b.close();
      }
    });
  },
);
