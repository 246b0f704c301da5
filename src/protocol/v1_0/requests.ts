/**
 * Task request parameters on the 1.0 wire: SendMessage (and SendStreamingMessage), GetTask,
 * ListTasks, CancelTask and SubscribeToTask (A2A 1.0 §3.1, §3.2).
 */
import {
  readEnum,
  readObject,
  readTimestamp,
  requiredNonEmptyString,
  altKey,
  type JsonObject,
} from '../decode-kit.js';
import type {
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  SendMessageConfiguration,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskState,
} from '../model.js';
import { TASK_STATE_NAMES, TASK_STATE_NUMBERS, TASK_STATE_UNSPECIFIED } from './enums.js';
import { decodeMessage, encodeMessage } from './parts-and-messages.js';
import { decodeTaskPushNotificationConfig, encodeTaskPushNotificationConfig } from './push-config.js';
import {
  booleanValue,
  INT32_MAX,
  integerValue,
  isSet,
  objectValue,
  protoStringValue,
  requiredValue,
  stringListValue,
} from './proto-json.js';

function decodeSendMessageConfiguration(value: unknown, path: string): SendMessageConfiguration {
  const obj = readObject(value, path);
  const configuration: SendMessageConfiguration = {};
  const modes = stringListValue(
    obj.acceptedOutputModes,
    path,
    'acceptedOutputModes',
    obj.accepted_output_modes,
  );
  if (modes !== undefined) configuration.acceptedOutputModes = modes;
  const push = isSet(obj.task_push_notification_config)
    ? altKey(obj, 'taskPushNotificationConfig', path)
    : 'taskPushNotificationConfig';
  if (isSet(obj[push])) {
    configuration.taskPushNotificationConfig = decodeTaskPushNotificationConfig(obj[push], `${path}/${push}`);
  }
  // `optional int32`: presence matters, and 0 means "no history" (A2A 1.0 §3.2.4).
  const historyLength = historyLengthOf(obj, path);
  if (historyLength !== undefined) configuration.historyLength = historyLength;
  const returnImmediately = booleanValue(
    obj.returnImmediately,
    path,
    'returnImmediately',
    obj.return_immediately,
  );
  if (returnImmediately !== undefined) configuration.returnImmediately = returnImmediately;
  return configuration;
}

function encodeSendMessageConfiguration(configuration: SendMessageConfiguration): JsonObject {
  const out: JsonObject = {};
  if (configuration.acceptedOutputModes !== undefined) {
    out.acceptedOutputModes = configuration.acceptedOutputModes;
  }
  if (configuration.taskPushNotificationConfig !== undefined) {
    out.taskPushNotificationConfig = encodeTaskPushNotificationConfig(
      configuration.taskPushNotificationConfig,
    );
  }
  if (configuration.historyLength !== undefined) out.historyLength = configuration.historyLength;
  if (configuration.returnImmediately !== undefined) out.returnImmediately = configuration.returnImmediately;
  return out;
}

/** Decodes SendMessageRequest: `message` is REQUIRED. */
export function decodeSendMessageRequest(value: unknown, path: string): SendMessageRequest {
  const obj = readObject(value, path);
  const request: SendMessageRequest = {
    message: decodeMessage(requiredValue(obj.message, path, 'message'), `${path}/message`),
  };
  const tenant = protoStringValue(obj.tenant, path, 'tenant');
  if (tenant !== undefined) request.tenant = tenant;
  if (isSet(obj.configuration)) {
    request.configuration = decodeSendMessageConfiguration(obj.configuration, `${path}/configuration`);
  }
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) request.metadata = metadata;
  return request;
}

/** Encodes SendMessageRequest. */
export function encodeSendMessageRequest(request: SendMessageRequest): JsonObject {
  const out: JsonObject = {};
  if (request.tenant) out.tenant = request.tenant;
  out.message = encodeMessage(request.message);
  if (request.configuration !== undefined) {
    out.configuration = encodeSendMessageConfiguration(request.configuration);
  }
  if (request.metadata !== undefined) out.metadata = request.metadata;
  return out;
}

/** Decodes GetTaskRequest: `id` is REQUIRED, `historyLength` is a non-negative `optional int32`. */
export function decodeGetTaskRequest(value: unknown, path: string): GetTaskRequest {
  const obj = readObject(value, path);
  const request: GetTaskRequest = { id: requiredNonEmptyString(obj, 'id', path) };
  const tenant = protoStringValue(obj.tenant, path, 'tenant');
  if (tenant !== undefined) request.tenant = tenant;
  const historyLength = historyLengthOf(obj, path);
  if (historyLength !== undefined) request.historyLength = historyLength;
  return request;
}

/** Encodes GetTaskRequest. */
export function encodeGetTaskRequest(request: GetTaskRequest): JsonObject {
  const out: JsonObject = {};
  if (request.tenant) out.tenant = request.tenant;
  out.id = request.id;
  if (request.historyLength !== undefined) out.historyLength = request.historyLength;
  return out;
}

