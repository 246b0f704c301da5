/**
 * The HTTP+JSON binding (A2A 1.0 §11; 0.3 REST per its proto, decision 0008). Bodies and results go
 * through the version's REST codec; path and query parameters are read strictly here; errors carry
 * the status from the one error table, in the google.rpc.Status envelope of A2A 1.0 §11.6 on 1.0
 * and the bare `{code, message, data}` the official 0.3 clients read on 0.3 (error-envelopes.ts).
 */
import {
  A2AError,
  checkJsonDepth,
  encodeSseEvent,
  invalidParams,
  readObject,
  toVersionedRestErrorBody,
  type ProtocolVersion,
} from '../../protocol/internal.js';
import type { CallContext } from '../call-context.js';
import type { RequestHandler } from '../request-handler.js';
import { restCodec } from './codecs.js';
import { reportIfInternal, type ErrorReporter } from '../common/error-reporting.js';
import { mappedError, type ErrorMapper } from './error-mapping.js';
import type { HttpRequest, HttpResponse } from './http-types.js';
import { encodeUnary, invokeStream, OPERATIONS, type CardRenderer } from './operations.js';
import { queryInteger, queryObject, queryString } from './rest-query.js';
import { JSON_MEDIA_TYPE, restMediaType } from './media-type.js';
import { matchRestRoute, type RouteMatch } from './rest-routes.js';
import { sseResponse } from './sse-body.js';
import { endedAnswer, JsonPieces, piecewiseResponse } from './json-pieces.js';
import { REST_ROUTES } from '../../protocol/rest-routes.js';
import { OperationTelemetry } from '../common/operation-telemetry.js';

/** What the binding needs per call. */
export interface RestBindingOptions {
  handler: RequestHandler;
  heartbeatMs: number;
  setup: (request: HttpRequest, version: ProtocolVersion, tenant: string) => Promise<CallContext>;
  headers?: Record<string, string> | undefined;
  /** Rewrites errors into an extension's vocabulary before they are encoded (A2AServer `mapError`). */
  mapError?: ErrorMapper | undefined;
  /** How deeply a request body may nest (A2AServer `maxJsonDepth`, decision 0144). */
  maxJsonDepth?: number | undefined;
  /** Receives what is answered as an internal error (A2AServer `onError`, decision 0144). */
  report?: ErrorReporter | undefined;
  /** Writes the extended card signed as served (decision 0149). */
  renderCard?: CardRenderer | undefined;
  /** The agent card's name, for the operation's span (`gen_ai.agent.name`, decision 0157). */
  agentName?: (() => string) | undefined;
}

/** How an error answer is written besides the error itself. */
export interface RestErrorOptions {
  /** The request answered: its media type is the answer's (decision 0134). */
  request?: HttpRequest;
  headers?: Record<string, string>;
  mapError?: ErrorMapper | undefined;
  /** Raised reading the request: A2A's own error, not restated by `mapError` (decision 0135). */
  framing?: boolean;
}

/** The REST error response for `error`: §11.6 on 1.0, the 0.3 SDKs' bare body on 0.3. */
export function restErrorResponse(
  error: unknown,
  version: ProtocolVersion,
  options: RestErrorOptions = {},
): HttpResponse {
  const a2a = mappedError(error, options.mapError, options.framing);
  const type = options.request === undefined ? JSON_MEDIA_TYPE : restMediaType(options.request);
  return {
    status: a2a.entry.httpStatus,
    headers: Object.assign({ 'content-type': type }, options.headers, a2a.headers),
    body: JSON.stringify(toVersionedRestErrorBody(a2a, version)),
  };
}

async function readJsonBody(request: HttpRequest, required: boolean, maxDepth?: number): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') {
    if (required) throw invalidParams('', 'a JSON request body is required');
    return {};
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'unparseable';
    throw new A2AError('JSONParseError', `Invalid JSON payload: ${detail}`, {
      violations: [{ field: '', description: detail }],
    });
  }
  // Before any codec reads a member (decision 0144); JSON.parse itself does not recurse in V8.
  if (maxDepth !== undefined) checkJsonDepth(body, maxDepth);
  return body;
}

