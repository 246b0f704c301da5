/**
 * The cluster flags of `concord serve` (decisions 0110-0116): `--bus`, `--redis-url`,
 * `--instance-ttl` and `--orphans`, checked before anything starts.
 */
import {
  busKindFor,
  parseBusKind,
  parseMilliseconds,
  parseOrphanPolicy,
  REDIS_URL_ENV,
  type ClusterSetup,
  type TaskStoreKind,
} from '../../host/internal.js';
import { UsageError } from '../exit-codes.js';

/** The lines of `serve --help` for these flags. */
export const CLUSTER_USAGE = `  --bus <kind>          how instances on one PostgreSQL store hear of each other: postgres
                        (default with --store postgres: LISTEN/NOTIFY), redis, or local (one instance)
  --redis-url <url>     the Redis of --bus redis (default: $${REDIS_URL_ENV})
  --instance-ttl <time> an instance counts as stopped this long after its last heartbeat (default 15s)
  --orphans <policy>    tasks left running by a stopped instance, or on SQLite by this server's
                        previous run: fail (default) or resume (run the agent again)`;

/** The parseArgs options of these flags. */
export const CLUSTER_OPTIONS = {
  bus: { type: 'string' },
  'redis-url': { type: 'string' },
  'instance-ttl': { type: 'string' },
  orphans: { type: 'string' },
} as const;

/** The flags' values as parseArgs returns them. */
export interface ClusterFlagValues {
  bus?: string | undefined;
  'redis-url'?: string | undefined;
  'instance-ttl'?: string | undefined;
  orphans?: string | undefined;
}

/** The cluster settings of the flags, checked against the store. */
export function clusterFlags(store: TaskStoreKind, values: ClusterFlagValues): ClusterSetup {
  const setup: ClusterSetup = {};
  if (values.bus !== undefined) setup.bus = parseBusKind(values.bus);
  const kind = busKindFor(store, setup);
  if (values['redis-url'] !== undefined) {
    if (kind !== 'redis') throw new UsageError(`--redis-url: only for --bus redis (the bus is ${kind})`);
    setup.redisUrl = values['redis-url'];
  }
  if (kind === 'redis' && setup.redisUrl === undefined && (process.env[REDIS_URL_ENV] ?? '') === '') {
    throw new UsageError(`--bus redis needs a Redis URL: pass --redis-url <url> or set ${REDIS_URL_ENV}`);
  }
  const shared = kind !== 'local';
  if (values['instance-ttl'] !== undefined) {
    if (!shared) throw new UsageError('--instance-ttl: only for several instances (--store postgres)');
    setup.instanceTtlMs = parseMilliseconds(values['instance-ttl'], '--instance-ttl');
  }
  if (values.orphans !== undefined) {
    // One process on SQLite settles what its previous run left (decision 0119).
    if (!shared && store !== 'sqlite') {
      throw new UsageError('--orphans: only for the SQLite store or several instances (--store postgres)');
    }
    setup.orphans = parseOrphanPolicy(values.orphans);
  }
  return setup;
}
