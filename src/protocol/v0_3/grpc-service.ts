/**
 * The 0.3 gRPC service `a2a.v1.A2AService` (A2A 0.3 §3.2.2). Bodies are ProtoJSON of the 0.3 proto,
 * which the REST codec already speaks (decision 0008); what differs is where the ids travel.
 * The REST binding takes them from the URL path and hands the codec route parameters (`{id}`,
 * `{taskId, id}`); here they arrive as the proto's AIP-122 resource names (`name: "tasks/{id}"`,
 * `parent`, `tasks/{id}/pushNotificationConfigs/{cid}`), so each RPC converts between the two.
 * 0.3 has no ListTasks RPC (A2A 0.3 §7, `tasks/list`); `GetAgentCard` is the extended-card operation
 * (its HTTP annotation is `/v1/card`, the REST binding's extended card).
 */
import { invalidParams } from '../errors.js';
import { optionalString, readObject, type JsonObject, quote } from '../decode-kit.js';
import type { GrpcMethodTableWithout, GrpcServiceSpec } from '../grpc/service-spec.js';
import { resultMaps, rpcIn } from '../grpc/method-builder.js';
import type { ListTaskPushNotificationConfigsRequest, TaskPushNotificationConfig } from '../model.js';
import { decodeGrpcAgentCard, encodeGrpcAgentCard } from './grpc-card.js';
import { parsePushConfigName, pushConfigName } from './resource-names.js';
import { v0_3RestCodec as c } from './rest-codec.js';

const P = 'a2a.v1.';
const TASK_NAME = /^tasks\/([^/]+)$/;

/** The task id of a `tasks/{id}` resource name at `path`. */
function taskIdOf(value: unknown, path: string): string {
  if (value === undefined || value === null || value === '') throw invalidParams(path, 'is required');
  const match = typeof value === 'string' ? TASK_NAME.exec(value) : null;
  if (match === null) throw invalidParams(path, `expected a resource name "tasks/{id}", got ${quote(value)}`);
  return match[1] as string;
}

/** `{name}` of a task-addressed request, as the REST codec's `{id}` route form. */
function byTaskName(json: unknown, extra: (obj: JsonObject) => JsonObject = () => ({})): JsonObject {
  const obj = readObject(json, '');
  return { id: taskIdOf(obj.name, '/name'), ...extra(obj) };
}

/** A push-config name as the REST codec's `{taskId, id}` route form. */
function byConfigName(json: unknown): JsonObject {
  const obj = readObject(json, '');
  if (obj.name === undefined || obj.name === null || obj.name === '')
    throw invalidParams('/name', 'is required');
  const name = parsePushConfigName(obj.name, '/name');
  return name.configId === undefined ? { taskId: name.taskId } : { taskId: name.taskId, id: name.configId };
}

const rpc = rpcIn(P);
const { sendRequest, sendResult, stream, task, config } = resultMaps(c);

/**
 * `CreateTaskPushNotificationConfigRequest {parent, configId, config}`: the task from `parent`,
 * the config id from `configId` when the config itself names none.
 */
function decodeCreateConfig(json: unknown): TaskPushNotificationConfig {
  const obj = readObject(json, '');
  const taskId = taskIdOf(obj.parent, '/parent');
  const inner = readObject(obj.config ?? null, '/config');
  // eslint-disable-next-line no-restricted-syntax -- peer JSON: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
  const decoded = c.decodeTaskPushNotificationConfig({ ...inner, taskId }, '/config');
  const configId = optionalString(obj, 'configId', '');
  if (decoded.id === undefined && configId !== undefined && configId !== '') decoded.id = configId;
  return decoded;
}

function encodeCreateConfig(config: TaskPushNotificationConfig): JsonObject {
  const out: JsonObject = {
    parent: `tasks/${config.taskId}`,
    config: c.encodeTaskPushNotificationConfig(config),
  };
  if (config.id !== undefined) out.configId = config.id;
  return out;
}

function decodeListConfigs(json: unknown): ListTaskPushNotificationConfigsRequest {
  const obj = readObject(json, '');
  const route: JsonObject = { taskId: taskIdOf(obj.parent, '/parent') };
  if (obj.pageSize !== undefined) route.pageSize = obj.pageSize;
  if (obj.pageToken !== undefined) route.pageToken = obj.pageToken;
  return c.decodeListTaskPushNotificationConfigsRequest(route, '');
}

