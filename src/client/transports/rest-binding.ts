/**
 * The HTTP+JSON binding, client side: methods and paths come from the protocol's route tables
 * (src/protocol/rest-routes.ts), which the server matches too: 1.0 at the interface URL with an
 * optional `/{tenant}` prefix (A2A 1.0 §4.4.6 `tenant`), 0.3 under `/v1` (A2A 0.3 §7). What goes in the
 * query and the body is this file's.
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
} from '../../protocol/internal.js';
import { REST_ROUTES, type RestPathParam } from '../../protocol/rest-routes.js';
import { A2ALocalError } from '../client-errors.js';
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

/** A route's path with its `{taskId}` and `{configId}` filled in, each one encoded segment. */
function fillPath(path: string, params: Partial<Record<RestPathParam, string>>): string {
  return path.replace(/\{(taskId|configId)\}/g, (_, name: RestPathParam) => seg(params[name] ?? ''));
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
  const table = REST_ROUTES[version];
  const tenanted = table.tenantPrefix && tenant !== undefined && tenant !== '';
  const prefix = tenanted ? `${table.prefix}/${seg(tenant)}` : table.prefix;

  return {
    version,
    codec,
    resultPath: [],
    plan(operation, request): WirePlan {
      const route = table.routes[operation];
      // `./` keeps a first segment such as `message:send` from being read as a URL scheme.
      const at = (params: Partial<Record<RestPathParam, string>> = {}, search = ''): URL =>
        new URL(`.${prefix}${fillPath(route.path, params)}${search}`, base);
      const method = route.method;
      switch (operation) {
        case 'sendMessage':
        case 'sendStreamingMessage':
          return { method, url: at(), body: encodeRequest(codec, operation, request) };
        case 'createTaskPushNotificationConfig':
          return {
            method,
            url: at({ taskId: (request as TaskPushNotificationConfig).taskId }),
            body: encodeRequest(codec, operation, request),
          };
        case 'getTask': {
          const r = request as GetTaskRequest;
          return { method, url: at({ taskId: r.id }, query({ historyLength: r.historyLength })) };
        }
        case 'listTasks':
          return {
            method,
            url: at({}, query(encodeRequest(codec, operation, request) as Record<string, unknown>)),
          };
        case 'cancelTask': {
          const r = request as CancelTaskRequest;
          return {
            method,
            url: at({ taskId: r.id }),
            body: r.metadata === undefined ? {} : { metadata: r.metadata },
          };
        }
        case 'subscribeToTask':
          return { method, url: at({ taskId: (request as { id: string }).id }) };
        case 'getTaskPushNotificationConfig':
        case 'deleteTaskPushNotificationConfig': {
          const ref = request as TaskPushNotificationConfigRef;
          if (ref.id === undefined) {
            throw new A2ALocalError(
              'UNSUPPORTED_OPERATION',
              `${operation} over HTTP+JSON needs the config id (the route names it)`,
            );
          }
          return { method, url: at({ taskId: ref.taskId, configId: ref.id }) };
        }
        case 'listTaskPushNotificationConfigs': {
          const r = request as ListTaskPushNotificationConfigsRequest;
          return {
            method,
            url: at({ taskId: r.taskId }, query({ pageSize: r.pageSize, pageToken: r.pageToken })),
          };
        }
        case 'getExtendedAgentCard':
          return { method, url: at() };
        default:
          return operation satisfies never;
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
      // Mid-stream errors: `event: error` with the §11.6 body (A2A 1.0 §9.4.2, §11.7, as a2a-js does).
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
