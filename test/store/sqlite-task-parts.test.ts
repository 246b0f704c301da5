/**
 * A heavy task on SQLite (decision 0164, src/store/sqlite/task-parts.ts): past SPLIT_BYTES its
 * history and artifact updates move to rows of their own, and every read still returns exactly
 * the task the commits described — across the split, after reopening the file, in lists, with
 * GetTask's historyLength, and gone with the task when retention deletes it. Sizes are small and
 * nothing is timed: the cost curve lives in the benchmark (bench/scale/long-tasks.mjs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../../src/protocol/index.js';
import { applyEvents } from '../../src/server/task-run/task-projection.js';
import type { TaskScope, TaskStore } from '../../src/store/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite/internal.js';
import { SPLIT_BYTES } from '../../src/store/heavy-tasks.js';

const scope: TaskScope = { tenant: 'acme', owner: 'alice' };
const dirs: string[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-parts-'));
  dirs.push(dir);
  return join(dir, 'tasks.db');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A task that grows by commits as a long-running agent's would, committed as the server does. */
class GrowingTask {
  task: Task;
  version = 0;
  private n = 0;

  constructor(
    readonly id: string,
    private readonly store: TaskStore,
  ) {
    this.task = {
      id,
      contextId: `ctx-${id}`,
      status: { state: 'TASK_STATE_SUBMITTED', timestamp: '2026-01-01T00:00:00.000Z' },
      history: [{ messageId: `${id}-user`, role: 'ROLE_USER', parts: [{ text: 'start' }] }],
    };
  }

  async create(): Promise<void> {
    await this.commit([{ task: this.task }], this.task);
  }

  /** A status update whose message joins the history, and an appended artifact chunk. */
  async step(chunkChars = 900): Promise<void> {
    const i = this.n++;
    const status = {
      state: 'TASK_STATE_WORKING' as const,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 1 + i)).toISOString(),
      message: { messageId: `${this.id}-m${i}`, role: 'ROLE_AGENT' as const, parts: [{ text: `step ${i}` }] },
    };
    const events: StreamResponse[] = [
      { statusUpdate: { taskId: this.id, contextId: this.task.contextId, status } },
      {
        artifactUpdate: {
          taskId: this.id,
          contextId: this.task.contextId,
          artifact: { artifactId: 'log', parts: [{ text: String(i % 10).repeat(chunkChars) }] },
          ...(i === 0 ? {} : { append: true }),
        },
      },
    ];
    // A second artifact replaced now and then: a replace must win over what came before it.
    if (i % 7 === 3) {
      events.push({
        artifactUpdate: {
          taskId: this.id,
          contextId: this.task.contextId,
          artifact: { artifactId: 'summary', parts: [{ text: `summary after ${i}` }], metadata: { step: i } },
        },
      });
    }
    await this.commit(events, applyEvents(this.task, events));
  }

  private async commit(events: StreamResponse[], task: Task): Promise<void> {
    this.version = await this.store.commit({ ...scope, task, expectedVersion: this.version, events });
    this.task = task;
  }
}

function rawRow(path: string, id: string): { snapshot: string; history_rows: number | null } {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT snapshot, history_rows FROM tasks WHERE id = ?').get(id) as {
      snapshot: string;
      history_rows: number | null;
    };
  } finally {
    db.close();
  }
}

