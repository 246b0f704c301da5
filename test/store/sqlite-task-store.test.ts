/**
 * The shared TaskStore suite against SQLite on a real file, plus what only a durable store owes:
 * everything is there after reopening, nothing acknowledged is lost when the process is killed
 * (DESIGN.md, house style 12), and files from a newer schema are refused.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskScope } from '../../src/store/index.js';
import { openSqliteTaskStore, SQLITE_SCHEMA_VERSION } from '../../src/store/sqlite/internal.js';
import { createCommit, describeTaskStoreSuite, makeTask, statusEvent } from './task-store-suite.js';

const dirs: string[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-sqlite-'));
  dirs.push(dir);
  return join(dir, 'nested', 'tasks.db');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeTaskStoreSuite('sqlite (file)', () => {
  const store = openSqliteTaskStore({ path: tempDb() });
  return Promise.resolve({ store, cleanup: () => store.close() });
});

describeTaskStoreSuite('sqlite (:memory:)', () => {
  const store = openSqliteTaskStore({ path: ':memory:' });
  return Promise.resolve({ store, cleanup: () => store.close() });
});

describe('SQLite TaskStore durability', () => {
  const scope: TaskScope = { tenant: 'acme', owner: 'alice' };

  it('finds every task, event and list entry after reopening the file', async () => {
    const path = tempDb();
    let store = openSqliteTaskStore({ path });
    const tasks = Array.from({ length: 5 }, (_, i) =>
      makeTask(`t${i}`, { timestamp: `2025-01-01T00:00:0${i}Z` }),
    );
    await Promise.all(tasks.map((t) => store.commit(createCommit(t, scope))));
    const done = makeTask('t0', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:09Z' });
    await store.commit({ ...scope, task: done, expectedVersion: 1, events: [statusEvent(done)] });
    // Not awaited: close() must still write it before the file closes.
    const parked = store.commit(createCommit(makeTask('late', { timestamp: '2024-12-31T00:00:00Z' }), scope));
    await store.close();
    await expect(parked).resolves.toBe(1);

    store = openSqliteTaskStore({ path });
    try {
      expect(await store.get('t0', scope)).toEqual({ ...scope, version: 2, task: done });
      expect((await store.readEvents('t0', 0, scope)).map((r) => r.event)).toEqual([
        { task: tasks[0] },
        statusEvent(done),
      ]);
      const page = await store.list({ ...scope, pageSize: 10 });
      expect(page.tasks.map((t) => t.id)).toEqual(['t0', 't4', 't3', 't2', 't1', 'late']);
      expect(page.totalSize).toBe(6);
      await expect(store.commit(createCommit(makeTask('t1'), scope))).rejects.toThrow(/expected version 0/);
    } finally {
      await store.close();
    }
  });

  it('refuses commits and reads after close', async () => {
    const store = openSqliteTaskStore({ path: ':memory:' });
    await store.close();
    await expect(store.commit(createCommit(makeTask('t')))).rejects.toThrow(/closed/);
    await expect(store.get('t', scope)).rejects.toThrow(/closed/);
  });

  it('refuses a file written by a newer schema', async () => {
    const path = tempDb();
    await openSqliteTaskStore({ path }).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openSqliteTaskStore({ path })).toThrow(/newer than this Concord supports/);
  });

  const distEntry = fileURLToPath(new URL('../../dist/store/sqlite/index.js', import.meta.url));
  const built = existsSync(distEntry);
  it.skipIf(!built)(
    `keeps every acknowledged commit when the writing process is killed with SIGKILL${built ? '' : ' (skipped: dist/ missing, run `npm run build`)'}`,
    async () => {
      const path = tempDb();
      const fixture = fileURLToPath(new URL('./fixtures/crash-writer.mjs', import.meta.url));
      const child = spawn(process.execPath, [fixture, path], { stdio: ['ignore', 'pipe', 'pipe'] });
      const acknowledged = new Map<string, number>();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          const [id, version] = line.split(' ');
          acknowledged.set(id!, Math.max(acknowledged.get(id!) ?? 0, Number(version)));
        }
        if (acknowledged.size >= 200 && child.exitCode === null) child.kill('SIGKILL');
      });
      const signal = await exited;
      expect(signal, `the writer should have been killed; stderr: ${stderr}`).toBe('SIGKILL');
      expect(acknowledged.size).toBeGreaterThanOrEqual(200);

      const store = openSqliteTaskStore({ path });
      try {
        const crash: TaskScope = { tenant: 'crash', owner: '' };
        for (const [id, version] of acknowledged) {
          const stored = await store.get(id, crash);
          expect(stored, id).toBeDefined();
          // A later commit may have landed without being acknowledged before the kill.
          expect(stored!.version, id).toBeGreaterThanOrEqual(version);
          expect(await store.readEvents(id, 0, crash), id).toHaveLength(stored!.version);
        }
      } finally {
        await store.close();
      }
    },
  );
});
