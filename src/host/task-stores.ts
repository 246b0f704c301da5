/**
 * Which task store serves an agent, and opening it: `sqlite` (default, one file per agent under the
 * data directory), `memory`, or `postgres` (one schema per agent in a shared database, for several
 * instances behind a load balancer; decision 0100). `concord serve` and `startHost` both open their
 * stores here, so `--store` means the same for code agents and hosted agents.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  createMemoryTaskStore,
  DEFAULT_MAX_TASKS,
  DEFAULT_RETENTION,
  DEFAULT_RETENTION_INTERVAL_MS,
  formatDuration,
  redactDatabaseUrl,
  type RetentionOptions,
  type TaskStore,
} from '../store/internal.js';
import { SqliteTaskStore } from '../store/sqlite/index.js';
import { loadPeer } from '../peers/index.js';

/** The store kinds `--store` accepts. */
export type TaskStoreKind = 'sqlite' | 'memory' | 'postgres';

/** The environment variable read for the PostgreSQL URL when none is given. */
export const DATABASE_URL_ENV = 'CONCORD_DATABASE_URL';

/** The schema PostgreSQL stores use (hosted agents get `<schema>_<agent>`). */
export const DEFAULT_DATABASE_SCHEMA = 'concord';

/** PostgreSQL settings of `store: 'postgres'`. */
export interface PostgresStoreSettings {
  /** Default: the CONCORD_DATABASE_URL environment variable. */
  url?: string | undefined;
  /** Default `concord`; letters, digits and `_`. */
  schema?: string | undefined;
  /** Connections per agent's store; default 10. */
  poolSize?: number | undefined;
  /** Apply pending migrations at start (default true); false expects `concord db migrate` to have run. */
  migrate?: boolean | undefined;
}

/** Everything that decides an agent's store. */
export interface TaskStoreSettings {
  kind: TaskStoreKind;
  /** Where SQLite files live. */
  dataDir: string;
  postgres?: PostgresStoreSettings | undefined;
  /**
   * Which terminal tasks the sqlite and postgres stores keep (decisions 0103, 0151): absent,
   * DEFAULT_RETENTION (7 days, at most 100,000); `false`, every task. A policy given replaces the
   * default whole (spread DEFAULT_RETENTION into it to change one part).
   */
  retention?: RetentionOptions | false | undefined;
  /** Told when a retention sweep fails (it is retried at the next interval), unless the policy has its own. */
  onError?: ((error: unknown, where: string) => void) | undefined;
  env: NodeJS.ProcessEnv;
}

/** An open store and where it keeps its tasks, for the serve banner (never with a password). */
export interface OpenedTaskStore {
  store: TaskStore;
  where: string;
}

/** Checks a `--store` value. */
export function parseTaskStoreKind(value: string): TaskStoreKind {
  if (value === 'sqlite' || value === 'memory' || value === 'postgres') return value;
  throw new Error(`--store: expected sqlite, memory or postgres, got ${value}`);
}

/** The PostgreSQL URL of the settings, or a clear error naming both ways to give one. */
export function databaseUrlOf(settings: Pick<TaskStoreSettings, 'postgres' | 'env'>): string {
  const url = settings.postgres?.url ?? settings.env[DATABASE_URL_ENV];
  if (url === undefined || url.trim() === '') {
    throw new Error(
      `the postgres store needs a database URL: pass --database-url <url> or set ${DATABASE_URL_ENV}`,
    );
  }
  return url;
}

/**
 * The schema of a hosted agent: `<base>_<id>` when the id is already a plain lower-case name, and
 * otherwise its simplified form plus a hash of the exact id, so two ids never share a schema.
 */
export function agentSchema(base: string, agentId: string): string {
  const slug = agentId
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 40);
  if (slug === agentId) return `${base}_${slug}`;
  const hash = createHash('sha256').update(agentId).digest('hex').slice(0, 8);
  return `${base}_${slug}_${hash}`;
}

