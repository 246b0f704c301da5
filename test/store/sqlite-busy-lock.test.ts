/**
 * The SQLite store never waits for the write lock on the event loop (docs/performance.md, 'Write lock without
 * waiting'): while another
 * connection holds it, commits stay parked, timers and I/O keep running, and the parked commits are
 * written, in order, once it is released; held past the busy timeout, the lock fails them.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import type { TaskCommit } from '../../src/store/index.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';
import { tempFiles } from '../helpers/temp-files.js';

const tempPath = tempFiles('concord-busy-lock-');

/** Counts how often a 5 ms timer fires over `ms`: about ms / 5 on a free event loop. */
async function ticksDuring(ms: number): Promise<number> {
  let ticks = 0;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    ticks++;
  }
  return ticks;
}

/** 'written' once a commit is written, or the code of the error that refused it. */
function outcome(commit: Promise<number>): Promise<string | undefined> {
  return commit.then(
    () => 'written',
    (error: { code?: string }) => error.code,
  );
}

/** Settles to 'pending' if `promise` has not settled yet. */
function peek<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);
}

/** Another connection, on its own thread, holds the write lock of `path` for `ms` once this resolves. */
async function holdLock(path: string, ms: number): Promise<Worker> {
  const holder = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const db = new (require(workerData.driver))(workerData.path);
     db.exec('BEGIN IMMEDIATE');
     parentPort.postMessage('held');
     setTimeout(() => { db.exec('COMMIT'); db.close(); }, workerData.ms);`,
    {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path, ms },
    },
  );
  await new Promise((resolve) => holder.once('message', resolve));
  return holder;
}

describe('SQLite store, write lock held by another connection', () => {
  it('keeps the event loop turning, and writes the parked commits in order once the lock is free', async () => {
    const path = tempPath('tasks.db');
    const store = new SqliteTaskStore({ path, checkpoints: 'inline' });
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      const task = makeTask('t1');
      const first = store.commit(createCommit(task, ANON));
      // A follow-up to the same task, parked behind the first: checked against its version.
      const done = { ...task, status: { state: 'TASK_STATE_COMPLETED' as const } };
      const second: TaskCommit = { ...ANON, task: done, expectedVersion: 1, events: [statusEvent(done)] };
      const followUp = store.commit(second);
      // Blocked in SQLite's busy handler, the loop would not fire a single timer until the lock
      // was released, and this test's release runs on the loop: it would deadlock for 5 s.
      expect(await ticksDuring(150)).toBeGreaterThan(2);
      expect(await peek(first)).toBe('pending');
      other.exec('COMMIT');
      expect(await first).toBe(1);
      expect(await followUp).toBe(2);
      expect((await store.get('t1', ANON))?.task.status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await store.close();
    }
  });

  it('fails the parked commits once the lock is held past busyTimeoutMs, and writes again after', async () => {
    const path = tempPath('tasks.db');
    const store = new SqliteTaskStore({ path, checkpoints: 'inline', busyTimeoutMs: 100 });
    const other = new Database(path);
    try {
      other.exec('BEGIN IMMEDIATE');
      const started = Date.now();
      const refused = outcome(store.commit(createCommit(makeTask('late'), ANON)));
      expect(await ticksDuring(60)).toBeGreaterThan(2);
      expect(await refused).toBe('SQLITE_BUSY');
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      other.exec('COMMIT');
      expect(await store.get('late', ANON)).toBeUndefined();
      expect(await store.commit(createCommit(makeTask('after'), ANON))).toBe(1);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await store.close();
    }
  });

  it('at close, waits for a lock another thread releases, and writes what is parked', async () => {
    const path = tempPath('tasks.db');
    const store = new SqliteTaskStore({ path, checkpoints: 'inline' });
    const holder = await holdLock(path, 1000);
    try {
      const parked = store.commit(createCommit(makeTask('parked'), ANON));
      await ticksDuring(20);
      expect(await peek(parked)).toBe('pending');
      // Closing is a flush that must happen now: it waits in SQLite's busy handler (the other
      // thread releases the lock meanwhile) and writes the parked commit.
      await store.close();
      expect(await parked).toBe(1);
      const reopened = new SqliteTaskStore({ path, checkpoints: 'inline' });
      try {
        expect((await reopened.get('parked', ANON))?.version).toBe(1);
      } finally {
        await reopened.close();
      }
    } finally {
      await holder.terminate();
    }
  });
  it('fails a parked batch at once, not commit by commit, when a flush that waits times out', async () => {
    const path = tempPath('tasks.db');
    const store = new SqliteTaskStore({ path, checkpoints: 'inline', busyTimeoutMs: 100 });
    const holder = await holdLock(path, 3000);
    try {
      const parked = Array.from({ length: 10 }, (_, i) =>
        outcome(store.commit(createCommit(makeTask(`p${i}`), ANON))),
      );
      const started = performance.now();
      // Closing must flush now: it waits the busy timeout once for the whole batch. Waiting again
      // for each commit alone would take over a second here.
      await store.close();
      expect(performance.now() - started).toBeLessThan(600);
      expect(await Promise.all(parked)).toEqual(Array(10).fill('SQLITE_BUSY'));
    } finally {
      await holder.terminate();
    }
  });
});
