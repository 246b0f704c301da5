/** Public entry of the store layer: the TaskStore port and the in-memory store. */
export * from './task-store.js';
export * from './approval-store.js';
export { MemoryApprovalStore, createMemoryApprovalStore } from './memory/memory-approval-store.js';
export {
  DEFAULT_MAX_TASKS,
  MemoryTaskStore,
  createMemoryTaskStore,
  type MemoryTaskStoreOptions,
} from './memory/memory-task-store.js';
