/**
 * A heavy task on SQLite and PostgreSQL (decision 0164, src/store/heavy-tasks.ts): past
 * SPLIT_BYTES its history and artifact updates move to rows of their own, and every read still
 * returns exactly the task the commits described — across the split, after reopening the store,
 * in lists, with GetTask's historyLength, in a push outbox entry, and gone with the task when
 * retention deletes it. Sizes are small and nothing is timed: the cost curve lives in the
 * benchmark (bench/scale/long-tasks.mjs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamResponse, Task } from '../../src/protocol/index.js';
import { applyEvents, withoutArtifactParts } from '../../src/server/task-run/task-projection.js';
import type { ArtifactPiece, PushConfigRecord, TaskScope, TaskStore } from '../../src/store/index.js';
import { openPostgresStore, type PostgresTaskStore } from '../../src/store/postgres/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite/internal.js';
import { artifactRowGroups, foldUpdates, SPLIT_BYTES } from '../../src/store/heavy-tasks.js';
import { POSTGRES_SKIP_NOTE, POSTGRES_URL, freshSchema } from '../helpers/postgres.js';

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

/** A store Concord ships, as the cases drive it, and a look at its rows underneath. */
interface Backend {
  open(): Promise<HeavyStore>;
  /** The same data, opened again (a restart). */
  reopen(): Promise<HeavyStore>;
  row(id: string): Promise<{ snapshot: string; history_rows: number | null }>;
  count(table: 'task_history' | 'task_artifact_updates'): Promise<number>;
}

type HeavyStore = TaskStore & {
  deleteExpiredTasks(maxAgeMs: number, now?: number): Promise<number>;
};

function sqliteBackend(): Backend {
  const path = tempDb();
  const read = <T>(run: (db: Database.Database) => T): T => {
    const db = new Database(path, { readonly: true });
    try {
      return run(db);
    } finally {
      db.close();
    }
  };
  return {
    open: () => Promise.resolve(new SqliteTaskStore({ path })),
    reopen: () => Promise.resolve(new SqliteTaskStore({ path })),
    row: (id) =>
      Promise.resolve(
        read(
          (db) =>
            db.prepare('SELECT snapshot, history_rows FROM tasks WHERE id = ?').get(id) as {
              snapshot: string;
              history_rows: number | null;
            },
        ),
      ),
    count: (table) =>
      Promise.resolve(read((db) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number)),
  };
}

function postgresBackend(): Backend {
  const schema = freshSchema();
  const open = (): Promise<PostgresTaskStore> =>
    openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 2 });
  const query = async <T>(text: string, values: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    open,
    reopen: open,
    row: async (id) =>
      (
        await query<{ snapshot: string; history_rows: number | null }>(
          `SELECT snapshot::text AS snapshot, history_rows FROM ${schema}.tasks WHERE id = $1`,
          [id],
        )
      )[0]!,
    count: async (table) =>
      (await query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${schema}.${table}`))[0]!.n,
  };
}

const backends: [string, () => Backend][] = [
  ['SQLite', sqliteBackend],
  ...(POSTGRES_URL === undefined ? [] : ([['PostgreSQL', postgresBackend]] as [string, () => Backend][])),
];
if (POSTGRES_URL === undefined) {
  describe('PostgreSQL: a heavy task kept in rows', () => {
    it.skip(`runs against PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {});
  });
}

/** The task as a run that shed its history holds it (TaskCommit.historyFrom). */
function withoutHistory(task: Task): Task {
  const { history: _history, ...rest } = task;
  return rest;
}

