/** Public entry of the store layer: the TaskStore port and the in-memory store. */
export * from './task-store.js';
export * from './approval-store.js';
export {
  EvidenceSequenceError,
  type EvidenceRecord,
  type EvidenceStore,
  type NewEvidenceRecord,
} from './evidence-store.js';
export { MemoryEvidenceStore, createMemoryEvidenceStore } from './memory/memory-evidence-store.js';
export * from './push-store.js';
export * from './reply-store.js';
export {
  MEMORY_REPLIES,
  MEMORY_REPLIES_MAX_BYTES,
  MEMORY_REPLY_MAX_BYTES,
  MemoryReplyStore,
} from './memory/memory-reply-store.js';
export { MAX_DEAD_LETTER_PAGE_SIZE } from './push-rules.js';
export { MemoryApprovalStore, createMemoryApprovalStore } from './memory/memory-approval-store.js';
export { MemoryPushStore, MAX_MEMORY_DEAD_LETTERS } from './memory/memory-push-store.js';
export {
  DEFAULT_MAX_TASKS,
  MemoryTaskStore,
  createMemoryTaskStore,
  type MemoryTaskStoreOptions,
} from './memory/memory-task-store.js';
export {
  DEFAULT_RETENTION,
  DEFAULT_RETENTION_INTERVAL_MS,
  formatDuration,
  parseDuration,
  type RetentionOptions,
} from './retention.js';
export { redactDatabaseUrl } from './database-url.js';
