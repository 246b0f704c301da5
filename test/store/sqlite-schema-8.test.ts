/**
 * Schema 8 of the SQLite store (docs/performance.md, 'Fewer B-trees per commit'): one event row per
 * commit, idempotency keys listed on their task row, retention through tasks_by_state. A schema-7
 * file, with its one-row-per-event log and its keys, upgrades in place and reads, retries and
 * expires as before.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { TaskScope } from '../../src/store/index.js';
import { SQLITE_SCHEMA_VERSION, SqliteTaskStore } from '../../src/store/sqlite/internal.js';
import { undoSchema8 } from './sqlite-rollback.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';
import { tempFiles } from '../helpers/temp-files.js';

const DAY = 86_400_000;
const NOW = Date.parse('2025-06-01T00:00:00Z');
const OLD = '2025-05-01T00:00:00.000Z';
const tempPath = tempFiles('concord-schema8-');
const tempDb = (): string => tempPath('tasks.db');

function rows(path: string, sql: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe('SQLite schema 8', () => {
  it('writes one event row per commit and reads any suffix of it back', async () => {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    try {
      const task = makeTask('t1');
      const working = makeTask('t1', { state: 'TASK_STATE_WORKING' });
      const done = makeTask('t1', { state: 'TASK_STATE_COMPLETED' });
      const events = [{ task }, statusEvent(working), statusEvent(done)];
      await store.commit({ ...ANON, task: done, expectedVersion: 0, events });
      const more = makeTask('t1', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-02T00:00:00Z' });
      await store.commit({ ...ANON, task: more, expectedVersion: 3, events: [statusEvent(more)] });
      expect(rows(path, 'SELECT last_seq FROM task_events ORDER BY last_seq')).toEqual([
        { last_seq: 3 },
        { last_seq: 4 },
      ]);
      const all = [...events, statusEvent(more)];
      for (let after = 0; after <= 4; after++) {
        const read = await store.readEvents('t1', after, ANON);
        expect(
          read.map((r) => r.seq),
          `after ${after}`,
        ).toEqual([1, 2, 3, 4].filter((s) => s > after));
        expect(
          read.map((r) => r.event),
          `after ${after}`,
        ).toEqual(all.slice(after));
      }
    } finally {
      await store.close();
    }
  });

  it('upgrades a schema-7 file: its event log, keys and retention carry over', async () => {
    const path = tempDb();
    const alice: TaskScope = { tenant: 'acme', owner: 'alice' };
    const old = new SqliteTaskStore({ path });
    await old.commit({ ...createCommit(makeTask('keyed', { timestamp: OLD }), ANON), idempotencyKey: 'm:1' });
    await old.commit({
      ...createCommit(makeTask('other', { timestamp: OLD }), alice),
      idempotencyKey: 'm:2',
    });
    await old.close();
    // What Concord wrote before schema 8: one row per event, keys indexed by task.
    const raw = new Database(path);
    undoSchema8(raw);
    const done = makeTask('keyed', { state: 'TASK_STATE_COMPLETED', timestamp: OLD });
    const working = makeTask('keyed', { state: 'TASK_STATE_WORKING', timestamp: OLD });
    raw
      .prepare('INSERT INTO task_events (task_id, seq, event) VALUES (?, ?, ?), (?, ?, ?)')
      .run('keyed', 2, JSON.stringify(statusEvent(working)), 'keyed', 3, JSON.stringify(statusEvent(done)));
    raw
      .prepare(
        "UPDATE tasks SET version = 3, state = 'TASK_STATE_COMPLETED', snapshot = ? WHERE id = 'keyed'",
      )
      .run(JSON.stringify(done));
    raw.close();

    const store = new SqliteTaskStore({ path });
    try {
      expect(rows(path, 'PRAGMA user_version')).toEqual([{ user_version: SQLITE_SCHEMA_VERSION }]);
      expect(rows(path, "SELECT held_keys FROM tasks WHERE id = 'keyed'")).toEqual([
        { held_keys: '[["","m:1"]]' },
      ]);
      expect((await store.readEvents('keyed', 1, ANON)).map((r) => r.seq)).toEqual([2, 3]);
      expect(await store.findIdempotencyKey('m:1', ANON)).toBe('keyed');
      // A follow-up after the upgrade, keyed by another caller, lands in the new format.
      const again = makeTask('keyed', { state: 'TASK_STATE_COMPLETED', timestamp: OLD });
      const bob: TaskScope = { tenant: '', owner: 'bob' };
      await store.commit({
        ...bob,
        task: again,
        expectedVersion: 3,
        events: [statusEvent(again)],
        idempotencyKey: 'm:3',
      });
      expect(await store.findIdempotencyKey('m:3', bob)).toBe('keyed');
      expect((await store.readEvents('keyed', 0, ANON)).map((r) => r.seq)).toEqual([1, 2, 3, 4]);

      // Retention finds the expired task through the state index and takes both its keys.
      expect(await store.deleteExpiredTasks(DAY, NOW)).toBe(1);
      expect(await store.findIdempotencyKey('m:1', ANON)).toBeUndefined();
      expect(await store.findIdempotencyKey('m:3', bob)).toBeUndefined();
      expect(await store.findIdempotencyKey('m:2', alice)).toBe('other');
      expect(rows(path, 'SELECT count(*) AS n FROM idempotency_keys')).toEqual([{ n: 1 }]);
    } finally {
      await store.close();
    }
  });

  it('expires terminal tasks of every tenant and no others', async () => {
    const store = new SqliteTaskStore({ path: tempDb() });
    try {
      const tenants = ['', 'acme', 'zeta'];
      for (const tenant of tenants) {
        const scope: TaskScope = { tenant, owner: '' };
        for (const state of ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_WORKING'] as const) {
          const id = `${tenant}-${state}`;
          await store.commit(createCommit(makeTask(id, { timestamp: OLD }), scope));
          const next = makeTask(id, { state, timestamp: OLD });
          await store.commit({ ...scope, task: next, expectedVersion: 1, events: [statusEvent(next)] });
        }
      }
      expect(await store.deleteExpiredTasks(DAY, NOW)).toBe(6);
      for (const tenant of tenants) {
        const page = await store.list({ tenant, owner: '', pageSize: 10 });
        expect(
          page.tasks.map((t) => t.status.state),
          tenant,
        ).toEqual(['TASK_STATE_WORKING']);
      }
    } finally {
      await store.close();
    }
  });
});
