/**
 * The request and result of every A2A operation (A2A 1.0 §3.1), by the names of operation-names.ts,
 * and which operations answer with a stream. The one list lives in `OperationName`; this table is
 * a mapped type over it, so an operation added there is a compile error here until its pair is
 * written, and then in every exhaustive switch and record over it (client bindings, server
 * dispatch, REST routes; CONTRIBUTING "Checklist: add an operation").
 */
import type { AgentCard } from './agent-card.js';
import type {
  CancelTaskRequest,
  GetExtendedAgentCardRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from './model.js';
import type { OperationName } from './operation-names.js';

/** [request, result] of each operation; a stream's result is the type of one event. */
interface OperationPairs {
  sendMessage: [SendMessageRequest, SendMessageResponse];
  sendStreamingMessage: [SendMessageRequest, StreamResponse];
  getTask: [GetTaskRequest, Task];
  listTasks: [ListTasksRequest, ListTasksResponse];
  cancelTask: [CancelTaskRequest, Task];
  subscribeToTask: [SubscribeToTaskRequest, StreamResponse];
  createTaskPushNotificationConfig: [TaskPushNotificationConfig, TaskPushNotificationConfig];
  getTaskPushNotificationConfig: [TaskPushNotificationConfigRef, TaskPushNotificationConfig];
  listTaskPushNotificationConfigs: [
    ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse,
  ];
  deleteTaskPushNotificationConfig: [TaskPushNotificationConfigRef, void];
  getExtendedAgentCard: [GetExtendedAgentCardRequest, AgentCard];
}

/** Requests and results of every operation (indexing `OperationPairs` fails for a missing one). */
export type OperationTypes = { [Op in OperationName]: OperationPairs[Op] };

/** The streaming operations (server-streaming RPCs, SSE answers). */
export type StreamingOperationName = Extract<OperationName, 'sendStreamingMessage' | 'subscribeToTask'>;

/** The unary operations (everything but the streams). */
export type UnaryOperationName = Exclude<OperationName, StreamingOperationName>;
