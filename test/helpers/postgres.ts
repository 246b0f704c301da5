/**
 * PostgreSQL for tests. They run when CONCORD_TEST_POSTGRES_URL is set and say they were skipped
 * otherwise. Each store a test opens lives in a schema of its own, created fresh (by the store's
 * own migrations) and dropped when the test file ends (with the schemas derived from it, such as a
 * host's `<schema>_<agent>`), so parallel test files never collide.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { openPostgresStore, type PostgresStoreOptions } from '../../src/store/postgres/index.js';
import type { PostgresTaskStore } from '../../src/store/postgres/index.js';

/** The test database URL, or undefined when PostgreSQL tests are off. */
export const POSTGRES_URL = process.env.CONCORD_TEST_POSTGRES_URL || undefined;

/** Appended to a test or suite name when PostgreSQL is off, so the skip says why. */
export const POSTGRES_SKIP_NOTE =
  POSTGRES_URL === undefined ? ' (skipped: set CONCORD_TEST_POSTGRES_URL to run against PostgreSQL)' : '';

const prefix = `concord_t${process.pid}_${randomBytes(3).toString('hex')}`;
let counter = 0;
const created = new Set<string>();

/** A schema name no other test (file) uses; dropped when the file ends. */
export function freshSchema(): string {
  const name = `${prefix}_${++counter}`;
  created.add(name);
  return name;
}

/** Opens a store on a fresh schema (see the file comment). */
export function openTestPostgresStore(
  options: Partial<PostgresStoreOptions> = {},
): Promise<PostgresTaskStore> {
  if (POSTGRES_URL === undefined) throw new Error('CONCORD_TEST_POSTGRES_URL is not set');
  return openPostgresStore({
    connectionString: POSTGRES_URL,
    schema: freshSchema(),
    poolSize: 4,
    ...options,
  });
}

/** Runs one-off SQL against the test database (setup and inspection only). */
export async function withTestClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  if (POSTGRES_URL === undefined || created.size === 0) return;
  const schemas = [...created];
  created.clear();
  await withTestClient(async (client) => {
    // The schemas themselves and those derived from them (a host's `<schema>_<agent>`).
    const { rows } = await client.query<{ nspname: string }>(
      `SELECT nspname FROM pg_namespace
        WHERE nspname = ANY($1) OR EXISTS (SELECT 1 FROM unnest($1::text[]) s WHERE starts_with(nspname, s || '_'))`,
      [schemas],
    );
    for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
  });
});

/**
 * Registers a shared suite against PostgreSQL, or one skipped test saying why when it is off
 * (a suite registered with no tests would pass silently).
 */
export function describeOnPostgres(name: string, register: () => void): void {
  if (POSTGRES_URL === undefined) {
    describe(name, () => {
      it.skip(`runs against PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {});
    });
  } else register();
}