/**
 * Reads the ListTasks `status` filter. The field is a plain enum (no `optional`), so its zero value
 * `TASK_STATE_UNSPECIFIED` is the proto3 default, i.e. "no filter": it decodes as absent. This is
 * the one place UNSPECIFIED is accepted; a task's own state never may be unspecified.
 */
function decodeStatusFilter(value: unknown, path: string): TaskState | undefined {
  if (value === TASK_STATE_UNSPECIFIED || value === 0) return undefined;
  return readEnum(value, path, TASK_STATE_NAMES, TASK_STATE_NUMBERS);
}

/** Decodes ListTasksRequest; `pageSize` must be 1..100 when present (A2A 1.0 §3.1.4). */
export function decodeListTasksRequest(value: unknown, path: string): ListTasksRequest {
  const obj = readObject(value, path);
  const request: ListTasksRequest = {};
  const tenant = protoStringValue(obj.tenant, path, 'tenant');
  if (tenant !== undefined) request.tenant = tenant;
  const contextId = protoStringValue(obj.contextId, path, 'contextId', obj.context_id);
  if (contextId !== undefined) request.contextId = contextId;
  if (isSet(obj.status)) {
    const status = decodeStatusFilter(obj.status, `${path}/status`);
    if (status !== undefined) request.status = status;
  }
  const pageSize = integerValue(obj.pageSize, path, 'pageSize', 1, 100, obj.page_size);
  if (pageSize !== undefined) request.pageSize = pageSize;
  const pageToken = protoStringValue(obj.pageToken, path, 'pageToken', obj.page_token);
  if (pageToken !== undefined) request.pageToken = pageToken;
  const historyLength = historyLengthOf(obj, path);
  if (historyLength !== undefined) request.historyLength = historyLength;
  const after = isSet(obj.status_timestamp_after)
    ? altKey(obj, 'statusTimestampAfter', path)
    : 'statusTimestampAfter';
  if (isSet(obj[after])) request.statusTimestampAfter = readTimestamp(obj[after], `${path}/${after}`);
  const includeArtifacts = booleanValue(
    obj.includeArtifacts,
    path,
    'includeArtifacts',
    obj.include_artifacts,
  );
  if (includeArtifacts !== undefined) request.includeArtifacts = includeArtifacts;
  return request;
}

/** Encodes ListTasksRequest. */
export function encodeListTasksRequest(request: ListTasksRequest): JsonObject {
  const out: JsonObject = {};
  if (request.tenant) out.tenant = request.tenant;
  if (request.contextId) out.contextId = request.contextId;
  if (request.status !== undefined) out.status = request.status;
  if (request.pageSize !== undefined) out.pageSize = request.pageSize;
  if (request.pageToken) out.pageToken = request.pageToken;
  if (request.historyLength !== undefined) out.historyLength = request.historyLength;
  if (request.statusTimestampAfter !== undefined) out.statusTimestampAfter = request.statusTimestampAfter;
  if (request.includeArtifacts !== undefined) out.includeArtifacts = request.includeArtifacts;
  return out;
}

/** Decodes CancelTaskRequest: `id` is REQUIRED. */
export function decodeCancelTaskRequest(value: unknown, path: string): CancelTaskRequest {
  const obj = readObject(value, path);
  const request: CancelTaskRequest = { id: requiredNonEmptyString(obj, 'id', path) };
  const tenant = protoStringValue(obj.tenant, path, 'tenant');
  if (tenant !== undefined) request.tenant = tenant;
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) request.metadata = metadata;
  return request;
}

/** Encodes CancelTaskRequest. */
export function encodeCancelTaskRequest(request: CancelTaskRequest): JsonObject {
  const out: JsonObject = {};
  if (request.tenant) out.tenant = request.tenant;
  out.id = request.id;
  if (request.metadata !== undefined) out.metadata = request.metadata;
  return out;
}

/** Decodes SubscribeToTaskRequest: `id` is REQUIRED. */
export function decodeSubscribeToTaskRequest(value: unknown, path: string): SubscribeToTaskRequest {
  const obj = readObject(value, path);
  const request: SubscribeToTaskRequest = { id: requiredNonEmptyString(obj, 'id', path) };
  const tenant = protoStringValue(obj.tenant, path, 'tenant');
  if (tenant !== undefined) request.tenant = tenant;
  return request;
}

/** Encodes SubscribeToTaskRequest. */
export function encodeSubscribeToTaskRequest(request: SubscribeToTaskRequest): JsonObject {
  const out: JsonObject = {};
  if (request.tenant) out.tenant = request.tenant;
  out.id = request.id;
  return out;
}

/** The `optional int32 history_length` of a request, under either spelling (0 means none, §3.2.4). */
function historyLengthOf(obj: JsonObject, path: string): number | undefined {
  return integerValue(obj.historyLength, path, 'historyLength', 0, INT32_MAX, obj.history_length);
}
