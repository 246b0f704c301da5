/** Public entry of the store layer: the TaskStore port and the in-memory store. */
export * from './task-store.js';
export { MemoryTaskStore, createMemoryTaskStore } from './memory/memory-task-store.js';
