/**
 * Applying the migrations (schema.ts). Every instance does it at start, so two instances starting
 * together must not both run them: the whole upgrade is one transaction that first takes a
 * transaction-scoped advisory lock named after the schema. The second instance waits on the lock,
 * then reads the version the first one recorded and has nothing left to do. PostgreSQL DDL is
 * transactional, so a migration that fails leaves the schema exactly as it was (decision 0101).
 */
import type pg from 'pg';
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './schema.js';

/** The table recording which migrations ran, one row per version. */
export const MIGRATIONS_TABLE = 'concord_schema_migrations';

/** What a migration run did. */
export interface MigrationResult {
  schema: string;
  /** The version found. */
  from: number;
  /** The version left (POSTGRES_SCHEMA_VERSION). */
  to: number;
}

/** Thrown when the schema was written by a newer Concord, or is older and may not be upgraded. */
export class SchemaVersionError extends Error {
  constructor(
    readonly schema: string,
    readonly found: number,
    readonly expected: number,
    message: string,
  ) {
    super(message);
    this.name = 'SchemaVersionError';
  }
}

/**
 * Runs `work` in one transaction that holds the schema's DDL lock, after creating the schema if it
 * is absent; commits what `work` did, or rolls all of it back if it throws. Every DDL writer of a
 * Concord schema goes through here (these migrations, the PostgreSQL bus's tables), so processes
 * starting together never race on it.
 */
export async function withSchemaLock<T>(
  pool: pg.Pool,
  schema: string,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      // Released at COMMIT or ROLLBACK, so a crashed migrator never leaves it held.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `concord:migrate:${schema}`,
      ]);
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      // Only when absent: CREATE SCHEMA IF NOT EXISTS still needs the CREATE right on the
      // database, which a role owning an existing schema may lack.
      if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${schema}`);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
}

/** Brings `schema` to POSTGRES_SCHEMA_VERSION, creating it if needed; see the file comment. */
export function migrateSchema(pool: pg.Pool, schema: string): Promise<MigrationResult> {
  return withSchemaLock(pool, schema, async (client) => {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.${MIGRATIONS_TABLE} (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const from = await readVersion(client, schema);
    if (from > POSTGRES_SCHEMA_VERSION) throw newerSchema(schema, from);
    for (let version = from; version < POSTGRES_SCHEMA_VERSION; version++) {
      await client.query(`SET LOCAL search_path = ${schema}`);
      await client.query(POSTGRES_MIGRATIONS[version]!);
      await client.query(`INSERT INTO ${schema}.${MIGRATIONS_TABLE} (version) VALUES ($1)`, [version + 1]);
    }
    return { schema, from, to: POSTGRES_SCHEMA_VERSION };
  });
}

/** Refuses a schema that is not exactly at POSTGRES_SCHEMA_VERSION (for stores opened without migrating). */
export async function checkSchemaVersion(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    const table = await client.query('SELECT to_regclass($1) AS t', [`${schema}.${MIGRATIONS_TABLE}`]);
    const found = table.rows[0]?.t === null ? 0 : await readVersion(client, schema);
    if (found > POSTGRES_SCHEMA_VERSION) throw newerSchema(schema, found);
    if (found < POSTGRES_SCHEMA_VERSION) {
      throw new SchemaVersionError(
        schema,
        found,
        POSTGRES_SCHEMA_VERSION,
        `postgres schema ${schema} is at version ${found}, this Concord needs ${POSTGRES_SCHEMA_VERSION}: run \`concord db migrate\``,
      );
    }
  } finally {
    client.release();
  }
}

async function readVersion(client: pg.PoolClient, schema: string): Promise<number> {
  const result = await client.query<{ v: number | null }>(
    `SELECT max(version) AS v FROM ${schema}.${MIGRATIONS_TABLE}`,
  );
  return result.rows[0]?.v ?? 0;
}

function newerSchema(schema: string, found: number): SchemaVersionError {
  return new SchemaVersionError(
    schema,
    found,
    POSTGRES_SCHEMA_VERSION,
    `postgres schema ${schema} is at version ${found}, newer than this Concord supports (${POSTGRES_SCHEMA_VERSION})`,
  );
}
