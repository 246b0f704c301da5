/**
 * Internal entry of the store layer (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { scopedIdempotencyKey, IdempotencyKeyConflictError } from './task-store.js';
export { DEFAULT_APPROVAL_PAGE_SIZE, MAX_APPROVAL_PAGE_SIZE } from './approval-store.js';
export {
  DEFAULT_DEAD_LETTER_PAGE_SIZE,
  type PushDeadLetterView,
  type PushDeliveryView,
} from './push-store.js';
export {
  replyMaxAge,
  type ReplyScope,
  type KeptReply,
  type NewKeptReply,
  type ReplyStore,
  REPLY_MAX_AGE_MS,
  EXPIRED_REPLIES_PER_KEEP,
} from './reply-store.js';
export {
  MEMORY_REPLIES,
  MEMORY_REPLIES_MAX_BYTES,
  MEMORY_REPLY_MAX_BYTES,
  MemoryReplyStore,
} from './memory/memory-reply-store.js';
export { MAX_DEAD_LETTER_PAGE_SIZE } from './push-rules.js';
export { MAX_MEMORY_DEAD_LETTERS } from './memory/memory-push-store.js';
export { DEFAULT_MAX_TASKS } from './memory/memory-task-store.js';
export { DEFAULT_RETENTION_INTERVAL_MS, formatDuration, parseDuration } from './retention.js';
export { redactDatabaseUrl } from './database-url.js';