/** Assembles the wire-form parameters of a route from path, query and body. */
async function routeParams(request: HttpRequest, route: RouteMatch, maxDepth?: number): Promise<unknown> {
  const id = route.taskId ?? '';
  switch (route.operation) {
    case 'sendMessage':
    case 'sendStreamingMessage':
      return readJsonBody(request, true, maxDepth);
    case 'getTask':
      return { id, ...queryObject(request.query, { integers: ['historyLength'] }) };
    case 'listTasks':
      return queryObject(request.query, {
        integers: ['pageSize', 'historyLength'],
        booleans: ['includeArtifacts'],
        strings: ['contextId', 'status', 'pageToken', 'statusTimestampAfter'],
      });
    case 'cancelTask': {
      const body = readObject(await readJsonBody(request, false, maxDepth), '');
      return body.metadata === undefined ? { id } : { id, metadata: body.metadata };
    }
    case 'subscribeToTask':
      return { id };
    case 'createTaskPushNotificationConfig': {
      const body = readObject(await readJsonBody(request, true, maxDepth), '');
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
    default:
      return route.operation satisfies never;
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
  let framing = true;
  // The route names the operation; a wrong method on a known path is traced as `A2A request`.
  const telemetry = new OperationTelemetry({
    binding: 'HTTP+JSON',
    version,
    headers: (name) => request.header(name),
    agentName: options.agentName?.() ?? '',
    facts: request.facts,
    operation: route === 'wrong-method' ? undefined : route.operation,
    rpcMethod: () =>
      route === 'wrong-method'
        ? `${request.method} ${request.path}`
        : `${request.method} ${REST_ROUTES[version].prefix}${REST_ROUTES[version].routes[route.operation].path}`,
  });
  try {
    if (route === 'wrong-method') {
      throw new A2AError('MethodNotFoundError', `${request.method} is not allowed on ${request.path}`, {
        metadata: { method: request.method, path: request.path },
      });
    }
    framing = false;
    const call = await options.setup(request, version, route.tenant);
    call.binding = 'HTTP+JSON';
    telemetry.attach(call);
    const operation = OPERATIONS[route.operation];
    const codec = restCodec(version);
    framing = true;
    const params = operation.decode(codec, await routeParams(request, route, options.maxJsonDepth), '');
    // The tenant travels in the path; a body naming another tenant is a contradiction (A2A 1.0 §4.4.6 `tenant`).
    if (
      params.tenant !== undefined &&
      params.tenant !== '' &&
      route.tenant !== '' &&
      params.tenant !== route.tenant
    ) {
      throw invalidParams('/tenant', `does not match the tenant ${route.tenant} in the path`);
    }
    framing = false;
    telemetry.request(params);
    if (route.tenant === '' && params.tenant !== undefined) call.tenant = params.tenant;
    if (!operation.streaming) {
      const run = operation.http ?? operation;
      const result = await run.invoke(options.handler, params as never, call);
      telemetry.result(result);
      const encoded = encodeUnary(route.operation, run, codec, result, call, request, options.renderCard);
      const value = encoded instanceof Promise ? await encoded : encoded;
      const headers = Object.assign({ 'content-type': restMediaType(request) }, extra);
      if (value instanceof JsonPieces) {
        // Written as it is read (decision 0172): the call ends when its last piece is written.
        return piecewiseResponse(
          headers,
          value,
          endedAnswer(
            telemetry,
            options.report,
            () => `HTTP+JSON ${request.method} ${request.path} answer (A2A ${version})`,
          ),
        );
      }
      const response = { status: 200, headers, body: JSON.stringify(value) };
      telemetry.end();
      return response;
    }
    // Errors before the first event keep their HTTP status on REST, which the SDKs' REST clients
    // read before looking for a stream (decision 0135); later ones are `error` events.
    const response = sseResponse(await invokeStream(operation, options.handler, params, call, request), {
      heartbeatMs: options.heartbeatMs,
      ...(extra === undefined ? {} : { headers: extra }),
      data: (item) => {
        telemetry.streamEvent(item.event);
        return JSON.stringify(codec.encodeStreamResponse(item.event));
      },
      // REST leaves mid-stream errors unspecified; an `error` event with the version's body.
      encodeError: (error) => {
        telemetry.streamFailed(error);
        reportIfInternal(
          error,
          options.report,
          () => `HTTP+JSON ${request.method} ${request.path} stream (A2A ${version})`,
        );
        return encodeSseEvent({
          event: 'error',
          data: JSON.stringify(toVersionedRestErrorBody(mappedError(error, options.mapError), version)),
        });
      },
    });
    response.stream = telemetry.wrapStream(response.stream, () => call.signal);
    return response;
  } catch (error) {
    telemetry.end(error);
    reportIfInternal(
      error,
      options.report,
      () => `HTTP+JSON ${request.method} ${request.path} (A2A ${version})`,
    );
    return restErrorResponse(error, version, {
      request,
      ...(extra === undefined ? {} : { headers: extra }),
      mapError: options.mapError,
      framing,
    });
  }
}
