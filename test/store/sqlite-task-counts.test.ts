/**
 * The SQLite file's task counters (schema 12, decision 0160): a schema-11 file, whose tasks were
 * written before any counter existed, is counted once on upgrade, and ListTasks' totalSize and the
 * retention cap read the counts afterwards as they would have counted the rows.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { TaskScope } from '../../src/store/index.js';
import { SQLITE_SCHEMA_VERSION, SqliteTaskStore } from '../../src/store/sqlite/internal.js';
import { undoSchema12 } from './sqlite-rollback.js';
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
});
