/**
 * Public entry `concord-a2a/cluster/postgres`: the ClusterBus over PostgreSQL (LISTEN/NOTIFY, heartbeats
 * and the run registry in the store's schema; decision 0115). Loads `pg`; the core never does.
 */
export { createPostgresBus, type PostgresBusOptions } from './postgres-bus.js';
