/** Public entry of the store layer: the TaskStore port and the in-memory store. */
export {
  type TaskScope,
  type StoredTask,
  type ArtifactPiece,
  type StoredTaskHead,
  type TaskReadOptions,
  type TaskEventRecord,
  type TaskCommit,
  type TaskQuery,
  type TaskPage,
  VersionConflictError,
  type UnfinishedTask,
  type TaskStore,
} from './task-store.js';
export {
  type ApprovalStatus,
  type ApprovalRecord,
  type NewApproval,
  type ApprovalDecisionInput,
  type ApprovalQuery,
  type ApprovalPage,
  type ApprovalAction,
  type ApprovalEvent,
  ApprovalConflictError,
  ApprovalNotFoundError,
  ApprovalExistsError,
  type ApprovalStore,
} from './approval-store.js';
export {
  EvidenceSequenceError,
  type EvidenceRecord,
  type EvidenceStore,
  type NewEvidenceRecord,
} from './evidence-store.js';
export { MemoryEvidenceStore, createMemoryEvidenceStore } from './memory/memory-evidence-store.js';
export {
  type PushConfigRecord,
  type PushOutboxEntry,
  type PushDeadLetter,
  type PushSettlement,
  type DeadLetterQuery,
  type DeadLetterPage,
  type PushStore,
} from './push-store.js';

export { MemoryApprovalStore, createMemoryApprovalStore } from './memory/memory-approval-store.js';
export { MemoryPushStore } from './memory/memory-push-store.js';
export {
  MemoryTaskStore,
  createMemoryTaskStore,
  type MemoryTaskStoreOptions,
} from './memory/memory-task-store.js';
export { DEFAULT_RETENTION, type RetentionOptions } from './retention.js';