const webhook = (taskId: string): PushConfigRecord => ({
  taskId,
  id: 'hook',
  tenant: scope.tenant,
  url: 'https://hooks.example/a2a',
  protocolVersion: '0.3',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe.each(backends)('%s: a heavy task kept in rows', (_name, make) => {
  const opened: HeavyStore[] = [];
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  const open = async (backend: Backend, again = false): Promise<HeavyStore> => {
    const store = await (again ? backend.reopen() : backend.open());
    opened.push(store);
    return store;
  };

  it('reads back exactly what the commits described, before and after the split', async () => {
    const backend = make();
    const store = await open(backend);
    const grown = new GrowingTask('long', store);
    await grown.create();
    let splitAt: number | undefined;
    for (let i = 0; i < 150; i++) {
      await grown.step();
      expect((await store.get('long', scope))?.task).toEqual(grown.task);
      if (splitAt === undefined && (await backend.row('long')).history_rows !== null) splitAt = i;
    }
    // It did split, and only once it had outgrown the threshold.
    expect(splitAt).toBeDefined();
    expect(JSON.stringify(grown.task).length).toBeGreaterThan(SPLIT_BYTES);
    // The row keeps the head only: no history, no artifacts, small whatever the task weighs.
    const row = await backend.row('long');
    expect(row.history_rows).toBe(grown.task.history!.length);
    const head = JSON.parse(row.snapshot) as Task;
    expect(head.history).toBeUndefined();
    expect(head.artifacts).toBeUndefined();
    expect(head.status).toEqual(grown.task.status);
    expect(row.snapshot.length).toBeLessThan(1000);
    expect((await store.get('long', scope))?.version).toBe(grown.version);
  });

  it('takes commits that carry only the newer history once split, and refuses one on a whole task', async () => {
    // TaskCommit.historyFrom: a long-running task's server no longer copies every message into
    // every commit (decision 0164); the rows are what a whole commit would have written.
    const backend = make();
    const store = await open(backend);
    const grown = new GrowingTask('partial', store);
    await grown.create();
    const step = async (historyFrom: number) => {
      const i = grown.version;
      const status = {
        state: 'TASK_STATE_WORKING' as const,
        message: {
          messageId: `partial-p${i}`,
          role: 'ROLE_AGENT' as const,
          parts: [{ text: `partial ${i}` }],
        },
      };
      const events: StreamResponse[] = [
        { statusUpdate: { taskId: 'partial', contextId: 'ctx-partial', status } },
      ];
      const whole = applyEvents(grown.task, events);
      const carried = { ...whole, history: whole.history!.slice(historyFrom) };
      grown.version = await store.commit({
        ...scope,
        task: carried,
        expectedVersion: grown.version,
        events,
        historyFrom,
      });
      grown.task = whole;
    };
    // Still whole: a commit without its earlier history would lose it, so it is refused.
    await grown.step();
    await expect(step(1)).rejects.toMatchObject({ name: 'VersionConflictError' });
    while ((await backend.row('partial')).history_rows === null) await grown.step();
    for (let k = 0; k < 5; k++) await step(grown.task.history!.length);
    expect((await store.get('partial', scope))?.task).toEqual(grown.task);
    // Fewer messages than the rows already hold is a commit built on another task: refused.
    await expect(step(grown.task.history!.length + 3)).rejects.toMatchObject({
      name: 'VersionConflictError',
    });
    expect((await store.get('partial', scope))?.task).toEqual(grown.task);
  });

  it('says when it keeps the artifact updates, then takes shed commits and queues the whole task for push', async () => {
    // What the server does once keepsArtifactUpdates says yes (decision 0164): its commits carry
    // only the newer history and artifacts without the parts the rows hold. A push body must still
    // be the whole task, rebuilt from the rows.
    const backend = make();
    const store = await open(backend);
    const grown = new GrowingTask('shed', store);
    await grown.create();
    await store.push!.putConfig(webhook('shed'));
    expect(await store.keepsArtifactUpdates!('shed')).toBe(false);
    while ((await backend.row('shed')).history_rows === null) await grown.step();
    expect(await store.keepsArtifactUpdates!('shed')).toBe(true);
    expect(await store.keepsArtifactUpdates!('missing')).toBe(false);
    let held = withoutArtifactParts(withoutHistory(grown.task));
    for (let k = 0; k < 4; k++) {
      const i = grown.version;
      const events: StreamResponse[] = [
        {
          statusUpdate: {
            taskId: 'shed',
            contextId: 'ctx-shed',
            status: {
              state: 'TASK_STATE_WORKING',
              message: { messageId: `shed-s${i}`, role: 'ROLE_AGENT', parts: [{ text: `shed ${i}` }] },
            },
          },
        },
        {
          artifactUpdate: {
            taskId: 'shed',
            contextId: 'ctx-shed',
            artifact: { artifactId: 'log', parts: [{ text: `tail ${i}` }] },
            append: true,
          },
        },
      ];
      const historyFrom = grown.task.history!.length;
      const carried = applyEvents(held, events);
      grown.version = await store.commit({
        ...scope,
        task: carried,
        expectedVersion: i,
        events,
        historyFrom,
      });
      grown.task = applyEvents(grown.task, events);
      held = withoutArtifactParts(withoutHistory(carried));
    }
    expect((await store.get('shed', scope))?.task).toEqual(grown.task);
    const pending = await store.push!.listPending('shed');
    expect(pending.at(-1)!.task).toEqual(grown.task);
  });

  it('takes a follow-up that brings a push config to a split task, and queues the whole task', async () => {
    // A send with a push config to a task past the split: its commit needs the whole task for the
    // outbox, and must be written with it, not refused as stale again and again.
    const backend = make();
    const store = await open(backend);
    const grown = new GrowingTask('late', store);
    await grown.create();
    while ((await backend.row('late')).history_rows === null) await grown.step();
    const status = {
      state: 'TASK_STATE_WORKING' as const,
      message: { messageId: 'late-follow-up', role: 'ROLE_USER' as const, parts: [{ text: 'and tell me' }] },
    };
    const events: StreamResponse[] = [{ statusUpdate: { taskId: 'late', contextId: 'ctx-late', status } }];
    const task = applyEvents(grown.task, events);
    const version = await store.commit({
      ...scope,
      task,
      expectedVersion: grown.version,
      events,
      pushConfigs: [webhook('late')],
    });
    expect(version).toBe(grown.version + 1);
    expect((await store.get('late', scope))?.task).toEqual(task);
    const pending = await store.push!.listPending('late');
    expect(pending.at(-1)!.task).toEqual(task);
  });

  it('reads only the newest messages for historyLength, and the whole task in lists', async () => {
    const backend = make();
    const store = await open(backend);
    const grown = new GrowingTask('long', store);
    await grown.create();
    for (let i = 0; i < 100; i++) await grown.step();
    expect((await backend.row('long')).history_rows).not.toBeNull();
    const recent = (await store.get('long', scope, { historyLength: 5 }))!.task;
    expect(recent.history).toEqual(grown.task.history!.slice(-5));
    expect(recent.artifacts).toEqual(grown.task.artifacts);
    expect(recent.status).toEqual(grown.task.status);
    // More than there are: all of them.
    const all = (await store.get('long', scope, { historyLength: 10_000 }))!.task;
    expect(all.history).toEqual(grown.task.history);
    const page = await store.list({ ...scope, pageSize: 10 });
    expect(page.tasks).toEqual([grown.task]);
  });

  it("gives the artifacts apart as the task had them when read, each artifact's updates together", async () => {
    // Decision 0172: GetTask writes a split task's artifacts as it reads their rows, so the rows
    // come grouped by artifact (the first starting it) and joining them gives the task's artifacts:
    // the replaced summary's earlier updates are not read at all.
    const backend = make();
    const store = await open(backend);
    const grown = new GrowingTask('apart', store);
    await grown.create();
    for (let i = 0; i < 120; i++) await grown.step(i % 2 === 0 ? 900 : 5000);
    expect((await backend.row('apart')).history_rows).not.toBeNull();
    const read = (await store.get('apart', scope, { artifactsApart: true, historyLength: 3 }))!;
    expect(read.task.artifacts).toBeUndefined();
    expect(read.task.history).toEqual(grown.task.history!.slice(-3));
    expect(read.task.status).toEqual(grown.task.status);
    const asRead = grown.task;
    // Commits after the read do not reach what it yields.
    for (let i = 0; i < 3; i++) await grown.step();
    const pieces: ArtifactPiece[] = [];
    for await (const piece of read.artifacts!) pieces.push(piece);
    const ids = pieces.map((p) => p.artifact.artifactId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i && ids[i - 1] !== id)).toEqual([]);
    expect(pieces.filter((p) => !p.append).map((p) => p.artifact.artifactId)).toEqual(['log', 'summary']);
    const joined = foldUpdates(
      pieces.map(({ artifact, append }) => ({
        artifactUpdate: { taskId: 'apart', contextId: 'ctx-apart', artifact, append },
      })),
    );
    expect(joined).toEqual(asRead.artifacts);
    // The summary was replaced: only its last update is read.
    expect(pieces.filter((p) => p.artifact.artifactId === 'summary')).toHaveLength(1);
    // A whole task (not split) comes whole, with nothing apart.
    const small = new GrowingTask('small', store);
    await small.create();
    await small.step(10);
    const whole = (await store.get('small', scope, { artifactsApart: true }))!;
    expect(whole.artifacts).toBeUndefined();
    expect(whole.task).toEqual(small.task);
  });

  it("reads a split task with data nested past SQLite's JSON depth: apart where it can, else whole", async () => {
    // SQLite's json_extract refuses JSON nested over 1,000 deep, which JSON.parse reads: the
    // artifacts' heads cannot be read there, so the task comes whole, and equal either way.
    const backend = make();
    const store = await open(backend);
    let deep: unknown = 1;
    for (let i = 0; i < 1100; i++) deep = [deep];
    const task: Task = {
      id: 'deep',
      contextId: 'ctx-deep',
      status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-01T00:00:00.000Z' },
      artifacts: [{ artifactId: 'a', parts: [{ text: 'y'.repeat(SPLIT_BYTES) }, { data: { deep } }] }],
    };
    await store.commit({ ...scope, task, expectedVersion: 0, events: [{ task }] });
    expect((await backend.row('deep')).history_rows).not.toBeNull();
    const read = (await store.get('deep', scope, { artifactsApart: true }))!;
    const pieces: ArtifactPiece[] = [];
    for await (const piece of read.artifacts ?? []) pieces.push(piece);
    const artifacts =
      read.artifacts === undefined
        ? read.task.artifacts
        : foldUpdates(
            pieces.map(({ artifact, append }) => ({
              artifactUpdate: { taskId: 'deep', contextId: 'ctx-deep', artifact, append },
            })),
          );
    expect(artifacts).toEqual(task.artifacts);
  });

  it('queues the whole task for a push config, once split too', async () => {
    const backend = make();
    const store = await open(backend);
    const grown = new GrowingTask('pushed', store);
    await grown.create();
    await store.push!.putConfig(webhook('pushed'));
    for (let i = 0; i < 90; i++) await grown.step();
    expect((await backend.row('pushed')).history_rows).not.toBeNull();
    const pending = await store.push!.listPending('pushed');
    expect(pending.length).toBeGreaterThan(80);
    // Each entry holds the task as its commit left it: the last one is the task now.
    expect(pending.at(-1)!.task).toEqual(grown.task);
  });

  it('goes on after the store is reopened, refuses a stale commit, and is deleted whole by retention', async () => {
    const backend = make();
    const first = await open(backend);
    const grown = new GrowingTask('long', first);
    await grown.create();
    for (let i = 0; i < 90; i++) await grown.step();
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    expect((await backend.row('long')).history_rows).not.toBeNull();

    const store = await open(backend, true);
    const again = Object.assign(new GrowingTask('long', store), { task: grown.task, version: grown.version });
    for (let i = 0; i < 5; i++) await again.step();
    expect((await store.get('long', scope))?.task).toEqual(again.task);
    // A writer that missed the last commits is refused, and writes no rows.
    const rows = await backend.count('task_history');
    const failed: StreamResponse = {
      statusUpdate: { taskId: 'long', contextId: 'ctx-long', status: { state: 'TASK_STATE_FAILED' } },
    };
    await expect(
      store.commit({
        ...scope,
        task: applyEvents(grown.task, [failed]),
        expectedVersion: grown.version,
        events: [failed],
      }),
    ).rejects.toMatchObject({ name: 'VersionConflictError' });
    expect(await backend.count('task_history')).toBe(rows);

    const completed: StreamResponse = {
      statusUpdate: {
        taskId: 'long',
        contextId: 'ctx-long',
        status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-01-02T00:00:00.000Z' },
      },
    };
    const done = applyEvents(again.task, [completed]);
    await store.commit({ ...scope, task: done, expectedVersion: again.version, events: [completed] });
    expect((await store.get('long', scope))?.task).toEqual(done);
    expect(await store.deleteExpiredTasks(1000, Date.parse('2026-02-01T00:00:00Z'))).toBe(1);
    expect(await store.get('long', scope)).toBeUndefined();
    expect(await backend.count('task_history')).toBe(0);
    expect(await backend.count('task_artifact_updates')).toBe(0);
  });
});

describe('artifactRowGroups', () => {
  const head = (n: number, artifactId: string, append: boolean) => ({ n, artifactId, append, bytes: 10 });
  it('groups interleaved artifacts in the order they first came, a replace starting one over', () => {
    const groups = artifactRowGroups([
      head(0, 'a', false),
      head(1, 'b', true), // an append that creates: it starts b, as foldUpdates reads it
      head(2, 'a', true),
      head(3, 'b', true),
      head(4, 'a', false), // replaces a, keeping its place
      head(5, 'c', false),
      head(6, 'a', true),
    ]);
    expect(groups.map((g) => g.map((h) => h.n))).toEqual([[4, 6], [1, 3], [5]]);
  });
});
