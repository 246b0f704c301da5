/**
 * Public entry `concord-a2a/cluster/redis`: the ClusterBus over Redis (pub/sub, heartbeat keys with a
 * TTL, the run registry in hashes; decision 0116). Loads `@redis/client`; the core never does.
 */
export { createRedisBus, type RedisBusOptions } from './redis-bus.js';