/**
 * Opens the store of one agent: `name` is the hosted agent's id (its own file or schema), or
 * undefined for the one agent of `concord serve <module>` (`tasks.db`, or the base schema).
 */
export async function openTaskStore(settings: TaskStoreSettings, name?: string): Promise<OpenedTaskStore> {
  const retention = retentionOf(settings);
  if (settings.kind === 'memory') return { store: createMemoryTaskStore(), where: 'memory (not durable)' };
  if (settings.kind === 'sqlite') {
    const path = join(settings.dataDir, name === undefined ? 'tasks.db' : `${encodeURIComponent(name)}.db`);
    const store = new SqliteTaskStore({ path, retention });
    // One SQLite file takes one server: a second one would run tasks the first cannot see, and a
    // restart of either would take the other's running tasks for orphans (decision 0119).
    const other = store.servedElsewhere();
    if (other !== undefined) {
      await store.close();
      throw new Error(
        `${path} is in use by another Concord server (pid ${other.pid} on ${other.host.split(' ')[0]}): ` +
          'stop it first, or use --store postgres to run several instances',
      );
    }
    return { store, where: path };
  }
  const url = databaseUrlOf(settings);
  const pg = settings.postgres ?? {};
  const base = pg.schema ?? DEFAULT_DATABASE_SCHEMA;
  const schema = name === undefined ? base : agentSchema(base, name);
  // Loaded only for this kind: hosts on SQLite never load `pg` (decision 0006).
  const { openPostgresStore } = await loadPeer('postgres', () => import('../store/postgres/index.js'));
  const store = await openPostgresStore({
    connectionString: url,
    schema,
    poolSize: pg.poolSize,
    migrate: pg.migrate,
    retention,
  });
  return { store, where: `PostgreSQL ${redactDatabaseUrl(url)} (schema ${schema})` };
}

/** Where the stores of a host's agents live, for the serve banner (never with a password). */
export function describeTaskStores(settings: TaskStoreSettings): string {
  if (settings.kind === 'memory') return 'memory (not durable)';
  if (settings.kind === 'sqlite') return settings.dataDir;
  const base = settings.postgres?.schema ?? DEFAULT_DATABASE_SCHEMA;
  return `PostgreSQL ${redactDatabaseUrl(databaseUrlOf(settings))} (schemas ${base}_<agent>)`;
}

/** The retention policy a durable store of these settings gets; undefined for none (see `retention`). */
export function retentionOf(
  settings: Pick<TaskStoreSettings, 'kind' | 'retention' | 'onError'>,
): RetentionOptions | undefined {
  // The memory store has its own bound (decision 0010).
  if (settings.kind === 'memory' || settings.retention === false) return undefined;
  const policy: RetentionOptions = settings.retention ?? DEFAULT_RETENTION;
  const report = settings.onError;
  if (policy.onError !== undefined || report === undefined) return policy;
  return { ...policy, onError: (error) => report(error, 'task retention sweep failed (retried later)') };
}

/** What the stores of these settings keep, for the serve banner. */
export function describeRetention(settings: Pick<TaskStoreSettings, 'kind' | 'retention'>): string {
  if (settings.kind === 'memory') {
    return `the memory store keeps at most ${DEFAULT_MAX_TASKS.toLocaleString('en-US')} tasks, forgetting finished ones oldest first`;
  }
  const policy = retentionOf(settings);
  if (policy === undefined) return 'off, every task is kept';
  const { maxAgeMs, maxTasks, intervalMs = DEFAULT_RETENTION_INTERVAL_MS } = policy;
  const limits = [
    ...(maxAgeMs === undefined ? [] : [`for ${formatDuration(maxAgeMs)}`]),
    ...(maxTasks === undefined ? [] : [`at most ${maxTasks.toLocaleString('en-US')} of them`]),
  ];
  return `finished tasks kept ${limits.join(', ')} (swept every ${formatDuration(intervalMs)})`;
}
