/**
 * The PushStore suite against the memory and SQLite task stores, plus what only SQLite owes: the
 * configs and the outbox survive reopening the file, a file of schema 3 is upgraded in place, and
 * a commit and its outbox entries are one write (a commit that fails queues nothing).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryTaskStore, MemoryTaskStore, VersionConflictError } from '../../src/store/index.js';
import { openSqliteTaskStore, SQLITE_SCHEMA_VERSION } from '../../src/store/sqlite/internal.js';
import { describePushStoreSuite, pushConfig } from './push-store-suite.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';
import { undoSchema8 } from './sqlite-rollback.js';

const dirs: string[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-push-'));
  dirs.push(dir);
  return join(dir, 'tasks.db');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describePushStoreSuite('memory', () => {
  const store = createMemoryTaskStore();
  return Promise.resolve({ store, cleanup: () => store.close() });
});

describePushStoreSuite('sqlite (file)', () => {
  const store = openSqliteTaskStore({ path: tempDb() });
  return Promise.resolve({ store, cleanup: () => store.close() });
});

describe('memory PushStore bounds', () => {
  it("keeps an evicted task's configs until its pending deliveries are settled", async () => {
    const store = new MemoryTaskStore({ maxTasks: 1 });
    const done = makeTask('t1', { state: 'TASK_STATE_COMPLETED' });
    await store.commit({ ...createCommit(done), pushConfigs: [pushConfig('t1', 'a')] });
    // A second task pushes the finished first one out of the store.
    await store.commit(createCommit(makeTask('t2')));
    expect(await store.get('t1', ANON)).toBeUndefined();
    const [entry] = await store.push.claimDue(Date.now(), 10, 1000);
    expect(await store.push.getConfig('t1', 'a')).toEqual(pushConfig('t1', 'a'));
    await store.push.settle(entry!.id, { outcome: 'delivered' });
    expect(await store.push.getConfig('t1', 'a')).toBeUndefined();
    await store.close();
  });
});

describe('SQLite PushStore durability', () => {
  it('keeps configs, pending entries and dead letters across reopening', async () => {
    const path = tempDb();
    let store = openSqliteTaskStore({ path });
    await store.commit(createCommit(makeTask('t1')));
    await store.push!.putConfig(pushConfig('t1', 'a', { sealedSecrets: 'sealed' }));
    const working = makeTask('t1', { state: 'TASK_STATE_WORKING' });
    await store.commit({ ...ANON, task: working, expectedVersion: 1, events: [statusEvent(working)] });
    const [claimed] = await store.push!.claimDue(Date.now(), 1, 60_000);
    await store.close();

    store = openSqliteTaskStore({ path });
    try {
      expect(await store.push!.getConfig('t1', 'a')).toEqual(
        pushConfig('t1', 'a', { sealedSecrets: 'sealed' }),
      );
      // Still leased after the restart; due again once the lease is over.
      expect(await store.push!.claimDue(Date.now(), 10, 1000)).toEqual([]);
      const [again] = await store.push!.claimDue(Date.now() + 61_000, 10, 1000);
      expect(again).toMatchObject({
        id: claimed!.id,
        attempts: 2,
        events: [statusEvent(working)],
        task: working,
      });
      // The count on the task row came back with it: the next commit queues again.
      const done = makeTask('t1', { state: 'TASK_STATE_COMPLETED' });
      await store.commit({ ...ANON, task: done, expectedVersion: 2, events: [statusEvent(done)] });
      await store.push!.settle(again!.id, { outcome: 'delivered' });
      const [next] = await store.push!.claimDue(Date.now(), 10, 1000);
      expect(next?.task).toEqual(done);
    } finally {
      await store.close();
    }
  });

  it('queues nothing for a commit that loses a version conflict', async () => {
    const store = openSqliteTaskStore({ path: tempDb() });
    try {
      await store.commit(createCommit(makeTask('t1')));
      await store.push!.putConfig(pushConfig('t1', 'a'));
      const working = makeTask('t1', { state: 'TASK_STATE_WORKING' });
      await expect(
        store.commit({ ...ANON, task: working, expectedVersion: 5, events: [statusEvent(working)] }),
      ).rejects.toBeInstanceOf(VersionConflictError);
      expect(await store.push!.nextDueAt()).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('upgrades a schema-3 file in place: existing tasks get no configs', async () => {
    const path = tempDb();
    const store = openSqliteTaskStore({ path });
    await store.commit(createCommit(makeTask('old')));
    await store.close();
    // Roll the file back to schema 3, as an older Concord left it.
    const db = new Database(path);
    undoSchema8(db);
    db.exec('DROP TABLE push_configs; DROP TABLE push_outbox; DROP TABLE push_dead_letters;');
    db.exec('DROP TABLE idempotency_keys;');
    db.exec('ALTER TABLE tasks DROP COLUMN push_configs');
    db.pragma('user_version = 3');
    db.close();

    const upgraded = openSqliteTaskStore({ path });
    try {
      const raw = new Database(path, { readonly: true });
      expect(raw.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
      raw.close();
      expect((await upgraded.get('old', ANON))?.version).toBe(1);
      await upgraded.push!.putConfig(pushConfig('old', 'a'));
      const w = makeTask('old', { state: 'TASK_STATE_WORKING' });
      await upgraded.commit({ ...ANON, task: w, expectedVersion: 1, events: [statusEvent(w)] });
      expect((await upgraded.push!.claimDue(Date.now(), 10, 1000)).map((e) => e.taskId)).toEqual(['old']);
    } finally {
      await upgraded.close();
    }
  });
});
