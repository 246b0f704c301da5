/**
 * Push-notification objects on the 1.0 wire: the flat `TaskPushNotificationConfig` (A2A 1.0 §4.3,
 * §12.12), the get/delete reference and the list request.
 */
import { optionalInteger, readObject, requiredNonEmptyString, type JsonObject } from '../decode-kit.js';
import type {
  AuthenticationInfo,
  ListTaskPushNotificationConfigsRequest,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from '../model.js';
import { INT32_MAX, isSet, optionalProtoString } from './proto-json.js';

function decodeAuthenticationInfo(value: unknown, path: string): AuthenticationInfo {
  const obj = readObject(value, path);
  const info: AuthenticationInfo = { scheme: requiredNonEmptyString(obj, 'scheme', path) };
  const credentials = optionalProtoString(obj, 'credentials', path);
  if (credentials !== undefined) info.credentials = credentials;
  return info;
}

/**
 * Decodes a TaskPushNotificationConfig. `taskId` is not REQUIRED in the proto and SHOULD be empty
 * when the config is nested in a send's configuration (proto comment on
 * `SendMessageConfiguration`), so a missing `taskId` decodes as `""`; the server fills it in from
 * the path or the created task. `url` is REQUIRED.
 */
export function decodeTaskPushNotificationConfig(value: unknown, path: string): TaskPushNotificationConfig {
  const obj = readObject(value, path);
  const config: TaskPushNotificationConfig = {
    taskId: optionalProtoString(obj, 'taskId', path, obj.task_id) ?? '',
    url: requiredNonEmptyString(obj, 'url', path),
  };
  const tenant = optionalProtoString(obj, 'tenant', path);
  if (tenant !== undefined) config.tenant = tenant;
  const id = optionalProtoString(obj, 'id', path);
  if (id !== undefined) config.id = id;
  const token = optionalProtoString(obj, 'token', path);
  if (token !== undefined) config.token = token;
  if (isSet(obj.authentication)) {
    config.authentication = decodeAuthenticationInfo(obj.authentication, `${path}/authentication`);
  }
  return config;
}

/** Encodes a TaskPushNotificationConfig; an empty `taskId` is omitted (proto3 default). */
export function encodeTaskPushNotificationConfig(config: TaskPushNotificationConfig): JsonObject {
  const out: JsonObject = {};
  if (config.tenant) out.tenant = config.tenant;
  if (config.id) out.id = config.id;
  if (config.taskId) out.taskId = config.taskId;
  out.url = config.url;
  if (config.token) out.token = config.token;
  const auth = config.authentication;
  if (auth !== undefined) {
    const encoded: JsonObject = { scheme: auth.scheme };
    if (auth.credentials) encoded.credentials = auth.credentials;
    out.authentication = encoded;
  }
  return out;
}

/** Decodes Get/DeleteTaskPushNotificationConfigRequest: `taskId` and `id` are REQUIRED in 1.0. */
export function decodeTaskPushNotificationConfigRef(
  value: unknown,
  path: string,
): TaskPushNotificationConfigRef {
  const obj = readObject(value, path);
  const ref: TaskPushNotificationConfigRef = {
    taskId: requiredNonEmptyString(obj, 'taskId', path, obj.task_id),
    id: requiredNonEmptyString(obj, 'id', path),
  };
  const tenant = optionalProtoString(obj, 'tenant', path);
  if (tenant !== undefined) ref.tenant = tenant;
  return ref;
}

/** Encodes a Get/DeleteTaskPushNotificationConfigRequest. */
export function encodeTaskPushNotificationConfigRef(ref: TaskPushNotificationConfigRef): JsonObject {
  const out: JsonObject = {};
  if (ref.tenant) out.tenant = ref.tenant;
  out.taskId = ref.taskId;
  if (ref.id !== undefined) out.id = ref.id;
  return out;
}

/**
 * Decodes ListTaskPushNotificationConfigsRequest. `pageSize` is a plain `int32` here (no
 * `optional`), so 0 is its default and means "server's choice": it decodes as absent.
 */
export function decodeListTaskPushNotificationConfigsRequest(
  value: unknown,
  path: string,
): ListTaskPushNotificationConfigsRequest {
  const obj = readObject(value, path);
  const request: ListTaskPushNotificationConfigsRequest = {
    taskId: requiredNonEmptyString(obj, 'taskId', path, obj.task_id),
  };
  const tenant = optionalProtoString(obj, 'tenant', path);
  if (tenant !== undefined) request.tenant = tenant;
  const pageSize = optionalInteger(obj, 'pageSize', path, 0, INT32_MAX, obj.page_size);
  if (pageSize !== undefined && pageSize !== 0) request.pageSize = pageSize;
  const pageToken = optionalProtoString(obj, 'pageToken', path, obj.page_token);
  if (pageToken !== undefined) request.pageToken = pageToken;
  return request;
}

/** Encodes a ListTaskPushNotificationConfigsRequest. */
export function encodeListTaskPushNotificationConfigsRequest(
  request: ListTaskPushNotificationConfigsRequest,
): JsonObject {
  const out: JsonObject = {};
  if (request.tenant) out.tenant = request.tenant;
  out.taskId = request.taskId;
  if (request.pageSize) out.pageSize = request.pageSize;
  if (request.pageToken) out.pageToken = request.pageToken;
  return out;
}
