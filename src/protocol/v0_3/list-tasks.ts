/**
 * ListTasks on the 0.3 wires. 0.3 has it only in prose (`GET /v1/tasks`, A2A 0.3 §7,
 * `tasks/list`): no JSON-RPC method and no proto message. Both codecs still carry it, with the 1.0 members
 * in the dialect's spellings (lowercase states on JSON-RPC, proto names on REST), so the REST
 * binding can serve the route. The spec shows the result as a bare `Task[]`; decoders accept that
 * too, while encoders write the 1.0-shaped object, which says more (the page token).
 */
import {
  optionalArray,
  optionalBoolean,
  optionalString,
  pointer,
  readObject,
  readTimestamp,
  mapItems,
  altKey,
  isSet,
  type JsonObject,
} from '../decode-kit.js';
import type { ListTasksRequest, ListTasksResponse, Task } from '../model.js';
import { optionalText, readState, type Dialect } from './dialect.js';
import { decodeTask, encodeTask } from './task.js';
import { optionalWireInteger, readHistoryLength } from './wire-scalars.js';

/** Encodes ListTasks parameters; a canonical `historyLength` of 0 has no 0.3 spelling and is left out. */
export function encodeListTasksRequest(d: Dialect, request: ListTasksRequest): JsonObject {
  const out: JsonObject = {};
  if (request.contextId !== undefined) out.contextId = request.contextId;
  if (request.status !== undefined) out.status = d.stateOf[request.status] ?? request.status;
  if (request.pageSize !== undefined) out.pageSize = request.pageSize;
  if (request.pageToken !== undefined) out.pageToken = request.pageToken;
  if (request.historyLength !== undefined && request.historyLength > 0)
    out.historyLength = request.historyLength;
  if (request.statusTimestampAfter !== undefined) out.statusTimestampAfter = request.statusTimestampAfter;
  if (request.includeArtifacts !== undefined) out.includeArtifacts = request.includeArtifacts;
  return out;
}

/** Decodes ListTasks parameters. */
export function decodeListTasksRequest(d: Dialect, value: unknown, path: string): ListTasksRequest {
  const obj = readObject(value, path);
  const request: ListTasksRequest = {};
  const contextId = optionalText(d, obj, 'contextId', path, obj.context_id);
  if (contextId !== undefined) request.contextId = contextId;
  if (obj.status !== undefined && obj.status !== null) {
    request.status = readState(d, obj.status, pointer(path, 'status'));
  }
  const pageSize = optionalWireInteger(obj, 'pageSize', path, d.proto, 0, obj.page_size);
  if (pageSize !== undefined) request.pageSize = pageSize;
  const pageToken = optionalText(d, obj, 'pageToken', path, obj.page_token);
  if (pageToken !== undefined) request.pageToken = pageToken;
  const historyLength = readHistoryLength(obj, 'historyLength', path, d.proto, obj.history_length);
  if (historyLength !== undefined) request.historyLength = historyLength;
  const after = isSet(obj.status_timestamp_after)
    ? altKey(obj, 'statusTimestampAfter', path)
    : 'statusTimestampAfter';
  if (obj[after] !== undefined && obj[after] !== null) {
    request.statusTimestampAfter = readTimestamp(obj[after], pointer(path, after));
  }
  const includeArtifacts = optionalBoolean(obj, 'includeArtifacts', path, obj.include_artifacts);
  if (includeArtifacts !== undefined) request.includeArtifacts = includeArtifacts;
  return request;
}

/** Encodes a ListTasks result; every member is always written (A2A 1.0 §3.1.4). */
export function encodeListTasksResponse(d: Dialect, response: ListTasksResponse): JsonObject {
  const tasks = new Array<JsonObject>(response.tasks.length);
  for (let i = 0; i < tasks.length; i++) tasks[i] = encodeTask(d, response.tasks[i] as Task);
  return {
    tasks,
    nextPageToken: response.nextPageToken,
    pageSize: response.pageSize,
    totalSize: response.totalSize,
  };
}

/** Decodes a ListTasks result: the object form, or the bare task array the 0.3 prose shows. */
export function decodeListTasksResponse(d: Dialect, value: unknown, path: string): ListTasksResponse {
  const item = (v: unknown, p: string): Task => decodeTask(d, v, p);
  if (Array.isArray(value)) {
    const tasks = mapItems(value, path, item);
    return { tasks, nextPageToken: '', pageSize: tasks.length, totalSize: tasks.length };
  }
  const obj = readObject(value, path);
  // ProtoJSON omits default values, so absent members read as their defaults.
  return {
    tasks: optionalArray(obj, 'tasks', path, item) ?? [],
    nextPageToken: optionalString(obj, 'nextPageToken', path, obj.next_page_token) ?? '',
    pageSize: optionalWireInteger(obj, 'pageSize', path, d.proto, 0, obj.page_size) ?? 0,
    totalSize: optionalWireInteger(obj, 'totalSize', path, d.proto, 0, obj.total_size) ?? 0,
  };
}
