/**
 * Public entry of the protocol layer: the canonical model, its requests and responses, and the
 * A2A errors. The wire codecs and the JSON-RPC / SSE / decoding helpers are the server's and the
 * client's, in internal.ts (decision 0155). Pure: no I/O.
 */
export {
  isKnownTaskState,
  isTerminalState,
  isInterruptedState,
  type TaskState,
  TASK_STATES,
  type Role,
  type Metadata,
  type Part,
  type Message,
  type Artifact,
  type TaskStatus,
  type Task,
  type TaskStatusUpdateEvent,
  type TaskArtifactUpdateEvent,
  type StreamResponse,
  type SendMessageResponse,
  type AuthenticationInfo,
  type TaskPushNotificationConfig,
  type SendMessageConfiguration,
  type SendMessageRequest,
  type GetTaskRequest,
  type ListTasksRequest,
  type ListTasksResponse,
  type CancelTaskRequest,
  type SubscribeToTaskRequest,
  type TaskPushNotificationConfigRef,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type GetExtendedAgentCardRequest,
} from './model.js';
export * from './agent-card.js';
export { type A2AErrorType, type FieldViolation, type A2AErrorOptions, A2AError } from './errors.js';
export { type ProtocolVersion } from './codec.js';

export { SUPPORTED_VERSIONS } from './version.js';

export * from './error-tables.js';
