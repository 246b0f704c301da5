/**
 * The 1.0 gRPC service `lf.a2a.v1.A2AService` (A2A 1.0 §10). Its messages are the ones every 1.0
 * binding speaks as ProtoJSON, so each RPC maps through the 1.0 codec unchanged: plain ids
 * (`id`, `taskId`), the optional `tenant`, `CreateTaskPushNotificationConfig` taking the config
 * itself, and `DeleteTaskPushNotificationConfig` answering `google.protobuf.Empty`.
 */
import type { GrpcMethodTable, GrpcOperation, GrpcServiceSpec } from '../grpc/service-spec.js';
import { resultMaps, rpcIn } from '../grpc/method-builder.js';
import type { GetExtendedAgentCardRequest } from '../model.js';
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

/**
 * The 1.0 RPCs, one per operation: a record over `OperationName`, so a new operation is a compile
 * error here until it has a row (its proto message names from `protos/lf/a2a/v1/a2a.proto`).
 */
const rpcs: GrpcMethodTable<GrpcOperation> = {
  sendMessage: rpc(
    'sendMessage',
    'SendMessage',
    'SendMessageRequest',
    'SendMessageResponse',
    Object.assign({}, sendRequest, sendResult),
  ),
  sendStreamingMessage: rpc(
    'sendStreamingMessage',
    'SendStreamingMessage',
    'SendMessageRequest',
    'StreamResponse',
    Object.assign({}, sendRequest, stream),
    true,
  ),
  getTask: rpc('getTask', 'GetTask', 'GetTaskRequest', 'Task', {
    decodeRequest: (json) => c.decodeGetTaskRequest(json, ''),
    encodeRequest: (r) => c.encodeGetTaskRequest(r),
    ...task,
  }),
  listTasks: rpc('listTasks', 'ListTasks', 'ListTasksRequest', 'ListTasksResponse', {
    decodeRequest: (json) => c.decodeListTasksRequest(json, ''),
    encodeRequest: (r) => c.encodeListTasksRequest(r),
    encodeResult: (r) => c.encodeListTasksResponse(r),
    decodeResult: (json) => c.decodeListTasksResponse(json, ''),
  }),
  cancelTask: rpc('cancelTask', 'CancelTask', 'CancelTaskRequest', 'Task', {
    decodeRequest: (json) => c.decodeCancelTaskRequest(json, ''),
    encodeRequest: (r) => c.encodeCancelTaskRequest(r),
    ...task,
  }),
  subscribeToTask: rpc(
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
  createTaskPushNotificationConfig: rpc(
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
  getTaskPushNotificationConfig: rpc(
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
  listTaskPushNotificationConfigs: rpc(
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
  getExtendedAgentCard: rpc(
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
  deleteTaskPushNotificationConfig: rpc(
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
};

/** The 1.0 service table. */
export const v1_0GrpcService: GrpcServiceSpec = Object.freeze({
  version: '1.0',
  service: `${P}A2AService`,
  protoFile: 'lf/a2a/v1/a2a.proto',
  methods: Object.values(rpcs),
});
