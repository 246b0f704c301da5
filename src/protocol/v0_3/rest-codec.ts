/**
 * The 0.3 REST codec: ProtoJSON of the 0.3 proto, package `a2a.v1` (A2A 0.3 §7; decision 0008).
 * No `kind`; Message parts are `content`; enums are proto names (`TASK_STATE_CANCELLED`), numbers
 * accepted on input; oneof wrappers use the fields' json_name: `SendMessageResponse` and
 * `StreamResponse` are `{task}` | `{message}` (field `msg`, json_name "message") | `{statusUpdate}`
 * | `{artifactUpdate}`. Push configs are `{name:"tasks/{id}/pushNotificationConfigs/{cid}",
 * pushNotificationConfig}` and their list is `{configs, nextPageToken}`.
 *
 * GetTask, CancelTask, subscribe and the push get/delete/list calls carry their ids in the URL path
 * (the proto's `name`/`parent` resource names); the REST binding hands those to the decoders as
 * plain route parameters (`{id}`, `{taskId, id}`, `{taskId, pageSize, pageToken}`), and the
 * encoders return the same form for a client to place in the URL.
 */
import type { WireCodec } from '../codec.js';
import { invalidParams } from '../errors.js';
import {
  optionalArray,
  optionalObject,
  optionalString,
  pointer,
  readObject,
  mapItems,
  requiredNonEmptyString,
  isSet,
  type JsonObject,
  quote,
} from '../decode-kit.js';
import type {
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  SendMessageResponse,
  StreamResponse,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from '../model.js';
import { REST_DIALECT as D } from './dialect.js';
import {
  decodeArtifactUpdate,
  decodeStatusUpdate,
  encodeArtifactUpdate,
  encodeStatusUpdate,
} from './events.js';
import { decodeGrpcAgentCard, encodeGrpcAgentCard } from './grpc-card.js';
import {
  decodeListTasksRequest,
  decodeListTasksResponse,
  encodeListTasksRequest,
  encodeListTasksResponse,
} from './list-tasks.js';
import { decodeArtifact, decodeMessage, encodeArtifact, encodeMessage } from './message.js';
import { decodePushConfig, encodePushConfig, innerConfigMember } from './push-config.js';
import { parsePushConfigName, pushConfigName } from './resource-names.js';
import { decodeSendRequest, encodeSendRequest } from './send-request.js';
import { decodeTask, encodeTask } from './task.js';
import { optionalWireInteger, readHistoryLength, readOneof } from './wire-scalars.js';

// ProtoJSON parsers accept a field's proto name as well as its json_name (`msg` for `message`).
const MSG_ALIAS = Object.freeze({ msg: 'message' });
// Proto names of the stream oneof, read too (decision 0136).
const STREAM_ALIASES = Object.freeze({
  msg: 'message',
  status_update: 'statusUpdate',
  artifact_update: 'artifactUpdate',
});

function encodeConfig(config: TaskPushNotificationConfig): JsonObject {
  const inner = encodePushConfig(config);
  // A config inside a send has no task yet (taskId ""), so it has no resource name either.
  return config.taskId === ''
    ? { pushNotificationConfig: inner }
    : { name: pushConfigName(config.taskId, config.id), pushNotificationConfig: inner };
}

/**
 * Decodes `{name, pushNotificationConfig}`. The task id comes from `taskId` when the binding adds
 * it from the URL path (the create body may lack `name`), else from `name`; the config id from the
 * inner `id`, else from `name`. A `name` that contradicts either is rejected.
 */
function decodeConfig(value: unknown, path: string): TaskPushNotificationConfig {
  const obj = readObject(value, path);
  if (isSet(obj.config) && !isSet(obj.pushNotificationConfig) && !isSet(obj.push_notification_config))
    return decodeCreateRequest(obj, path);
  return decodeNamedConfig(obj, path, optionalString(obj, 'taskId', path));
}

/** `{name, pushNotificationConfig}` of task `routeTaskId` (when known), as decodeConfig reads it. */
function decodeNamedConfig(
  obj: JsonObject,
  path: string,
  routeTaskId: string | undefined,
): TaskPushNotificationConfig {
  const nameAt = pointer(path, 'name');
  const name =
    obj.name === undefined || obj.name === null || obj.name === ''
      ? undefined
      : parsePushConfigName(obj.name, nameAt);
  if (routeTaskId !== undefined && name !== undefined && name.taskId !== routeTaskId) {
    throw invalidParams(nameAt, `names task ${quote(name.taskId)}, not ${quote(routeTaskId)}`);
  }
  const inner = innerConfigMember(obj, path);
  const config = decodePushConfig(D, inner.value, inner.at, routeTaskId ?? name?.taskId ?? '');
  if (name?.configId !== undefined) {
    if (config.id === undefined) config.id = name.configId;
    else if (config.id !== name.configId) {
      throw invalidParams(
        pointer(inner.at, 'id'),
        `does not match the config id in name (${quote(name.configId)})`,
      );
    }
  }
  return config;
}

/**
 * The full `CreateTaskPushNotificationConfigRequest {parent, configId, config}` as a create body
 * (what the 0.3 kit's REST client POSTs, decision 0143): `parent` must name the task of the path,
 * `configId` names the config when the config itself names none, and must agree when it does.
 */
function decodeCreateRequest(obj: JsonObject, path: string): TaskPushNotificationConfig {
  const routeTaskId = optionalString(obj, 'taskId', path);
  const parentAt = pointer(path, 'parent');
  const parent = optionalString(obj, 'parent', path);
  let taskId = routeTaskId;
  if (parent !== undefined && parent !== '') {
    const named = TASK_NAME.exec(parent)?.[1];
    if (named === undefined)
      throw invalidParams(parentAt, `expected a resource name "tasks/{id}", got ${quote(parent)}`);
    if (routeTaskId !== undefined && named !== routeTaskId)
      throw invalidParams(parentAt, `names task ${quote(named)}, not ${quote(routeTaskId)}`);
    taskId = named;
  }
  const inner = readObject(obj.config, pointer(path, 'config'));
  const config = decodeNamedConfig(inner, pointer(path, 'config'), taskId);
  const configId = optionalString(obj, 'configId', path, obj.config_id);
  if (configId !== undefined && configId !== '') {
    if (config.id === undefined) config.id = configId;
    else if (config.id !== configId) {
      const key = isSet(obj.config_id) ? 'config_id' : 'configId';
      throw invalidParams(pointer(path, key), `does not match the config's own id (${quote(config.id)})`);
    }
  }
  return config;
}

const TASK_NAME = /^tasks\/([^/]+)$/;

function readId(value: unknown, path: string, key: string): { obj: JsonObject; id: string } {
  const obj = readObject(value, path);
  return { obj, id: requiredNonEmptyString(obj, key, path) };
}

/** The 0.3 REST wire codec (dialect `0.3-rest`). */
export const v0_3RestCodec: WireCodec = Object.freeze<WireCodec>({
  dialect: '0.3-rest',
  version: '0.3',

  decodeSendMessageRequest: (value, path) => decodeSendRequest(D, value, path),
  encodeSendMessageRequest: (request) => encodeSendRequest(D, request),

  decodeGetTaskRequest(value, path) {
    const { obj, id } = readId(value, path, 'id');
    const request: GetTaskRequest = { id };
    const historyLength = readHistoryLength(obj, 'historyLength', path, true, obj.history_length);
    if (historyLength !== undefined) request.historyLength = historyLength;
    return request;
  },
  encodeGetTaskRequest(request) {
    const out: JsonObject = { id: request.id };
    if (request.historyLength !== undefined && request.historyLength > 0)
      out.historyLength = request.historyLength;
    return out;
  },

  decodeListTasksRequest: (value, path) => decodeListTasksRequest(D, value, path),
  encodeListTasksRequest: (request) => encodeListTasksRequest(D, request),

  decodeCancelTaskRequest(value, path) {
    const { obj, id } = readId(value, path, 'id');
    const metadata = optionalObject(obj, 'metadata', path);
    return metadata === undefined ? { id } : { id, metadata };
  },
  // The 0.3 proto CancelTaskRequest has only `name` (the path): canonical metadata has no place.
  encodeCancelTaskRequest: (request) => ({ id: request.id }),

  decodeSubscribeToTaskRequest: (value, path) => ({ id: readId(value, path, 'id').id }),
  encodeSubscribeToTaskRequest: (request) => ({ id: request.id }),

  decodeTaskPushNotificationConfig: decodeConfig,
  encodeTaskPushNotificationConfig: encodeConfig,

  decodeTaskPushNotificationConfigRef(value, path) {
    const { obj, id } = readId(value, path, 'taskId');
    const ref: TaskPushNotificationConfigRef = { taskId: id };
    const configId = optionalString(obj, 'id', path);
    if (configId !== undefined) ref.id = configId;
    return ref;
  },
  encodeTaskPushNotificationConfigRef: (ref) =>
    ref.id === undefined ? { taskId: ref.taskId } : { taskId: ref.taskId, id: ref.id },

  decodeListTaskPushNotificationConfigsRequest(value, path) {
    const { obj, id } = readId(value, path, 'taskId');
    const request: ListTaskPushNotificationConfigsRequest = { taskId: id };
    const pageSize = optionalWireInteger(obj, 'pageSize', path, true, 0, obj.page_size);
    if (pageSize !== undefined && pageSize > 0) request.pageSize = pageSize;
    const pageToken = optionalString(obj, 'pageToken', path, obj.page_token);
    if (pageToken !== undefined && pageToken !== '') request.pageToken = pageToken;
    return request;
  },
  encodeListTaskPushNotificationConfigsRequest(request) {
    const out: JsonObject = { taskId: request.taskId };
    if (request.pageSize !== undefined) out.pageSize = request.pageSize;
    if (request.pageToken !== undefined) out.pageToken = request.pageToken;
    return out;
  },

  encodeTask: (task) => encodeTask(D, task),
  encodeArtifact: (artifact) => encodeArtifact(D, artifact),
  encodePart: (part) => D.encodePart(part),
  decodePart: (value, path) => D.decodePart(value, path),
  decodeArtifact: (value, path) => decodeArtifact(D, value, path),
  decodeTask: (value, path) => decodeTask(D, value, path),
  encodeMessage: (message) => encodeMessage(D, message),
  decodeMessage: (value, path) => decodeMessage(D, value, path),

  encodeSendMessageResponse: (response) =>
    'task' in response
      ? { task: encodeTask(D, response.task) }
      : { message: encodeMessage(D, response.message) },
  decodeSendMessageResponse(value, path): SendMessageResponse {
    const obj = readObject(value, path);
    const { key, member } = readOneof(obj, path, ['task', 'message'], MSG_ALIAS);
    const at = pointer(path, key);
    return member === 'task'
      ? { task: decodeTask(D, obj[key], at) }
      : { message: decodeMessage(D, obj[key], at) };
  },

  encodeStreamResponse(event) {
    if ('task' in event) return { task: encodeTask(D, event.task) };
    if ('message' in event) return { message: encodeMessage(D, event.message) };
    if ('statusUpdate' in event) return { statusUpdate: encodeStatusUpdate(D, event.statusUpdate) };
    return { artifactUpdate: encodeArtifactUpdate(D, event.artifactUpdate) };
  },
  decodeStreamResponse(value, path): StreamResponse {
    const obj = readObject(value, path);
    const keys = ['task', 'message', 'statusUpdate', 'artifactUpdate'];
    const { key, member } = readOneof(obj, path, keys, STREAM_ALIASES);
    const at = pointer(path, key);
    if (member === 'task') return { task: decodeTask(D, obj[key], at) };
    if (member === 'message') return { message: decodeMessage(D, obj[key], at) };
    if (member === 'statusUpdate') return { statusUpdate: decodeStatusUpdate(D, obj[key], at) };
    return { artifactUpdate: decodeArtifactUpdate(D, obj[key], at) };
  },

  encodeListTasksResponse: (response) => encodeListTasksResponse(D, response),
  decodeListTasksResponse: (value, path) => decodeListTasksResponse(D, value, path),

  encodeListTaskPushNotificationConfigsResponse(response) {
    const out: JsonObject = { configs: response.configs.map(encodeConfig) };
    if (response.nextPageToken !== undefined) out.nextPageToken = response.nextPageToken;
    return out;
  },
  decodeListTaskPushNotificationConfigsResponse(value, path): ListTaskPushNotificationConfigsResponse {
    // The 0.3 prose shows a bare array; the proto (and this codec's output) wraps it (A2A 0.3 §7).
    if (Array.isArray(value)) return { configs: mapItems(value, path, decodeConfig) };
    const obj = readObject(value, path);
    const response: ListTaskPushNotificationConfigsResponse = {
      configs: optionalArray(obj, 'configs', path, decodeConfig) ?? [],
    };
    const token = optionalString(obj, 'nextPageToken', path, obj.next_page_token);
    if (token !== undefined) response.nextPageToken = token;
    return response;
  },

  // GET /v1/card answers the proto's AgentCard (`GetAgentCard` is annotated with that path), whose
  // security schemes are the `SecurityScheme` oneof: both SDK lines' 0.3 REST clients read it so.
  // The reader also takes the 0.3 JSON card's `{type:"http"}` schemes Concord served before
  // (decision 0143).
  encodeAgentCard: encodeGrpcAgentCard,
  decodeAgentCard: decodeGrpcAgentCard,
});
