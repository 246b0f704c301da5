/**
 * The HTTP+JSON binding, client side: the routes mirror the server's tables
 * (src/server/http/rest-routes.ts): 1.0 at the interface URL with an optional `/{tenant}` prefix
 * (A2A 1.0 §9.5), 0.3 under `/v1` (digest §3.1). `:subscribe` is POST in 1.0 (A2A 1.0 §11.3) and
 * GET in 0.3 (the 0.3 proto, and what a2a-python 0.3 accepts).
 */
import {
  v0_3RestCodec,
  v1_0Codec,
  type CancelTaskRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ProtocolVersion,
  type SseEvent,
  type StreamResponse,
  type TaskPushNotificationConfig,
  type TaskPushNotificationConfigRef,
} from '../protocol/internal.js';
import { A2ALocalError } from './client-errors.js';
import { readAnswer, type AnswerReading } from './answer-reading.js';
import { decodeResult, encodeRequest, type WireBinding, type WirePlan } from './wire-binding.js';
import { parseJsonBody, restError } from './wire-errors.js';

const seg = encodeURIComponent;

function query(values: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (name === 'tenant' || value === undefined || value === null) continue;
    if (typeof value === 'object') continue; // nested objects are not allowed in queries (A2A 1.0 §11.5)
    q.set(name, String(value));
  }
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The HTTP+JSON binding of an interface URL at a version; `tenant` prefixes 1.0 paths, answers are
 * read per `reading`.
 */
export function restBinding(
  interfaceUrl: string,
  version: ProtocolVersion,
  tenant?: string,
  reading: AnswerReading = {},
): WireBinding {
  const codec = version === '1.0' ? v1_0Codec : v0_3RestCodec;
  const base = new URL(interfaceUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const prefix = version === '0.3' ? 'v1/' : tenant !== undefined && tenant !== '' ? `${seg(tenant)}/` : '';
  // `./` keeps a first segment such as `message:send` from being read as a URL scheme.
  const at = (path: string): URL => new URL(`./${prefix}${path}`, base);
  const configPath = (ref: { taskId: string }): string => `tasks/${seg(ref.taskId)}/pushNotificationConfigs`;

  return {
    version,
    codec,
    plan(operation, request): WirePlan {
      switch (operation) {
        case 'sendMessage':
          return { method: 'POST', url: at('message:send'), body: encodeRequest(codec, operation, request) };
        case 'sendStreamingMessage':
          return {
            method: 'POST',
            url: at('message:stream'),
            body: encodeRequest(codec, operation, request),
          };
        case 'getTask': {
          const r = request as GetTaskRequest;
          return { method: 'GET', url: at(`tasks/${seg(r.id)}${query({ historyLength: r.historyLength })}`) };
        }
        case 'listTasks':
          return {
            method: 'GET',
            url: at(`tasks${query(encodeRequest(codec, operation, request) as Record<string, unknown>)}`),
          };
        case 'cancelTask': {
          const r = request as CancelTaskRequest;
          return {
            method: 'POST',
            url: at(`tasks/${seg(r.id)}:cancel`),
            body: r.metadata === undefined ? {} : { metadata: r.metadata },
          };
        }
        case 'subscribeToTask': {
          const id = (request as { id: string }).id;
          return { method: version === '1.0' ? 'POST' : 'GET', url: at(`tasks/${seg(id)}:subscribe`) };
        }
        case 'createTaskPushNotificationConfig':
          return {
            method: 'POST',
            url: at(configPath(request as TaskPushNotificationConfig)),
            body: encodeRequest(codec, operation, request),
          };
        case 'getTaskPushNotificationConfig':
        case 'deleteTaskPushNotificationConfig': {
          const ref = request as TaskPushNotificationConfigRef;
          if (ref.id === undefined) {
            throw new A2ALocalError(
              'UNSUPPORTED_OPERATION',
              `${operation} over HTTP+JSON needs the config id (the route names it)`,
            );
          }
          return {
            method: operation === 'getTaskPushNotificationConfig' ? 'GET' : 'DELETE',
            url: at(`${configPath(ref)}/${seg(ref.id)}`),
          };
        }
        case 'listTaskPushNotificationConfigs': {
          const r = request as ListTaskPushNotificationConfigsRequest;
          return {
            method: 'GET',
            url: at(`${configPath(r)}${query({ pageSize: r.pageSize, pageToken: r.pageToken })}`),
          };
        }
        case 'getExtendedAgentCard':
          return { method: 'GET', url: at(version === '1.0' ? 'extendedAgentCard' : 'card') };
      }
    },
    result(operation, status, json, url) {
      return readAnswer(() => decodeResult(codec, operation, json, ''), url, status, reading);
    },
    error(status, json) {
      return restError(status, json);
    },
    event(event: SseEvent, status): StreamResponse {
      const json = parseJsonBody(event.data, status, base.href);
      // Mid-stream errors: `event: error` with the §11.6 body (digest §3.3, as a2a-js does).
      if (event.event === 'error') {
        throw (
          restError(status, json) ??
          new A2ALocalError('BAD_RESPONSE', `${base.href} sent an error event without an error body`, {
            url: base.href,
          })
        );
      }
      return readAnswer(() => codec.decodeStreamResponse(json, ''), base.href, status, reading);
    },
  };
}
