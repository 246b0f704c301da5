/**
 * The SQLite file's task counters (schema 12, decision 0160; by hour, schema 13, decision 0163): a
 * file whose tasks were written before the counters existed is counted once on upgrade, and
 * ListTasks' totalSize and the retention cap read the counts afterwards as they would have counted
 * the rows; counter rows that reach zero go.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { TaskScope } from '../../src/store/index.js';
import { SQLITE_SCHEMA_VERSION, SqliteTaskStore } from '../../src/store/sqlite/internal.js';
import { undoSchema12, undoSchema13 } from './sqlite-rollback.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';
import { tempFiles } from '../helpers/temp-files.js';

const tempPath = tempFiles('concord-counts-');

describe('SQLite task counters', () => {
  it('counts the tasks of a schema-11 file on upgrade, and keeps counting from there', async () => {
    const path = tempPath('tasks.db');
    const alice: TaskScope = { tenant: '', owner: 'alice' };
    const old = new SqliteTaskStore({ path });
    for (let i = 0; i < 5; i++) {
      await old.commit(createCommit(makeTask(`anon-${i}`, { timestamp: `2025-01-01T00:00:0${i}Z` })));
    }
    await old.commit(createCommit(makeTask('mine', { timestamp: '2025-01-02T00:00:00Z' }), alice));
    const done = makeTask('anon-0', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-03T00:00:00Z' });
    await old.commit({ ...ANON, task: done, expectedVersion: 1, events: [statusEvent(done)] });
    await old.close();
    const db = new Database(path);
    undoSchema13(db);
    undoSchema12(db);
    // Written as schema 11 would have: no counter moves with this one.
    db.prepare("UPDATE tasks SET state = 'TASK_STATE_FAILED' WHERE id = 'anon-1'").run();
    db.close();

    const store = new SqliteTaskStore({ path });
    try {
      expect(store.schemaMigration).toEqual({ from: 11, to: SQLITE_SCHEMA_VERSION });
      const total = async (scope: TaskScope, status?: 'TASK_STATE_SUBMITTED' | 'TASK_STATE_FAILED') =>
        (await store.list({ ...scope, pageSize: 100, ...(status ? { status } : {}) })).totalSize;
      expect(await total(ANON)).toBe(5);
      expect(await total(alice)).toBe(6);
      expect(await total(ANON, 'TASK_STATE_SUBMITTED')).toBe(3);
      expect(await total(ANON, 'TASK_STATE_FAILED')).toBe(1);
      await store.commit(createCommit(makeTask('later', { timestamp: '2025-01-04T00:00:00Z' })));
      expect(await total(ANON)).toBe(6);
      // Two terminal tasks: a cap of one deletes the older.
      expect(await store.deleteTasksOverCap(1)).toBe(1);
      expect(await total(alice)).toBe(6);
      expect(await store.get('anon-1', ANON)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('counts a schema-12 file by hour on upgrade, and leaves no row for an emptied hour', async () => {
    const path = tempPath('hours.db');
    const old = new SqliteTaskStore({ path });
    for (const [id, timestamp] of [
      ['a', '2025-06-01T08:59:59Z'],
      ['b', '2025-06-01T09:00:00Z'],
      ['c', '2025-06-01T09:30:00Z'],
      ['d', '2025-06-01T11:00:00Z'],
    ] as const) {
      await old.commit(createCommit(makeTask(id, { timestamp })));
    }
    await old.close();
    const db = new Database(path);
    undoSchema13(db);
    db.close();

    const store = new SqliteTaskStore({ path });
    const after = async (statusTimestampAfter: string) =>
      (await store.list({ ...ANON, pageSize: 100, statusTimestampAfter })).totalSize;
    try {
      expect(store.schemaMigration).toEqual({ from: 12, to: SQLITE_SCHEMA_VERSION });
      expect(await after('2025-06-01T08:00:00Z')).toBe(4);
      expect(await after('2025-06-01T09:00:00Z')).toBe(2);
      expect(await after('2025-06-01T09:15:00Z')).toBe(2);
      // Task b finishes at 12:00: hour 09 keeps c alone, hour 12 gains one.
      const done = makeTask('b', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-06-01T12:00:00Z' });
      await store.commit({ ...ANON, task: done, expectedVersion: 1, events: [statusEvent(done)] });
      expect(await after('2025-06-01T09:00:00Z')).toBe(3);
      expect(await after('2025-06-01T11:30:00Z')).toBe(1);
    } finally {
      await store.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      // Hour 08 and 11 hold one task each, 09 c (submitted), 12 b (completed); none is zero.
      expect(raw.prepare('SELECT hour, state, n FROM task_hours ORDER BY hour').all()).toEqual([
        { hour: '2025-06-01T08', state: 'TASK_STATE_SUBMITTED', n: 1 },
        { hour: '2025-06-01T09', state: 'TASK_STATE_SUBMITTED', n: 1 },
        { hour: '2025-06-01T11', state: 'TASK_STATE_SUBMITTED', n: 1 },
        { hour: '2025-06-01T12', state: 'TASK_STATE_COMPLETED', n: 1 },
      ]);
    } finally {
      raw.close();
    }
  });
});
