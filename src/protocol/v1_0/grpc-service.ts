/**
 * The 1.0 gRPC service `lf.a2a.v1.A2AService` (A2A 1.0 §10). Its messages are the ones every 1.0
 * binding speaks as ProtoJSON, so each RPC maps through the 1.0 codec unchanged: plain ids
 * (`id`, `taskId`), the optional `tenant`, `CreateTaskPushNotificationConfig` taking the config
 * itself, and `DeleteTaskPushNotificationConfig` answering `google.protobuf.Empty`.
 */
import type { GrpcServiceSpec } from '../grpc/service-spec.js';
import { resultMaps, rpcIn } from '../grpc/method-builder.js';
import type {
  CancelTaskRequest,
  GetExtendedAgentCardRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from '../model.js';
import type { AgentCard } from '../agent-card.js';
import type {
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  SendMessageResponse,
  StreamResponse,
  Task,
} from '../model.js';
import { optionalProtoString } from './proto-json.js';
import { readObject } from '../decode-kit.js';
import { v1_0Codec as c } from './index.js';

const P = 'lf.a2a.v1.';

const rpc = rpcIn(P);
const { sendRequest, sendResult, stream, task, config } = resultMaps(c);

/** `GetExtendedAgentCardRequest` carries only the tenant. */
function decodeCardRequest(json: unknown): GetExtendedAgentCardRequest {
  const tenant = optionalProtoString(readObject(json, ''), 'tenant', '');
  return tenant === undefined ? {} : { tenant };
}

/** The 1.0 service table. */
export const v1_0GrpcService: GrpcServiceSpec = Object.freeze({
  version: '1.0',
  service: `${P}A2AService`,
  protoFile: 'lf/a2a/v1/a2a.proto',
  methods: [
    rpc<SendMessageRequest, SendMessageResponse>(
      'sendMessage',
      'SendMessage',
      'SendMessageRequest',
      'SendMessageResponse',
      Object.assign({}, sendRequest, sendResult),
    ),
    rpc<SendMessageRequest, StreamResponse>(
      'sendStreamingMessage',
      'SendStreamingMessage',
      'SendMessageRequest',
      'StreamResponse',
      Object.assign({}, sendRequest, stream),
      true,
    ),
    rpc<GetTaskRequest, Task>('getTask', 'GetTask', 'GetTaskRequest', 'Task', {
      decodeRequest: (json) => c.decodeGetTaskRequest(json, ''),
      encodeRequest: (r) => c.encodeGetTaskRequest(r),
      ...task,
    }),
    rpc<ListTasksRequest, ListTasksResponse>(
      'listTasks',
      'ListTasks',
      'ListTasksRequest',
      'ListTasksResponse',
      {
        decodeRequest: (json) => c.decodeListTasksRequest(json, ''),
        encodeRequest: (r) => c.encodeListTasksRequest(r),
        encodeResult: (r) => c.encodeListTasksResponse(r),
        decodeResult: (json) => c.decodeListTasksResponse(json, ''),
      },
    ),
    rpc<CancelTaskRequest, Task>('cancelTask', 'CancelTask', 'CancelTaskRequest', 'Task', {
      decodeRequest: (json) => c.decodeCancelTaskRequest(json, ''),
      encodeRequest: (r) => c.encodeCancelTaskRequest(r),
      ...task,
    }),
    rpc<SubscribeToTaskRequest, StreamResponse>(
      'subscribeToTask',
      'SubscribeToTask',
      'SubscribeToTaskRequest',
      'StreamResponse',
      {
        decodeRequest: (json) => c.decodeSubscribeToTaskRequest(json, ''),
        encodeRequest: (r) => c.encodeSubscribeToTaskRequest(r),
        ...stream,
      },
      true,
    ),
    rpc<TaskPushNotificationConfig, TaskPushNotificationConfig>(
      'createTaskPushNotificationConfig',
      'CreateTaskPushNotificationConfig',
      'TaskPushNotificationConfig',
      'TaskPushNotificationConfig',
      {
        decodeRequest: (json) => c.decodeTaskPushNotificationConfig(json, ''),
        encodeRequest: (r) => c.encodeTaskPushNotificationConfig(r),
        ...config,
      },
    ),
    rpc<TaskPushNotificationConfigRef, TaskPushNotificationConfig>(
      'getTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'GetTaskPushNotificationConfigRequest',
      'TaskPushNotificationConfig',
      {
        decodeRequest: (json) => c.decodeTaskPushNotificationConfigRef(json, ''),
        encodeRequest: (r) => c.encodeTaskPushNotificationConfigRef(r),
        ...config,
      },
    ),
    rpc<ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse>(
      'listTaskPushNotificationConfigs',
      'ListTaskPushNotificationConfigs',
      'ListTaskPushNotificationConfigsRequest',
      'ListTaskPushNotificationConfigsResponse',
      {
        decodeRequest: (json) => c.decodeListTaskPushNotificationConfigsRequest(json, ''),
        encodeRequest: (r) => c.encodeListTaskPushNotificationConfigsRequest(r),
        encodeResult: (r) => c.encodeListTaskPushNotificationConfigsResponse(r),
        decodeResult: (json) => c.decodeListTaskPushNotificationConfigsResponse(json, ''),
      },
    ),
    rpc<GetExtendedAgentCardRequest, AgentCard>(
      'getExtendedAgentCard',
      'GetExtendedAgentCard',
      'GetExtendedAgentCardRequest',
      'AgentCard',
      {
        decodeRequest: decodeCardRequest,
        encodeRequest: (r) => (r.tenant === undefined ? {} : { tenant: r.tenant }),
        encodeResult: (card) => c.encodeAgentCard(card),
        decodeResult: (json) => c.decodeAgentCard(json, ''),
      },
    ),
    rpc<TaskPushNotificationConfigRef, void>(
      'deleteTaskPushNotificationConfig',
      'DeleteTaskPushNotificationConfig',
      'DeleteTaskPushNotificationConfigRequest',
      'google.protobuf.Empty',
      {
        decodeRequest: (json) => c.decodeTaskPushNotificationConfigRef(json, ''),
        encodeRequest: (r) => c.encodeTaskPushNotificationConfigRef(r),
        encodeResult: () => ({}),
        decodeResult: () => undefined,
      },
    ),
  ],
});
