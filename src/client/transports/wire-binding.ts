/**
 * What a binding (JSON-RPC or HTTP+JSON) contributes to a call: how a canonical request becomes an
 * HTTP request, and how the answer, stream events and errors come back. The canonical request
 * and result types are the same on every binding (house style rules 2-3), so the per-operation
 * encoders and decoders are shared here and only the envelope differs per binding.
 */
import type { UnaryOperationName } from '../../protocol/operation-types.js';
import type {
  OperationName,
  CancelTaskRequest,
  GetExtendedAgentCardRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  ProtocolVersion,
  SendMessageRequest,
  SseEvent,
  StreamResponse,
  SubscribeToTaskRequest,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
  WireCodec,
} from '../../protocol/internal.js';

/** The HTTP request a binding made of an operation. */
export interface WirePlan {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  /** JSON body (already in wire form), absent for GET and DELETE. */
  body?: unknown;
}

/** One binding at one version. */
export interface WireBinding {
  readonly version: ProtocolVersion;
  readonly codec: WireCodec;
  /** Where a 2xx body holds its result: `[]` on HTTP+JSON, `['result']` on JSON-RPC. */
  readonly resultPath: readonly string[];
  /** The HTTP request for an operation (`request` is canonical, tenant already applied). */
  plan(operation: OperationName, request: unknown): WirePlan;
  /** The canonical result of a 2xx JSON body; throws A2AClientError for an error envelope. */
  result(operation: UnaryOperationName, status: number, json: unknown, url: string): unknown;
  /** The A2AClientError in a non-2xx (or JSON-instead-of-SSE) body, or undefined. */
  error(status: number, json: unknown): Error | undefined;
  /** One decoded SSE event; throws A2AClientError for an error event. */
  event(event: SseEvent, status: number): StreamResponse;
}

/** Encodes an operation's canonical request with the codec of the chosen dialect. */
export function encodeRequest(codec: WireCodec, operation: OperationName, request: unknown): unknown {
  switch (operation) {
    case 'sendMessage':
    case 'sendStreamingMessage':
      return codec.encodeSendMessageRequest(request as SendMessageRequest);
    case 'getTask':
      return codec.encodeGetTaskRequest(request as GetTaskRequest);
    case 'listTasks':
      return codec.encodeListTasksRequest(request as ListTasksRequest);
    case 'cancelTask':
      return codec.encodeCancelTaskRequest(request as CancelTaskRequest);
    case 'subscribeToTask':
      return codec.encodeSubscribeToTaskRequest(request as SubscribeToTaskRequest);
    case 'createTaskPushNotificationConfig':
      return codec.encodeTaskPushNotificationConfig(request as TaskPushNotificationConfig);
    case 'getTaskPushNotificationConfig':
    case 'deleteTaskPushNotificationConfig':
      return codec.encodeTaskPushNotificationConfigRef(request as TaskPushNotificationConfigRef);
    case 'listTaskPushNotificationConfigs':
      return codec.encodeListTaskPushNotificationConfigsRequest(
        request as ListTaskPushNotificationConfigsRequest,
      );
    case 'getExtendedAgentCard': {
      const tenant = (request as GetExtendedAgentCardRequest).tenant;
      return tenant === undefined ? {} : { tenant };
    }
    default:
      // A new operation in the protocol's list stops the compiler here.
      return operation satisfies never;
  }
}

/** Decodes an operation's result (wire form at JSON Pointer `path`) into the canonical model. */
export function decodeResult(
  codec: WireCodec,
  operation: UnaryOperationName,
  value: unknown,
  path: string,
): unknown {
  switch (operation) {
    case 'sendMessage':
      return codec.decodeSendMessageResponse(value, path);
    case 'getTask':
    case 'cancelTask':
      return codec.decodeTask(value, path);
    case 'listTasks':
      return codec.decodeListTasksResponse(value, path);
    case 'createTaskPushNotificationConfig':
    case 'getTaskPushNotificationConfig':
      return codec.decodeTaskPushNotificationConfig(value, path);
    case 'listTaskPushNotificationConfigs':
      return codec.decodeListTaskPushNotificationConfigsResponse(value, path);
    case 'deleteTaskPushNotificationConfig':
      // 1.0 answers Empty `{}`, 0.3 `null` (decision 0086): nothing to decode.
      return undefined;
    case 'getExtendedAgentCard':
      return codec.decodeAgentCard(value, path);
    default:
      return operation satisfies never;
  }
}
