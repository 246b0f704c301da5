/**
 * A wire codec turns one wire dialect into the canonical model and back. There are three
 * dialects (A2A 1.0 §5.5): 1.0 ProtoJSON (every 1.0 binding), 0.3 JSON-RPC (`types.ts` shapes with
 * `kind`) and 0.3 REST (ProtoJSON of the 0.3 proto, decision 0008). Servers decode requests and
 * encode results; clients do the reverse, so every codec goes both ways.
 *
 * Decoders are strict: they throw InvalidParamsError naming the JSON Pointer path of the first
 * bad field (`path` is the pointer of `value` itself, e.g. `/params`). Encoders never fail on a
 * valid canonical value and omit absent members.
 */
import type { AgentCard } from './agent-card.js';
import type {
  Artifact,
  CancelTaskRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  Part,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from './model.js';

/** Protocol versions Concord speaks, as `Major.Minor` (A2A 1.0 §3.6). */
export type ProtocolVersion = '0.3' | '1.0';

/** The dialects; a codec exists for each. */
export type WireDialect = '1.0' | '0.3-jsonrpc' | '0.3-rest';

/** Both directions of one wire dialect. */
export interface WireCodec {
  readonly dialect: WireDialect;
  readonly version: ProtocolVersion;

  // Requests (decoded by servers, encoded by clients).
  decodeSendMessageRequest(value: unknown, path: string): SendMessageRequest;
  encodeSendMessageRequest(request: SendMessageRequest): unknown;
  decodeGetTaskRequest(value: unknown, path: string): GetTaskRequest;
  encodeGetTaskRequest(request: GetTaskRequest): unknown;
  decodeListTasksRequest(value: unknown, path: string): ListTasksRequest;
  encodeListTasksRequest(request: ListTasksRequest): unknown;
  decodeCancelTaskRequest(value: unknown, path: string): CancelTaskRequest;
  encodeCancelTaskRequest(request: CancelTaskRequest): unknown;
  decodeSubscribeToTaskRequest(value: unknown, path: string): SubscribeToTaskRequest;
  encodeSubscribeToTaskRequest(request: SubscribeToTaskRequest): unknown;
  /** Create/set body. */
  decodeTaskPushNotificationConfig(value: unknown, path: string): TaskPushNotificationConfig;
  encodeTaskPushNotificationConfig(config: TaskPushNotificationConfig): unknown;
  /** Get/delete parameters. */
  decodeTaskPushNotificationConfigRef(value: unknown, path: string): TaskPushNotificationConfigRef;
  encodeTaskPushNotificationConfigRef(ref: TaskPushNotificationConfigRef): unknown;
  decodeListTaskPushNotificationConfigsRequest(
    value: unknown,
    path: string,
  ): ListTaskPushNotificationConfigsRequest;
  encodeListTaskPushNotificationConfigsRequest(request: ListTaskPushNotificationConfigsRequest): unknown;

  // Results (encoded by servers, decoded by clients).
  encodeTask(task: Task): unknown;
  decodeTask(value: unknown, path: string): Task;
  encodeMessage(message: Message): unknown;
  /**
   * A task's members one at a time, for an answer written as it goes out (decision 0172): these
   * encode exactly what `encodeTask` writes for them inside a task.
   */
  encodeArtifact(artifact: Artifact): unknown;
  encodePart(part: Part): unknown;
  /** One part, or one artifact, read on its own, as `decodeTask` reads it in a task (decision 0173). */
  decodePart(value: unknown, path: string): Part;
  decodeArtifact(value: unknown, path: string): Artifact;
  decodeMessage(value: unknown, path: string): Message;
  encodeSendMessageResponse(response: SendMessageResponse): unknown;
  decodeSendMessageResponse(value: unknown, path: string): SendMessageResponse;
  encodeStreamResponse(event: StreamResponse): unknown;
  decodeStreamResponse(value: unknown, path: string): StreamResponse;
  encodeListTasksResponse(response: ListTasksResponse): unknown;
  decodeListTasksResponse(value: unknown, path: string): ListTasksResponse;
  encodeListTaskPushNotificationConfigsResponse(response: ListTaskPushNotificationConfigsResponse): unknown;
  decodeListTaskPushNotificationConfigsResponse(
    value: unknown,
    path: string,
  ): ListTaskPushNotificationConfigsResponse;
  encodeAgentCard(card: AgentCard): unknown;
  decodeAgentCard(value: unknown, path: string): AgentCard;
}
