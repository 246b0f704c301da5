/**
 * The 0.3 JSON-RPC codec: `types.ts` shapes of A2A v0.3.0 (A2A 0.3 §6, §7). Objects carry `kind`,
 * enums are lowercase strings, results are bare (`message/send` returns the Task or Message itself,
 * A2A 0.3 §7.1), parameters name the task `id` (TaskIdParams, TaskQueryParams) and push configs are
 * wrapped as `{taskId, pushNotificationConfig}`. There is no tenant in 0.3; canonical tenants are
 * dropped on encode.
 */
import type { WireCodec } from '../codec.js';
import { invalidParams } from '../errors.js';
import {
  isSet,
  optionalObject,
  optionalString,
  pointer,
  readObject,
  mapItems,
  requiredNonEmptyString,
  type JsonObject,
  quote,
} from '../decode-kit.js';
import type {
  GetTaskRequest,
  ListTaskPushNotificationConfigsResponse,
  StreamResponse,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from '../model.js';
import { decodeAgentCard, encodeAgentCard } from './agent-card.js';
import { JSONRPC_DIALECT as D } from './dialect.js';
import {
  decodeArtifactUpdate,
  decodeStatusUpdate,
  encodeArtifactUpdate,
  encodeStatusUpdate,
} from './events.js';
import {
  decodeListTasksRequest,
  decodeListTasksResponse,
  encodeListTasksRequest,
  encodeListTasksResponse,
} from './list-tasks.js';
import { decodeArtifact, decodeMessage, encodeArtifact, encodeMessage } from './message.js';
import { decodePushConfig, encodePushConfig, innerConfigMember } from './push-config.js';
import { decodeSendRequest, encodeSendRequest } from './send-request.js';
import { decodeTask, encodeTask } from './task.js';
import { readHistoryLength, readKind } from './wire-scalars.js';

function encodeConfig(config: TaskPushNotificationConfig): JsonObject {
  return { taskId: config.taskId, pushNotificationConfig: encodePushConfig(config) };
}

/** Decodes the 0.3 `TaskPushNotificationConfig {taskId, pushNotificationConfig}`. */
function decodeConfig(value: unknown, path: string): TaskPushNotificationConfig {
  const obj = readObject(value, path);
  const taskId = requiredNonEmptyString(obj, 'taskId', path, obj.task_id);
  const inner = innerConfigMember(obj, path);
  return decodePushConfig(D, inner.value, inner.at, taskId);
}

/** Reads TaskIdParams `{id, metadata?}`. */
function readTaskId(value: unknown, path: string): { obj: JsonObject; id: string } {
  const obj = readObject(value, path);
  return { obj, id: requiredNonEmptyString(obj, 'id', path) };
}

const TASK_NAME = /^tasks\/([^/]+)$/;

/** The task id a `name: "tasks/{id}"` member holds, or undefined when it holds none. */
function taskIdOfName(name: unknown): string | undefined {
  return typeof name === 'string' ? TASK_NAME.exec(name)?.[1] : undefined;
}

/**
 * Reads the task of `tasks/get`, `tasks/cancel` and `tasks/resubscribe`: `id` as `types.ts` has it,
 * or `taskId` / `name: "tasks/{id}"` as versions of the 0.3 kit's client send it (decision 0143).
 * Two that disagree are refused at the second's pointer. A `name` that is no task resource name is
 * an unknown member beside an id, and the error when it is all there is.
 */
function readTaskRef(value: unknown, path: string): { obj: JsonObject; id: string } {
  const obj = readObject(value, path);
  let id = optionalString(obj, 'id', path);
  // The common case, `{id}` alone, costs two member loads more than before.
  if (obj.taskId !== undefined || obj.name !== undefined) {
    let from = 'id';
    const alias = optionalString(obj, 'taskId', path);
    if (alias !== undefined && alias !== '') {
      if (id === undefined || id === '') [id, from] = [alias, 'taskId'];
      else if (alias !== id) throw disagree(path, 'taskId', alias, from, id);
    }
    const named = taskIdOfName(obj.name);
    if (named !== undefined) {
      if (id === undefined || id === '') id = named;
      else if (named !== id) throw disagree(path, 'name', named, from, id);
    } else if ((id === undefined || id === '') && isSet(obj.name) && obj.name !== '') {
      const got = JSON.stringify(obj.name);
      throw invalidParams(pointer(path, 'name'), `expected a resource name "tasks/{id}", got ${got}`);
    }
  }
  if (id === undefined) throw invalidParams(pointer(path, 'id'), 'is required');
  if (id === '') throw invalidParams(pointer(path, 'id'), 'must not be empty');
  return { obj, id };
}

function disagree(path: string, key: string, value: string, from: string, id: string): Error {
  return invalidParams(pointer(path, key), `names task ${quote(value)}, but ${from} names ${quote(id)}`);
}

/** The 0.3 JSON-RPC wire codec (dialect `0.3-jsonrpc`). */
export const v0_3JsonRpcCodec: WireCodec = Object.freeze<WireCodec>({
  dialect: '0.3-jsonrpc',
  version: '0.3',

  decodeSendMessageRequest: (value, path) => decodeSendRequest(D, value, path),
  encodeSendMessageRequest: (request) => encodeSendRequest(D, request),

  decodeGetTaskRequest(value, path) {
    // TaskQueryParams `{id, historyLength?, metadata?}`; the canonical request has no metadata.
    const { obj, id } = readTaskRef(value, path);
    const request: GetTaskRequest = { id };
    const historyLength = readHistoryLength(obj, 'historyLength', path, false, obj.history_length);
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
    const { obj, id } = readTaskRef(value, path);
    const metadata = optionalObject(obj, 'metadata', path);
    return metadata === undefined ? { id } : { id, metadata };
  },
  encodeCancelTaskRequest: (request) =>
    request.metadata === undefined ? { id: request.id } : { id: request.id, metadata: request.metadata },

  decodeSubscribeToTaskRequest: (value, path) => ({ id: readTaskRef(value, path).id }),
  encodeSubscribeToTaskRequest: (request) => ({ id: request.id }),

  decodeTaskPushNotificationConfig: decodeConfig,
  encodeTaskPushNotificationConfig: encodeConfig,

  decodeTaskPushNotificationConfigRef(value, path) {
    // Get/delete params `{id (task), pushNotificationConfigId?}`; delete's handler must require the id.
    const { obj, id } = readTaskId(value, path);
    const ref: TaskPushNotificationConfigRef = { taskId: id };
    const configId = optionalString(obj, 'pushNotificationConfigId', path, obj.push_notification_config_id);
    if (configId !== undefined) ref.id = configId;
    return ref;
  },
  encodeTaskPushNotificationConfigRef: (ref) =>
    ref.id === undefined ? { id: ref.taskId } : { id: ref.taskId, pushNotificationConfigId: ref.id },

  // ListTaskPushNotificationConfigParams `{id}`: 0.3 has no paging.
  decodeListTaskPushNotificationConfigsRequest: (value, path) => ({ taskId: readTaskId(value, path).id }),
  encodeListTaskPushNotificationConfigsRequest: (request) => ({ id: request.taskId }),

  encodeTask: (task) => encodeTask(D, task),
  encodeArtifact: (artifact) => encodeArtifact(D, artifact),
  encodePart: (part) => D.encodePart(part),
  decodePart: (value, path) => D.decodePart(value, path),
  decodeArtifact: (value, path) => decodeArtifact(D, value, path),
  decodeTask: (value, path) => decodeTask(D, value, path),
  encodeMessage: (message) => encodeMessage(D, message),
  decodeMessage: (value, path) => decodeMessage(D, value, path),

  // `message/send` returns the bare Task or Message; `kind` tells them apart.
  encodeSendMessageResponse: (response) =>
    'task' in response ? encodeTask(D, response.task) : encodeMessage(D, response.message),
  decodeSendMessageResponse(value, path) {
    const kind = readKind(readObject(value, path), path, ['task', 'message']);
    return kind === 'task'
      ? { task: decodeTask(D, value, path) }
      : { message: decodeMessage(D, value, path) };
  },

  encodeStreamResponse(event) {
    if ('task' in event) return encodeTask(D, event.task);
    if ('message' in event) return encodeMessage(D, event.message);
    if ('statusUpdate' in event) return encodeStatusUpdate(D, event.statusUpdate);
    return encodeArtifactUpdate(D, event.artifactUpdate);
  },
  decodeStreamResponse(value, path): StreamResponse {
    const obj = readObject(value, path);
    const kind = readKind(obj, path, ['task', 'message', 'status-update', 'artifact-update']);
    if (kind === 'task') return { task: decodeTask(D, obj, path) };
    if (kind === 'message') return { message: decodeMessage(D, obj, path) };
    if (kind === 'status-update') return { statusUpdate: decodeStatusUpdate(D, obj, path) };
    return { artifactUpdate: decodeArtifactUpdate(D, obj, path) };
  },

  encodeListTasksResponse: (response) => encodeListTasksResponse(D, response),
  decodeListTasksResponse: (value, path) => decodeListTasksResponse(D, value, path),

  // `tasks/pushNotificationConfig/list` returns a bare TaskPushNotificationConfig[] (A2A 0.3 §7.7).
  encodeListTaskPushNotificationConfigsResponse: (response) => response.configs.map(encodeConfig),
  decodeListTaskPushNotificationConfigsResponse(value, path): ListTaskPushNotificationConfigsResponse {
    if (!Array.isArray(value)) throw invalidParams(path, 'expected an array of TaskPushNotificationConfig');
    return { configs: mapItems(value, path, decodeConfig) };
  },

  encodeAgentCard,
  decodeAgentCard,
});
