/**
 * The JSON-RPC 2.0 binding (A2A 1.0 §9, 0.3 §7): POST of one request object, method names per
 * version, errors as JSON-RPC error objects with HTTP 200 (HTTP-layer failures — 401, 403, 413 —
 * keep their HTTP status), streams as SSE whose every event is a JSON-RPC response.
 */
import {
  A2AError,
  encodeSseEvent,
  jsonRpcError,
  jsonRpcResult,
  jsonRpcResultAround,
  JSON_RPC_OPERATIONS,
  parseJsonRpcRequest,
  toJsonRpcErrorObject,
  type JsonRpcId,
  type ProtocolVersion,
} from '../../protocol/internal.js';
import { JsonRpcEnvelopeError } from '../../protocol/json-rpc.js';
import type { RequestHandler } from '../request-handler.js';
import type { CallContext } from '../call-context.js';
import { jsonRpcCodec } from './codecs.js';
import { reportIfInternal, type ErrorReporter } from '../common/error-reporting.js';
import { mappedError, type ErrorMapper } from './error-mapping.js';
import type { HttpRequest, HttpResponse } from './http-types.js';
import { encodeUnary, invokeStream, OPERATIONS, type CardRenderer } from './operations.js';
import { endedAnswer, JsonPieces, piecewiseResponse } from './json-pieces.js';
import { sseResponse, sseSingleEvent } from './sse-body.js';
import { OperationTelemetry } from '../common/operation-telemetry.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** What the binding needs per call. */
export interface JsonRpcBindingOptions {
  handler: RequestHandler;
  heartbeatMs: number;
  /** Creates the call context (version, auth, extensions); throws the error to send. */
  setup: (request: HttpRequest, version: ProtocolVersion) => Promise<CallContext>;
  /** Headers every response of this call carries (e.g. echoed extensions). */
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

/** Builds the error response for `error` in the given version's form. */
export function jsonRpcErrorResponse(
  id: JsonRpcId,
  error: unknown,
  version: ProtocolVersion,
  extra?: Record<string, string>,
  mapError?: ErrorMapper,
  framing = false,
): HttpResponse {
  const a2a = mappedError(error, mapError, framing);
  const status = a2a.entry.httpLayer === true ? a2a.entry.httpStatus : 200;
  return {
    status,
    headers: Object.assign({}, JSON_HEADERS, extra, a2a.headers),
    body: jsonRpcError(id, toJsonRpcErrorObject(a2a, version)),
  };
}

/** The largest refused body whose id is read to be echoed. */
const ID_READ_LIMIT = 16 * 1024;

/**
 * The request's `id` when an error is answered before the envelope is parsed (an unsupported
 * A2A-Version): JSON-RPC 2.0 §5 echoes the id whenever it can be read, `null` only when not.
 */
export async function readableRequestId(request: HttpRequest): Promise<JsonRpcId> {
  // Only a small body is read for it: a refused (unauthenticated) caller must not get the server
  // to read and parse a megabyte per request just to have its id echoed.
  const declared = Number(request.header('content-length'));
  if (!(declared <= ID_READ_LIMIT)) return null;
  try {
    const body: unknown = JSON.parse(await request.text());
    const id = (body as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/**
 * An error of a 0.3 streaming method (`message/stream`, `tasks/resubscribe`): the answer is an SSE
 * stream whose only event is the JSON-RPC error, since the 0.3.x SDK's and a2a-python's clients
 * refuse any answer to a streaming call that is not `text/event-stream`. A 1.0 call gets plain
 * JSON instead: the 1.0 conformance kit reads every event stream as a success (STREAM-SUB-003/004),
 * and the SDK 1.3 client types only a plain error (decision 0135).
 */
function streamingError(
  id: JsonRpcId,
  error: unknown,
  version: ProtocolVersion,
  options: JsonRpcBindingOptions,
  framing: boolean,
): HttpResponse {
  const a2a = mappedError(error, options.mapError, framing);
  // HTTP-layer refusals (401, 413, 429) keep their status: the client needs it, not a stream.
  if (a2a.entry.httpLayer === true) return jsonRpcErrorResponse(id, a2a, version, options.headers);
  const event = encodeSseEvent({ data: jsonRpcError(id, toJsonRpcErrorObject(a2a, version)) });
  return sseSingleEvent(event, Object.assign({}, options.headers, a2a.headers));
}

/**
 * Handles one JSON-RPC POST with a negotiated version. `headerless`: the request named no version,
 * so it is 0.3 (§3.6), unless its method is a 1.0 name, which no 0.3 method shares: some 1.0
 * clients (older conformance-kit clients among them) omit the header, and a 0.3 server could only
 * answer them -32601, so Concord answers them in 1.0 instead.
 */
export async function handleJsonRpc(
  request: HttpRequest,
  negotiated: ProtocolVersion,
  options: JsonRpcBindingOptions,
  headerless = false,
): Promise<HttpResponse> {
  let version = negotiated;
  let id: JsonRpcId = null;
  const extra = options.headers;
  // Errors raised reading the request are A2A's own, never restated by `mapError` (decision 0135).
  let framing = false;
  let streaming = false;
  let read = false;
  let method: string | undefined;
  // Started before authentication, so a refused call is traced too (named `A2A request` until its
  // method is read; decision 0157).
  const telemetry = new OperationTelemetry({
    binding: 'JSONRPC',
    version,
    headers: (name) => request.header(name),
    agentName: options.agentName?.() ?? '',
    facts: request.facts,
  });
  try {
    let call = await options.setup(request, version);
    framing = true;
    read = true;
    const rpc = parseJsonRpcRequest(await request.text(), options.maxJsonDepth);
    id = rpc.id;
    method = rpc.method;
    let name = JSON_RPC_OPERATIONS[version][rpc.method];
    if (name === undefined && headerless && version === '0.3') {
      name = JSON_RPC_OPERATIONS['1.0'][rpc.method];
      if (name !== undefined) {
        version = '1.0';
        framing = false;
        call = await options.setup(request, version);
        framing = true;
      }
    }
    call.binding = 'JSONRPC';
    telemetry.attach(call);
    if (name === undefined) {
      const other = JSON_RPC_OPERATIONS[version === '1.0' ? '0.3' : '1.0'][rpc.method];
      const hint =
        other === undefined
          ? ''
          : ` (that is a ${version === '1.0' ? '0.3' : '1.0'} method name; check the A2A-Version header)`;
      throw new A2AError('MethodNotFoundError', `Method not found: ${rpc.method}${hint}`, {
        metadata: { method: rpc.method },
      });
    }
    const operation = OPERATIONS[name];
    telemetry.named(name, version, rpc.method);
    streaming = operation.streaming;
    const codec = jsonRpcCodec(version);
    const params = operation.decode(codec, rpc.params ?? {}, '/params');
    telemetry.request(params);
    framing = false;
    if (params.tenant !== undefined) call.tenant = params.tenant;
    if (!operation.streaming) {
      const run = operation.http ?? operation;
      const result = await run.invoke(options.handler, params as never, call);
      telemetry.result(result);
      const encoded = encodeUnary(name, run, codec, result, call, request, options.renderCard);
      const value = encoded instanceof Promise ? await encoded : encoded;
      const headers =
        extra === undefined ? { 'content-type': 'application/json' } : Object.assign({}, JSON_HEADERS, extra);
      if (value instanceof JsonPieces) {
        // Written as it is read (decision 0172), inside the result envelope jsonRpcResult writes.
        const rpcMethod = rpc.method;
        return piecewiseResponse(
          headers,
          value,
          endedAnswer(telemetry, options.report, () => `JSON-RPC ${rpcMethod} answer (A2A ${version})`),
          ...jsonRpcResultAround(id),
        );
      }
      const response = { status: 200, headers, body: jsonRpcResult(id, value) };
      telemetry.end();
      return response;
    }
    const rpcId = id;
    const response = sseResponse(await invokeStream(operation, options.handler, params, call, request), {
      heartbeatMs: options.heartbeatMs,
      ...(extra === undefined ? {} : { headers: extra }),
      data: (item) => {
        telemetry.streamEvent(item.event);
        return jsonRpcResult(rpcId, codec.encodeStreamResponse(item.event));
      },
      // A mid-stream error is a JSON-RPC error response in a data event (A2A 1.0 §9.4.2, §11.7).
      encodeError: (error) => {
        telemetry.streamFailed(error);
        reportIfInternal(error, options.report, () => `JSON-RPC ${rpc.method} stream (A2A ${version})`);
        return encodeSseEvent({
          data: jsonRpcError(rpcId, toJsonRpcErrorObject(mappedError(error, options.mapError), version)),
        });
      },
    });
    response.stream = telemetry.wrapStream(response.stream, () => call.signal);
    return response;
  } catch (error) {
    telemetry.end(error);
    reportIfInternal(error, options.report, () => `JSON-RPC ${method ?? 'request'} (A2A ${version})`);
    if (error instanceof JsonRpcEnvelopeError) id = error.id;
    // Refused before the body was read (authentication): its id is still echoed (JSON-RPC 2.0 §5).
    else if (!read) id = await readableRequestId(request);
    if (streaming && version === '0.3') return streamingError(id, error, version, options, framing);
    return jsonRpcErrorResponse(id, error, version, extra, options.mapError, framing);
  }
}
