/**
 * Internal entry of the SQLite store (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { SCHEMA_VERSION as SQLITE_SCHEMA_VERSION } from './schema.js';
export { type SqliteReplyStore } from './sqlite-reply-store.js';
