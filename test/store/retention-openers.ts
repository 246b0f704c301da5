/**
 * The durable stores the retention tests run against: SQLite in a fresh file, and PostgreSQL in a
 * fresh schema when CONCORD_TEST_POSTGRES_URL is set. Also a helper that leaves a task in a state
 * at a given status time, as the server's runner would have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { RetentionOptions, TaskScope, TaskStore } from '../../src/store/index.js';
import type { PostgresTaskStore } from '../../src/store/postgres/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import { openTestPostgresStore, POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store with both retention sweeps and push configs. */
export type RetainingStore = TaskStore & {
  deleteExpiredTasks(maxAgeMs: number, now?: number): Promise<number>;
  deleteTasksOverCap(maxTasks: number): Promise<number>;
  push: NonNullable<TaskStore['push']>;
};

/** One kind of durable store. */
export interface Opener {
  name: string;
  skip: boolean;
  open(retention?: RetentionOptions): Promise<RetainingStore>;
  /** A second store on the same file or schema as `store`, with its own retention. */
  beside(store: RetainingStore, retention: RetentionOptions): Promise<RetainingStore>;
}

/** The file of each SQLite store opened here. */
const paths = new WeakMap<RetainingStore, string>();

export const openers: Opener[] = [
  {
    name: 'sqlite',
    skip: false,
    open(retention) {
      const dir = mkdtempSync(join(tmpdir(), 'concord-retention-'));
      dirs.push(dir);
      const path = join(dir, 'tasks.db');
      const store = new SqliteTaskStore({ path, ...(retention === undefined ? {} : { retention }) });
      paths.set(store, path);
      return Promise.resolve(store);
    },
    beside: (store, retention) =>
      Promise.resolve(new SqliteTaskStore({ path: paths.get(store)!, retention })),
  },
  {
    name: `postgres${POSTGRES_SKIP_NOTE}`,
    skip: POSTGRES_URL === undefined,
    open: (retention) => openTestPostgresStore(retention === undefined ? {} : { retention }),
    beside: (store, retention) =>
      openTestPostgresStore({ schema: (store as unknown as PostgresTaskStore).schema, retention }),
  },
];

/** A task created, then moved to `state` at `timestamp`. */
export async function taskAt(
  store: TaskStore,
  id: string,
  state: 'TASK_STATE_COMPLETED' | 'TASK_STATE_WORKING',
  timestamp: string,
  scope: TaskScope = ANON,
): Promise<void> {
  await store.commit(createCommit(makeTask(id, { timestamp }), scope));
  const next = makeTask(id, { state, timestamp });
  await store.commit({ ...scope, task: next, expectedVersion: 1, events: [statusEvent(next)] });
}
