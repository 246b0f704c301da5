/**
 * Concord: an A2A (Agent2Agent) protocol server for TypeScript. The root entry re-exports the
 * protocol model and the server; stores and adapters have their own entries.
 */
export * from './protocol/index.js';
export * from './server/index.js';
