/**
 * Result wrappers on the 1.0 wire: the `SendMessageResponse` and `StreamResponse` oneofs (member
 * name as discriminator, no `kind`; A2A 1.0 §3.2.3, Appendix A.2.1) and the two list responses.
 */
import {
  optionalArray,
  optionalInteger,
  optionalString,
  readObject,
  type JsonObject,
} from '../decode-kit.js';
import type {
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  SendMessageResponse,
  StreamResponse,
} from '../model.js';
import { decodeMessage, encodeMessage } from './parts-and-messages.js';
import { decodeTaskPushNotificationConfig, encodeTaskPushNotificationConfig } from './push-config.js';
import { INT32_MAX, readOneofMember } from './proto-json.js';
import {
  decodeTaskArtifactUpdateEvent,
  decodeTaskStatusUpdateEvent,
  encodeTaskArtifactUpdateEvent,
  encodeTaskStatusUpdateEvent,
} from './stream-events.js';
import { decodeTask, encodeTask } from './task.js';

const SEND_PAYLOAD = ['task', 'message'] as const;
const STREAM_PAYLOAD = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** Decodes SendMessageResponse: exactly one of `task` or `message`. */
export function decodeSendMessageResponse(value: unknown, path: string): SendMessageResponse {
  const obj = readObject(value, path);
  const { key, member } = readOneofMember(obj, path, SEND_PAYLOAD);
  const at = `${path}/${member}`;
  return key === 'task' ? { task: decodeTask(obj.task, at) } : { message: decodeMessage(obj.message, at) };
}

/** Encodes SendMessageResponse as the `{task}` / `{message}` wrapper (A2A 1.0 §3.1.1). */
export function encodeSendMessageResponse(response: SendMessageResponse): JsonObject {
  return 'task' in response
    ? { task: encodeTask(response.task) }
    : { message: encodeMessage(response.message) };
}

/** Decodes StreamResponse: exactly one of `task`, `message`, `statusUpdate`, `artifactUpdate`. */
export function decodeStreamResponse(value: unknown, path: string): StreamResponse {
  const obj = readObject(value, path);
  const { key, member } = readOneofMember(obj, path, STREAM_PAYLOAD);
  const at = `${path}/${member}`;
  switch (key) {
    case 'task':
      return { task: decodeTask(obj.task, at) };
    case 'message':
      return { message: decodeMessage(obj.message, at) };
    case 'statusUpdate':
      return { statusUpdate: decodeTaskStatusUpdateEvent(obj[member], at) };
    case 'artifactUpdate':
      return { artifactUpdate: decodeTaskArtifactUpdateEvent(obj[member], at) };
  }
}

/** Encodes StreamResponse; status updates come first as they are the most frequent event. */
export function encodeStreamResponse(event: StreamResponse): JsonObject {
  if ('statusUpdate' in event) return { statusUpdate: encodeTaskStatusUpdateEvent(event.statusUpdate) };
  if ('artifactUpdate' in event)
    return { artifactUpdate: encodeTaskArtifactUpdateEvent(event.artifactUpdate) };
  if ('task' in event) return { task: encodeTask(event.task) };
  return { message: encodeMessage(event.message) };
}

/**
 * Decodes ListTasksResponse. Its four fields are REQUIRED, but a plain ProtoJSON encoder omits
 * default values (`[]`, `""`, `0`), so absence reads as that default rather than failing a peer.
 */
export function decodeListTasksResponse(value: unknown, path: string): ListTasksResponse {
  const obj = readObject(value, path);
  return {
    tasks: optionalArray(obj, 'tasks', path, decodeTask) ?? [],
    nextPageToken: optionalString(obj, 'nextPageToken', path, obj.next_page_token) ?? '',
    pageSize: optionalInteger(obj, 'pageSize', path, 0, INT32_MAX, obj.page_size) ?? 0,
    totalSize: optionalInteger(obj, 'totalSize', path, 0, INT32_MAX, obj.total_size) ?? 0,
  };
}

/** Encodes ListTasksResponse with every field present, `nextPageToken` `""` on the last page (§3.1.4). */
export function encodeListTasksResponse(response: ListTasksResponse): JsonObject {
  return {
    tasks: response.tasks.map(encodeTask),
    nextPageToken: response.nextPageToken,
    pageSize: response.pageSize,
    totalSize: response.totalSize,
  };
}

/** Decodes ListTaskPushNotificationConfigsResponse; missing `configs` reads as `[]` (ProtoJSON default). */
export function decodeListTaskPushNotificationConfigsResponse(
  value: unknown,
  path: string,
): ListTaskPushNotificationConfigsResponse {
  const obj = readObject(value, path);
  const response: ListTaskPushNotificationConfigsResponse = {
    configs: optionalArray(obj, 'configs', path, decodeTaskPushNotificationConfig) ?? [],
  };
  const nextPageToken = optionalString(obj, 'nextPageToken', path, obj.next_page_token);
  if (nextPageToken !== undefined) response.nextPageToken = nextPageToken;
  return response;
}

/** Encodes ListTaskPushNotificationConfigsResponse; `configs` is always written. */
export function encodeListTaskPushNotificationConfigsResponse(
  response: ListTaskPushNotificationConfigsResponse,
): JsonObject {
  const out: JsonObject = { configs: response.configs.map(encodeTaskPushNotificationConfig) };
  if (response.nextPageToken !== undefined) out.nextPageToken = response.nextPageToken;
  return out;
}
