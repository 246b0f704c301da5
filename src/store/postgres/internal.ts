/**
 * Internal entry of the PostgreSQL store (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { checkSchemaName } from './connection.js';
export { redactDatabaseUrl } from '../database-url.js';
export { MIGRATIONS_TABLE, withSchemaLock } from './migrate.js';
export { POSTGRES_SCHEMA_VERSION } from './schema.js';
export { type RetentionOptions } from '../retention.js';
export { type PostgresReplyStore } from './postgres-reply-store.js';
