// Which PostgreSQL database `npm run bench` measures concord-postgres on (issue 27, item 5: the
// PostgreSQL store runs whenever a database is reachable, not only when someone remembers to set
// BENCH_POSTGRES_URL).
//
// BENCH_POSTGRES_URL wins when set; a database it names that cannot be reached is a reason given in
// the report, not a silent fallback to another one. Without it, the local defaults are tried in
// turn with a short connect timeout, so a machine without PostgreSQL loses about a second.

import pg from 'pg';
import { redactDatabaseUrl } from '../../dist/store/internal.js';

/** The local databases tried when BENCH_POSTGRES_URL is not set, in order. */
export const LOCAL_DEFAULTS = [
  'postgres://postgres@127.0.0.1:5432/postgres',
  'postgres://postgres@127.0.0.1:5432/test',
];

const CONNECT_TIMEOUT_MS = 1000;

/** Resolves null when `url` answers a query within the timeout, else the reason it does not. */
async function unreachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An error after connect (the server going away) must not crash the harness.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (e) {
    return e.message || e.code || String(e);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The database to use: { url, note } with the note saying where it came from, or { url: undefined,
 * note } saying why concord-postgres is skipped.
 */
export async function findPostgres(configured) {
  if (configured) {
    const why = await unreachable(configured);
    return why === null
      ? { url: configured, note: `PostgreSQL: ${redactDatabaseUrl(configured)} (BENCH_POSTGRES_URL)` }
      : {
          url: undefined,
          note: `PostgreSQL skipped: BENCH_POSTGRES_URL ${redactDatabaseUrl(configured)} not reachable (${why})`,
        };
  }
  const tried = [];
  for (const url of LOCAL_DEFAULTS) {
    const why = await unreachable(url);
    if (why === null) return { url, note: `PostgreSQL: ${url} (found locally; BENCH_POSTGRES_URL not set)` };
    tried.push(`${url}: ${why}`);
  }
  return {
    url: undefined,
    note: `PostgreSQL skipped: BENCH_POSTGRES_URL not set and no local database reachable (${tried.join('; ')})`,
  };
}
