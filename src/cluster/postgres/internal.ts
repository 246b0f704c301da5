/**
 * Internal entry of the PostgreSQL cluster bus (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { channelOf } from './postgres-bus.js';
export { INSTANCES_TABLE, RUNS_TABLE } from './bus-tables.js';
