/**
 * The HTTP+JSON binding (A2A 1.0 §11; 0.3 REST per its proto, digest §3). Bodies and results go
 * through the version's REST codec; path and query parameters are read strictly here; errors use
 * the google.rpc.Status envelope of A2A 1.0 §11.6 with the status from the one error table.
 */
import {
  A2AError,
  encodeSseEvent,
  invalidParams,
  readObject,
  toRestErrorBody,
  type ProtocolVersion,
} from '../../protocol/index.js';
import type { CallContext } from '../call-context.js';
import type { RequestHandler } from '../request-handler.js';
import { restCodec } from './codecs.js';
import { mappedError, type ErrorMapper } from './error-mapping.js';
import type { HttpRequest, HttpResponse } from './http-types.js';
import { invokeStream, OPERATIONS } from './operations.js';
import { queryInteger, queryObject, queryString } from './rest-query.js';
import { matchRestRoute, type RouteMatch } from './rest-routes.js';
import { sseResponse } from './sse-body.js';

/** What the binding needs per call. */
export interface RestBindingOptions {
  handler: RequestHandler;
  heartbeatMs: number;
  setup: (request: HttpRequest, version: ProtocolVersion, tenant: string) => Promise<CallContext>;
  headers?: Record<string, string>;
  /** Rewrites errors into an extension's vocabulary before they are encoded (A2AServer `mapError`). */
  mapError?: ErrorMapper;
}

/** 1.0.1 asks for `application/a2a+json` on REST (digest §12 item 17); 0.3 uses plain JSON. */
function contentType(version: ProtocolVersion): string {
  return version === '1.0' ? 'application/a2a+json' : 'application/json';
}

/** The REST error response for `error`. */
export function restErrorResponse(
  error: unknown,
  version: ProtocolVersion,
  extra?: Record<string, string>,
  mapError?: ErrorMapper,
): HttpResponse {
  const a2a = mappedError(error, mapError);
  return {
    status: a2a.entry.httpStatus,
    headers: { 'content-type': contentType(version), ...extra, ...a2a.headers },
    body: JSON.stringify(toRestErrorBody(a2a)),
  };
}

async function readJsonBody(request: HttpRequest, required: boolean): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') {
    if (required) throw invalidParams('', 'a JSON request body is required');
    return {};
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unparseable';
    throw new A2AError('JSONParseError', `Invalid JSON payload: ${detail}`, {
      violations: [{ field: '', description: detail }],
    });
  }
}

/** Assembles the wire-form parameters of a route from path, query and body. */
async function routeParams(request: HttpRequest, route: RouteMatch): Promise<unknown> {
  const id = route.taskId ?? '';
  switch (route.operation) {
    case 'sendMessage':
    case 'sendStreamingMessage':
      return readJsonBody(request, true);
    case 'getTask':
      return { id, ...queryObject(request.query, { integers: ['historyLength'] }) };
    case 'listTasks':
      return queryObject(request.query, {
        integers: ['pageSize', 'historyLength'],
        booleans: ['includeArtifacts'],
        strings: ['contextId', 'status', 'pageToken', 'statusTimestampAfter'],
      });
    case 'cancelTask': {
      const body = readObject(await readJsonBody(request, false), '');
      return body.metadata === undefined ? { id } : { id, metadata: body.metadata };
    }
    case 'subscribeToTask':
      return { id };
    case 'createTaskPushNotificationConfig': {
      const body = readObject(await readJsonBody(request, true), '');
      // The path names the task: it replaces a body's `taskId`, under either spelling (decision 0136).
      // eslint-disable-next-line no-restricted-syntax -- peer JSON: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
      const params: Record<string, unknown> = { ...body, taskId: id };
      delete params.task_id;
      return params;
    }
    case 'getTaskPushNotificationConfig':
    case 'deleteTaskPushNotificationConfig':
      return { taskId: id, id: route.configId };
    case 'listTaskPushNotificationConfigs': {
      const pageSize = queryInteger(request.query, 'pageSize');
      const pageToken = queryString(request.query, 'pageToken');
      return {
        taskId: id,
        ...(pageSize === undefined ? {} : { pageSize }),
        ...(pageToken === undefined ? {} : { pageToken }),
      };
    }
    case 'getExtendedAgentCard':
      return {};
  }
}

/** Handles a REST request; `undefined` when no route matches (the caller answers 404). */
export async function handleRest(
  request: HttpRequest,
  version: ProtocolVersion,
  options: RestBindingOptions,
): Promise<HttpResponse | undefined> {
  const route = matchRestRoute(version, request.method, request.path);
  if (route === undefined) return undefined;
  const extra = options.headers;
  try {
    if (route === 'wrong-method') {
      throw new A2AError('MethodNotFoundError', `${request.method} is not allowed on ${request.path}`, {
        metadata: { method: request.method, path: request.path },
      });
    }
    const call = await options.setup(request, version, route.tenant);
    call.binding = 'HTTP+JSON';
    const operation = OPERATIONS[route.operation];
    const codec = restCodec(version);
    const params = operation.decode(codec, await routeParams(request, route), '');
    // The tenant travels in the path; a body naming another tenant is a contradiction (A2A 1.0 §9.5).
    if (
      params.tenant !== undefined &&
      params.tenant !== '' &&
      route.tenant !== '' &&
      params.tenant !== route.tenant
    ) {
      throw invalidParams('/tenant', `does not match the tenant ${route.tenant} in the path`);
    }
    if (route.tenant === '' && params.tenant !== undefined) call.tenant = params.tenant;
    if (!operation.streaming) {
      const result = await operation.invoke(options.handler, params as never, call);
      return {
        status: 200,
        headers: { 'content-type': contentType(version), ...extra },
        body: JSON.stringify(operation.encode(codec, result as never, call)),
      };
    }
    return sseResponse(await invokeStream(operation, options.handler, params, call, request), {
      heartbeatMs: options.heartbeatMs,
      ...(extra === undefined ? {} : { headers: extra }),
      data: (item) => JSON.stringify(codec.encodeStreamResponse(item.event)),
      // REST leaves mid-stream errors unspecified; an `error` event with the §11.6 body.
      encodeError: (error) =>
        encodeSseEvent({
          event: 'error',
          data: JSON.stringify(toRestErrorBody(mappedError(error, options.mapError))),
        }),
    });
  } catch (error) {
    return restErrorResponse(error, version, extra, options.mapError);
  }
}
