/**
 * Joining a cluster from `concord serve` or `startHost` (decisions 0110, 0115, 0116): which bus
 * (`local` — one instance, nothing shared; `postgres` — the default on a PostgreSQL store; `redis`),
 * and the Cluster over it, ready before the first request. The bus modules are loaded only when
 * chosen, so a process on SQLite never loads `pg` or a Redis client for this.
 */
import { createCluster, type Cluster, type OrphanPolicy } from '../server/index.js';
import { loadPeer } from '../peers/index.js';
import { redactDatabaseUrl } from '../store/internal.js';

/** The buses `--bus` accepts. */
export type BusKind = 'local' | 'postgres' | 'redis';

/** The environment variable read for the Redis URL when none is given. */
export const REDIS_URL_ENV = 'CONCORD_REDIS_URL';

/** The cluster settings of `startHost` (`concord serve --bus`, `--redis-url`, `--instance-ttl`, `--orphans`). */
export interface ClusterSetup {
  /** Default: `postgres` when the store is PostgreSQL, else `local`. */
  bus?: BusKind;
  /** For `bus: 'redis'`; default: the CONCORD_REDIS_URL environment variable. */
  redisUrl?: string;
  /** Prefix of the Redis keys and channel; default `concord:<schema>:`. */
  redisKeyPrefix?: string;
  /** An instance counts as stopped this long after its last heartbeat (default 15 s). */
  instanceTtlMs?: number;
  /** What happens to the running tasks of a stopped instance (default `fail`; decision 0114). */
  orphans?: OrphanPolicy;
}

/** Where the shared store lives, as the bus needs it. */
export interface SharedStore {
  /** `--store`: only `postgres` is shared between instances. */
  kind: string;
  /** The PostgreSQL URL of the store (for `postgres`). */
  databaseUrl?: string | undefined;
  /** The store's schema (a host's base schema): the PostgreSQL bus's tables and channel. */
  schema: string;
}

/** A joined cluster (or none) and a line for the serve banner. */
export interface OpenedCluster {
  cluster: Cluster | undefined;
  description: string;
}

/** Checks a `--bus` value. */
export function parseBusKind(value: string): BusKind {
  if (value === 'local' || value === 'postgres' || value === 'redis') return value;
  throw new Error(`--bus: expected local, postgres or redis, got ${value}`);
}

/** Checks an `--orphans` value. */
export function parseOrphanPolicy(value: string): OrphanPolicy {
  if (value === 'fail' || value === 'resume') return value;
  throw new Error(`--orphans: expected fail or resume, got ${value}`);
}

/** Parses a duration in milliseconds: `1500`, `1500ms`, `15s` or `2m`. */
export function parseMilliseconds(value: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  const factor = m?.[2] === 's' ? 1_000 : m?.[2] === 'm' ? 60_000 : 1;
  const ms = m === null ? NaN : Math.round(Number(m[1]) * factor);
  if (!Number.isFinite(ms) || ms < 3)
    throw new Error(`${flag}: expected a duration such as 1500ms, 15s or 2m, got ${value}`);
  return ms;
}

/** The bus for a store: refuses a shared bus on a store that is not shared. */
export function busKindFor(storeKind: string, setup: ClusterSetup | undefined): BusKind {
  const kind = setup?.bus ?? (storeKind === 'postgres' ? 'postgres' : 'local');
  if (kind !== 'local' && storeKind !== 'postgres') {
    throw new Error(
      `--bus ${kind}: instances of a cluster share one task store; use --store postgres (the store is ${storeKind})`,
    );
  }
  return kind;
}

/** Joins the cluster the settings name (none for `local`); resolves once it is ready. */
export async function openCluster(
  store: SharedStore,
  setup: ClusterSetup | undefined,
  options: { env: NodeJS.ProcessEnv; onError?: ((error: unknown, where: string) => void) | undefined },
): Promise<OpenedCluster> {
  const kind = busKindFor(store.kind, setup);
  if (kind === 'local') return { cluster: undefined, description: 'one instance (in-process events)' };
  let bus;
  let where: string;
  if (kind === 'postgres') {
    if (store.databaseUrl === undefined) throw new Error('--bus postgres: the store has no database URL');
    const { createPostgresBus } = await loadPeer('postgres', () => import('../cluster/postgres/index.js'));
    bus = createPostgresBus({ connectionString: store.databaseUrl, schema: store.schema });
    where = `PostgreSQL LISTEN/NOTIFY (schema ${store.schema})`;
  } else {
    const url = setup?.redisUrl ?? options.env[REDIS_URL_ENV];
    if (url === undefined || url.trim() === '') {
      throw new Error(`--bus redis needs a Redis URL: pass --redis-url <url> or set ${REDIS_URL_ENV}`);
    }
    const keyPrefix = setup?.redisKeyPrefix ?? `concord:${store.schema}:`;
    const { createRedisBus } = await loadPeer('redis', () => import('../cluster/redis/index.js'));
    bus = createRedisBus({ url, keyPrefix });
    where = `Redis ${redactDatabaseUrl(url)} (keys ${keyPrefix}*)`;
  }
  const cluster = createCluster({
    bus,
    instanceTtlMs: setup?.instanceTtlMs,
    orphans: setup?.orphans,
    onError: options.onError,
  });
  try {
    await cluster.ready;
  } catch (error) {
    await cluster.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot join the cluster over ${where}: ${reason}`);
  }
  const { instanceTtlMs, orphans } = cluster.settings;
  return {
    cluster,
    description: `${where}, instance ${cluster.instanceId}; a stopped instance's running tasks are ${orphans === 'fail' ? 'failed' : 'resumed'} ${instanceTtlMs} ms after its last heartbeat`,
  };
}
