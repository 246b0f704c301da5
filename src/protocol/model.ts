/**
 * The canonical A2A model. It is shaped like A2A 1.0 (the `lf.a2a.v1` proto in its ProtoJSON
 * form), so the 1.0 codecs are near-identity; 0.3 shapes exist only in `protocol/v0_3`.
 * Objects of this model are treated as immutable once built: the task runner makes new objects
 * for every change, so stores and fan-out may share them without copying.
 */

/** Task states, spelled as the 1.0 proto spells them (A2A 1.0 §4.1.3). */
export type TaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_AUTH_REQUIRED'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_REJECTED';

/** Every known task state, in proto order. */
export const TASK_STATES: readonly TaskState[] = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
];

/**
 * True for a state this version knows. The model types stay closed for the server, which only
 * ever builds known values; a client reading liberally keeps a newer peer's unknown state as the
 * string that came (decision 0136), and this guard tells the two apart.
 */
export function isKnownTaskState(state: string): state is TaskState {
  return (TASK_STATES as readonly string[]).includes(state);
}

/** Message author role (A2A 1.0 §4.1.5). */
export type Role = 'ROLE_USER' | 'ROLE_AGENT';

/** True for a role this version knows (see isKnownTaskState, decision 0136). */
export function isKnownRole(role: string): role is Role {
  return role === 'ROLE_USER' || role === 'ROLE_AGENT';
}

/** Arbitrary JSON object carried in `metadata` fields (google.protobuf.Struct). */
export type Metadata = Record<string, unknown>;

/**
 * One unit of content. Exactly one of `text`, `raw`, `url` or `data` is set (A2A 1.0 §4.1.6).
 * `raw` stays base64 as on the wire: the server never needs the bytes, only to carry them.
 */
export interface Part {
  text?: string;
  raw?: string;
  url?: string;
  data?: unknown;
  metadata?: Metadata;
  filename?: string;
  mediaType?: string;
}

/** A message between user and agent (A2A 1.0 §4.1.4). */
export interface Message {
  messageId: string;
  role: Role;
  parts: Part[];
  contextId?: string;
  taskId?: string;
  referenceTaskIds?: string[];
  extensions?: string[];
  metadata?: Metadata;
}

/** A task output (A2A 1.0 §4.1.7). */
export interface Artifact {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part[];
  metadata?: Metadata;
  extensions?: string[];
}

/** Current state of a task; `timestamp` is RFC 3339 UTC with `Z` (A2A 1.0 §5.6.1). */
export interface TaskStatus {
  state: TaskState;
  message?: Message;
  timestamp?: string;
}

/** The unit of work (A2A 1.0 §4.1.1). */
export interface Task {
  id: string;
  contextId: string;
  status: TaskStatus;
  artifacts?: Artifact[];
  history?: Message[];
  metadata?: Metadata;
}

/** Status change of a task, as streamed (A2A 1.0 §4.2.1). */
export interface TaskStatusUpdateEvent {
  taskId: string;
  contextId: string;
  status: TaskStatus;
  metadata?: Metadata;
}

/** New or appended artifact content, as streamed (A2A 1.0 §4.2.2). */
export interface TaskArtifactUpdateEvent {
  taskId: string;
  contextId: string;
  artifact: Artifact;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: Metadata;
}

/** A streamed item: exactly one member is set (A2A 1.0 `StreamResponse`). */
export type StreamResponse =
  | { task: Task }
  | { message: Message }
  | { statusUpdate: TaskStatusUpdateEvent }
  | { artifactUpdate: TaskArtifactUpdateEvent };

/** Result of a send: a task or a direct message reply (A2A 1.0 `SendMessageResponse`). */
export type SendMessageResponse = { task: Task } | { message: Message };

/** Push authentication: one HTTP auth scheme and its credentials (A2A 1.0 `AuthenticationInfo`). */
export interface AuthenticationInfo {
  scheme: string;
  credentials?: string;
}

/** Push notification target of a task; 1.0's flat form (A2A 1.0 §4.3). */
export interface TaskPushNotificationConfig {
  tenant?: string;
  id?: string;
  taskId: string;
  url: string;
  token?: string;
  authentication?: AuthenticationInfo;
}

/** Options of a send (A2A 1.0 `SendMessageConfiguration`). */
export interface SendMessageConfiguration {
  acceptedOutputModes?: string[];
  taskPushNotificationConfig?: TaskPushNotificationConfig;
  historyLength?: number;
  /** 1.0 `returnImmediately`; 0.3 `blocking: false` decodes to `true` here. */
  returnImmediately?: boolean;
}

/** `SendMessage` / `SendStreamingMessage` parameters. */
export interface SendMessageRequest {
  tenant?: string;
  message: Message;
  configuration?: SendMessageConfiguration;
  metadata?: Metadata;
}

/** `GetTask` parameters. */
export interface GetTaskRequest {
  tenant?: string;
  id: string;
  historyLength?: number;
}

/** `ListTasks` parameters (A2A 1.0 §3.1.4). */
export interface ListTasksRequest {
  tenant?: string;
  contextId?: string;
  status?: TaskState;
  pageSize?: number;
  pageToken?: string;
  historyLength?: number;
  /** RFC 3339 timestamp; only tasks whose status changed after it. */
  statusTimestampAfter?: string;
  includeArtifacts?: boolean;
}

/** `ListTasks` result; every field is always present (A2A 1.0 §3.1.4). */
export interface ListTasksResponse {
  tasks: Task[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** `CancelTask` parameters. */
export interface CancelTaskRequest {
  tenant?: string;
  id: string;
  metadata?: Metadata;
}

/** `SubscribeToTask` parameters. */
export interface SubscribeToTaskRequest {
  tenant?: string;
  id: string;
}

/** `GetTaskPushNotificationConfig` / `DeleteTaskPushNotificationConfig` parameters. */
export interface TaskPushNotificationConfigRef {
  tenant?: string;
  taskId: string;
  /** Absent only on 0.3 `get`, where it defaults to the task's default config (decision 0086). */
  id?: string;
}

/** `ListTaskPushNotificationConfigs` parameters. */
export interface ListTaskPushNotificationConfigsRequest {
  tenant?: string;
  taskId: string;
  pageSize?: number;
  pageToken?: string;
}

/** `ListTaskPushNotificationConfigs` result. */
export interface ListTaskPushNotificationConfigsResponse {
  configs: TaskPushNotificationConfig[];
  nextPageToken?: string;
}

/** `GetExtendedAgentCard` parameters. */
export interface GetExtendedAgentCardRequest {
  tenant?: string;
}

/** States after which a task never changes again (A2A 1.0 §4.1.3). */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
]);

/** States in which the task waits for the client (A2A 1.0 §4.1.3, §7.6). */
export const INTERRUPTED_STATES: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
]);

/** True for completed, canceled, failed and rejected. */
export function isTerminalState(state: TaskState): boolean {
  return TERMINAL_STATES.has(state);
}

/** True for input-required and auth-required. */
export function isInterruptedState(state: TaskState): boolean {
  return INTERRUPTED_STATES.has(state);
}