function count(path: string, sql: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('SQLite: a heavy task kept in rows', () => {
  it('reads back exactly what the commits described, before and after the split', async () => {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    try {
      const grown = new GrowingTask('long', store);
      await grown.create();
      let splitAt: number | undefined;
      for (let i = 0; i < 150; i++) {
        await grown.step();
        expect((await store.get('long', scope))?.task).toEqual(grown.task);
        if (splitAt === undefined && rawRow(path, 'long').history_rows !== null) splitAt = i;
      }
      // It did split, and only once it had outgrown the threshold.
      expect(splitAt).toBeDefined();
      expect(JSON.stringify(grown.task).length).toBeGreaterThan(SPLIT_BYTES);
      // The row keeps the head only: no history, no artifacts, small whatever the task weighs.
      const row = rawRow(path, 'long');
      expect(row.history_rows).toBe(grown.task.history!.length);
      const head = JSON.parse(row.snapshot) as Task;
      expect(head.history).toBeUndefined();
      expect(head.artifacts).toBeUndefined();
      expect(head.status).toEqual(grown.task.status);
      expect(row.snapshot.length).toBeLessThan(1000);
      expect((await store.get('long', scope))?.version).toBe(grown.version);
    } finally {
      await store.close();
    }
  });

  it('reads only the newest messages for historyLength, and the whole task in lists', async () => {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    try {
      const grown = new GrowingTask('long', store);
      await grown.create();
      for (let i = 0; i < 100; i++) await grown.step();
      expect(rawRow(path, 'long').history_rows).not.toBeNull();
      const recent = (await store.get('long', scope, { historyLength: 5 }))!.task;
      expect(recent.history).toEqual(grown.task.history!.slice(-5));
      expect(recent.artifacts).toEqual(grown.task.artifacts);
      expect(recent.status).toEqual(grown.task.status);
      // More than there are: all of them.
      const all = (await store.get('long', scope, { historyLength: 10_000 }))!.task;
      expect(all.history).toEqual(grown.task.history);
      const page = await store.list({ ...scope, pageSize: 10 });
      expect(page.tasks).toEqual([grown.task]);
    } finally {
      await store.close();
    }
  });

  it('goes on after the file is reopened, refuses a stale commit, and is deleted whole by retention', async () => {
    const path = tempDb();
    let store = new SqliteTaskStore({ path });
    const grown = new GrowingTask('long', store);
    await grown.create();
    for (let i = 0; i < 90; i++) await grown.step();
    await store.close();
    expect(rawRow(path, 'long').history_rows).not.toBeNull();

    store = new SqliteTaskStore({ path });
    try {
      const again = Object.assign(new GrowingTask('long', store), {
        task: grown.task,
        version: grown.version,
      });
      for (let i = 0; i < 5; i++) await again.step();
      expect((await store.get('long', scope))?.task).toEqual(again.task);
      // A writer that missed the last commits is refused, and writes no rows.
      const rows = count(path, "SELECT count(*) FROM task_history WHERE task_id = 'long'");
      const stale = applyEvents(grown.task, [
        { statusUpdate: { taskId: 'long', contextId: 'ctx-long', status: { state: 'TASK_STATE_FAILED' } } },
      ]);
      await expect(
        store.commit({
          ...scope,
          task: stale,
          expectedVersion: grown.version,
          events: [{ statusUpdate: { taskId: 'long', contextId: 'ctx-long', status: stale.status } }],
        }),
      ).rejects.toMatchObject({ name: 'VersionConflictError' });
      expect(count(path, "SELECT count(*) FROM task_history WHERE task_id = 'long'")).toBe(rows);

      const done = applyEvents(again.task, [
        {
          statusUpdate: {
            taskId: 'long',
            contextId: 'ctx-long',
            status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-02T00:00:00.000Z' },
          },
        },
      ]);
      await store.commit({
        ...scope,
        task: done,
        expectedVersion: again.version,
        events: [{ statusUpdate: { taskId: 'long', contextId: 'ctx-long', status: done.status } }],
      });
      expect((await store.get('long', scope))?.task).toEqual(done);
      expect(await store.deleteExpiredTasks(1000, Date.parse('2026-02-01T00:00:00Z'))).toBe(1);
      expect(await store.get('long', scope)).toBeUndefined();
      expect(count(path, 'SELECT count(*) FROM task_history')).toBe(0);
      expect(count(path, 'SELECT count(*) FROM task_artifact_updates')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
