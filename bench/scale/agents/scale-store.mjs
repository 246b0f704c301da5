// What the scale parts' servers share: the store they run on, a watch on its commits (so an agent
// can wait until what it emitted is durable, and the part can time one commit), and a card.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * Opens the store `kind` names: 'sqlite' (a fresh file in a temporary directory), 'memory'
 * (unbounded, so the benchmark's task is never evicted), or 'postgres' (a fresh schema in
 * SCALE_POSTGRES_URL or BENCH_POSTGRES_URL). `cleanup` removes what was made.
 */
export async function openScaleStore(kind, { createMemoryTaskStore, openSqliteTaskStore }) {
  if (kind === 'memory')
    return { store: createMemoryTaskStore({ maxTasks: Infinity }), cleanup: async () => {} };
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'concord-scale-'));
    return {
      store: openSqliteTaskStore({ path: join(dir, 'tasks.sqlite') }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (kind === 'postgres') {
    const url = process.env.SCALE_POSTGRES_URL ?? process.env.BENCH_POSTGRES_URL;
    if (!url) throw new Error('SCALE_STORE=postgres needs SCALE_POSTGRES_URL');
    const schema = `concord_scale_${process.pid}`;
    const { openPostgresStore } = await import('../../../dist/store/postgres/index.js');
    return {
      store: await openPostgresStore({ connectionString: url, schema }),
      cleanup: async () => {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      },
    };
  }
  throw new RangeError(`SCALE_STORE: unknown store ${kind} (memory, sqlite, postgres)`);
}

/**
 * The store with its `commit` watched: `durable(taskId, version)` resolves once a commit that
 * reached `version` resolved, `version(taskId)` is the last durable one, and `lastCommitMs` is how
 * long the store's last commit took (from the call to its promise settling). Every other member
 * is the store's own, so the server sees the same push, approval and reply stores.
 */
export function watchCommits(inner) {
  const versions = new Map();
  const waiters = [];
  const commits = {
    lastCommitMs: 0,
    version: (taskId) => versions.get(taskId) ?? 0,
    durable(taskId, version) {
      if (commits.version(taskId) >= version) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ taskId, version, resolve }));
    },
  };
  const commit = async (c) => {
    const t0 = performance.now();
    const version = await inner.commit(c);
    commits.lastCommitMs = performance.now() - t0;
    versions.set(c.task.id, version);
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i];
      if (w.taskId === c.task.id && w.version <= version) {
        waiters.splice(i, 1);
        w.resolve();
      }
    }
    return version;
  };
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'commit') return commit;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, commits };
}

/** A streaming agent card of `name` for a benchmark server. */
export function agentCard(name, description) {
  return {
    name,
    description,
    version: '1.0.0',
    supportedInterfaces: [],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: name, name, description, tags: ['bench'] }],
  };
}