function encodeListConfigs(request: ListTaskPushNotificationConfigsRequest): JsonObject {
  const { taskId, ...rest } = c.encodeListTaskPushNotificationConfigsRequest(request) as JsonObject;
  return { parent: `tasks/${String(taskId)}`, ...rest };
}

/**
 * The 0.3 RPCs, one per operation its proto has, keyed by operation. `listTasks` is deliberately
 * absent (no ListTasks RPC in 0.3, A2A 0.3 §7); any other operation, a new one included, is a
 * compile error here until it has a row or joins that list.
 */
const rpcs: GrpcMethodTableWithout<'listTasks'> = {
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
    decodeRequest: (json) =>
      c.decodeGetTaskRequest(
        byTaskName(json, (o) => (o.historyLength === undefined ? {} : { historyLength: o.historyLength })),
        '',
      ),
    encodeRequest: (r) => {
      const { id, ...rest } = c.encodeGetTaskRequest(r) as JsonObject;
      return { name: `tasks/${String(id)}`, ...rest };
    },
    ...task,
  }),
  cancelTask: rpc('cancelTask', 'CancelTask', 'CancelTaskRequest', 'Task', {
    decodeRequest: (json) => c.decodeCancelTaskRequest(byTaskName(json), ''),
    encodeRequest: (r) => ({ name: `tasks/${r.id}` }),
    ...task,
  }),
  subscribeToTask: rpc(
    'subscribeToTask',
    'TaskSubscription',
    'TaskSubscriptionRequest',
    'StreamResponse',
    {
      decodeRequest: (json) => c.decodeSubscribeToTaskRequest(byTaskName(json), ''),
      encodeRequest: (r) => ({ name: `tasks/${r.id}` }),
      ...stream,
    },
    true,
  ),
  createTaskPushNotificationConfig: rpc(
    'createTaskPushNotificationConfig',
    'CreateTaskPushNotificationConfig',
    'CreateTaskPushNotificationConfigRequest',
    'TaskPushNotificationConfig',
    { decodeRequest: decodeCreateConfig, encodeRequest: encodeCreateConfig, ...config },
  ),
  getTaskPushNotificationConfig: rpc(
    'getTaskPushNotificationConfig',
    'GetTaskPushNotificationConfig',
    'GetTaskPushNotificationConfigRequest',
    'TaskPushNotificationConfig',
    {
      decodeRequest: (json) => c.decodeTaskPushNotificationConfigRef(byConfigName(json), ''),
      encodeRequest: (r) => ({ name: pushConfigName(r.taskId, r.id) }),
      ...config,
    },
  ),
  listTaskPushNotificationConfigs: rpc(
    'listTaskPushNotificationConfigs',
    'ListTaskPushNotificationConfig',
    'ListTaskPushNotificationConfigRequest',
    'ListTaskPushNotificationConfigResponse',
    {
      decodeRequest: decodeListConfigs,
      encodeRequest: encodeListConfigs,
      encodeResult: (r) => c.encodeListTaskPushNotificationConfigsResponse(r),
      decodeResult: (json) => c.decodeListTaskPushNotificationConfigsResponse(json, ''),
    },
  ),
  getExtendedAgentCard: rpc('getExtendedAgentCard', 'GetAgentCard', 'GetAgentCardRequest', 'AgentCard', {
    decodeRequest: () => ({}),
    encodeRequest: () => ({}),
    encodeResult: (card) => encodeGrpcAgentCard(card),
    decodeResult: (json) => decodeGrpcAgentCard(json, ''),
  }),
  deleteTaskPushNotificationConfig: rpc(
    'deleteTaskPushNotificationConfig',
    'DeleteTaskPushNotificationConfig',
    'DeleteTaskPushNotificationConfigRequest',
    'google.protobuf.Empty',
    {
      decodeRequest: (json) => c.decodeTaskPushNotificationConfigRef(byConfigName(json), ''),
      encodeRequest: (r) => ({ name: pushConfigName(r.taskId, r.id) }),
      encodeResult: () => ({}),
      decodeResult: () => undefined,
    },
  ),
};

/** The 0.3 service table. */
export const v0_3GrpcService: GrpcServiceSpec = Object.freeze({
  version: '0.3',
  service: `${P}A2AService`,
  protoFile: 'a2a/v1/a2a.proto',
  methods: Object.values(rpcs),
});
