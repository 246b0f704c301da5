/** Public entry `concord-a2a/store/postgres`: the PostgreSQL TaskStore, its migrations and retention. */
import { openPool, type PostgresConnectionOptions } from './connection.js';
import { Database } from './database.js';
import { checkSchemaVersion, migrateSchema, type MigrationResult } from './migrate.js';
import { PostgresTaskStore } from './postgres-task-store.js';
import { DEFAULT_POSTGRES_SCHEMA } from './connection.js';
import { checkRetention, type RetentionOptions } from '../retention.js';
import { POSTGRES_SCHEMA_VERSION } from './schema.js';

export {
  DatabaseConnectionError,
  DEFAULT_POSTGRES_SCHEMA,
  type PostgresConnectionOptions,
} from './connection.js';

export { SchemaVersionError, type MigrationResult } from './migrate.js';

export { PostgresTaskStore } from './postgres-task-store.js';
export type { PostgresApprovalStore } from './postgres-approval-store.js';
export type { PostgresEvidenceStore } from './postgres-evidence-store.js';
export type { PostgresPushStore } from './postgres-push-store.js';

/** Options of `openPostgresStore`. */
export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /**
   * Apply pending schema migrations on open (default true). With false the schema must already be
   * at this Concord's version (`concord db migrate`), for roles that may not change the schema.
   */
  migrate?: boolean | undefined;
  /** Delete terminal tasks older than `retention.maxAgeMs` on a timer (decision 0103); off by default. */
  retention?: RetentionOptions | undefined;
}

/** Connects, brings the schema up to date (see `migrate`), and returns the store. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresTaskStore> {
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  if (options.retention !== undefined) checkRetention(options.retention);
  const pool = await openPool(Object.assign({}, options, { schema }));
  let migration: { from: number; to: number };
  try {
    if (options.migrate === false) {
      await checkSchemaVersion(pool, schema);
      migration = { from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION };
    } else {
      const { from, to } = await migrateSchema(pool, schema);
      migration = { from, to };
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const store = new PostgresTaskStore(new Database(pool), schema, options.retention);
  store.schemaMigration = migration;
  return store;
}

/** Applies pending migrations to the schema and closes the connection (`concord db migrate`). */
export async function migratePostgres(options: PostgresConnectionOptions): Promise<MigrationResult> {
  const schema = options.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const pool = await openPool(Object.assign({}, options, { schema, poolSize: 1 }));
  try {
    return await migrateSchema(pool, schema);
  } finally {
    await pool.end();
  }
}
