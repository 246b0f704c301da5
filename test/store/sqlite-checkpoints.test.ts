/**
 * WAL checkpoints in a worker thread (decision 0128): the file is brought up to date while the
 * store's connection only appends to the WAL, `checkpoints: 'inline'` leaves it to SQLite's
 * automatic checkpoint, the WAL is started over once it reaches `walRestartPages`, and closing the
 * store folds the WAL into the file.
 */
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteTaskStore, type SqliteTaskStoreOptions } from '../../src/store/sqlite/index.js';
import { ANON, createCommit, makeTask } from './suite/fixtures.js';
import { tempFiles } from '../helpers/temp-files.js';

const tempPath = tempFiles('concord-checkpoints-');
const tempDb = (): string => tempPath('tasks.db');

const size = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

/** Writes `count` tasks of about 2 kB each, in batches of 50. */
async function fill(store: SqliteTaskStore, prefix: string, count: number): Promise<void> {
  const text = 'x'.repeat(2000);
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        store.commit(createCommit({ ...makeTask(`${prefix}-${i + j}`), metadata: { text } }, ANON)),
      ),
    );
  }
}

async function waitFor(test: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function open(path: string, options: Partial<SqliteTaskStoreOptions> = {}): SqliteTaskStore {
  return new SqliteTaskStore({ path, ...options });
}

describe('SQLite WAL checkpoints', () => {
  it('copies committed pages into the file from a worker, well before the WAL fills', async () => {
    const path = tempDb();
    const store = open(path);
    try {
      const before = size(path);
      // About 200 pages of WAL: SQLite's own checkpoint would wait for 1000.
      await fill(store, 'a', 300);
      expect(size(`${path}-wal`)).toBeGreaterThan(0);
      expect(await waitFor(() => size(path) > before + 300 * 2000)).toBe(true);
      expect((await store.get('a-299', ANON))?.version).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("leaves the file alone below SQLite's threshold when checkpoints are inline", async () => {
    const path = tempDb();
    const store = open(path, { checkpoints: 'inline' });
    try {
      const before = size(path);
      await fill(store, 'a', 300);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(size(path)).toBe(before);
    } finally {
      await store.close();
    }
  });

  it('starts the WAL over once it holds walRestartPages, under a steady stream of commits', async () => {
    const path = tempDb();
    const store = open(path, { walRestartPages: 64 });
    try {
      // Once the worker has checkpointed for the first time, it is up.
      const before = size(path);
      await fill(store, 'warm', 50);
      expect(await waitFor(() => size(path) > before)).toBe(true);
      // Commits keep coming, about 1,500 pages in all: a PASSIVE checkpoint alone never finds the
      // WAL fully copied when the next commit starts, so without the restart it would keep growing.
      const until = Date.now() + 1200;
      for (let round = 0; Date.now() < until; round++) {
        await fill(store, `r${round}`, 50);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(size(path)).toBeGreaterThan(1000 * 4096);
      expect(size(`${path}-wal`)).toBeLessThan(400 * 4096);
    } finally {
      await store.close();
    }
  });

  it('folds the WAL into the file on close, and the file reads back complete', async () => {
    const path = tempDb();
    const store = open(path);
    await fill(store, 'a', 150);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.prepare('SELECT count(*) AS n FROM tasks').get()).toEqual({ n: 150 });
    } finally {
      raw.close();
    }
  });
});
