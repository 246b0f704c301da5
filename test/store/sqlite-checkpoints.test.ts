/**
 * WAL checkpoints in a worker thread (docs/performance.md, 'Checkpoints in a worker'): the file is
 * brought up to date while the store's connection only appends to the WAL, `checkpoints: 'inline'`
 * leaves it to SQLite's automatic checkpoint, the WAL is started over once it reaches
 * `walRestartPages`, and closing the store folds the WAL into the file.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
      // Commits keep coming, about 125 pages a round and 10,000 in all: a PASSIVE checkpoint alone
      // never finds the WAL fully copied when the next commit starts, so without the restart the
      // WAL grows with them (4,869 pages measured). With it, the WAL reaches the threshold plus the
      // rounds written before the worker's next pass: 250-390 pages measured on a quiet machine, and
      // 513 once on a loaded CI run, so the bound leaves room for a worker starved for 350 ms.
      const until = Date.now() + 2400;
      for (let round = 0; Date.now() < until; round++) {
        await fill(store, `r${round}`, 50);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(size(path)).toBeGreaterThan(2000 * 4096);
      expect(size(`${path}-wal`)).toBeLessThan(1024 * 4096);
    } finally {
      await store.close();
    }
  });

  it('does not hold commits back for long while another connection reads an old snapshot', async () => {
    const path = tempDb();
    const store = open(path, { walRestartPages: 64, busyTimeoutMs: 2000 });
    const reader = new Database(path);
    try {
      await fill(store, 'warm', 100);
      // A shell or a backup: a read transaction left open on a snapshot of the file.
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM tasks').get();
      let longest = 0;
      const until = Date.now() + 1000;
      for (let round = 0; Date.now() < until; round++) {
        const started = performance.now();
        await fill(store, `r${round}`, 50);
        longest = Math.max(longest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      reader.exec('COMMIT');
      // A restart that waited for the reader would hold the writer for the busy timeout (2 s).
      expect(longest).toBeLessThan(500);
    } finally {
      reader.close();
      await store.close();
    }
  });

  const distEntry = fileURLToPath(new URL('../../dist/store/sqlite/index.js', import.meta.url));
  const built = existsSync(distEntry);
  it.skipIf(!built)(
    `lets a process end with a store left open${built ? '' : ' (skipped: dist/ missing, run `npm run build`)'}`,
    async () => {
      const path = tempDb();
      const script = `
        import { SqliteTaskStore } from ${JSON.stringify(pathToFileURL(distEntry).href)};
        const store = new SqliteTaskStore({ path: ${JSON.stringify(path)} });
        const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } };
        await store.commit({ tenant: '', owner: '', task, expectedVersion: 0, events: [{ task }] });
        process.stdout.write('done');
      `;
      // A module file: under \`node -e\` the process ended even with the worker still referenced.
      const file = `${path}.mjs`;
      writeFileSync(file, script);
      const child = spawn(process.execPath, [file], { stdio: 'pipe' });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(null);
        }, 5000);
        child.on('exit', (exit) => {
          clearTimeout(timer);
          resolve(exit);
        });
      });
      expect(out).toBe('done');
      expect(code, 'the process should end by itself').toBe(0);
    },
  );

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
