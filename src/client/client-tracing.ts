/**
 * The client's side of trace context (decision 0157): one CLIENT span per operation, named as
 * A2A 1.0 names it (`SendMessage`, A2A 1.0 §5.3) on every binding and version, under the call's
 * `trace` option or else the active context, and the `a2a.client.request.duration` metric. The
 * span's context travels in the call's control to `HttpPipeline.prepare`, the one place every
 * HTTP and gRPC request passes, which injects `traceparent`, `tracestate` and `baggage`. A span
 * covers the whole operation, retries and stream resumptions included. Without an SDK the span
 * records nothing, no attribute is computed and the propagators inject nothing.
 */
import type { Message, StreamResponse, Task } from '../protocol/index.js';
import { JSON_RPC_METHOD_NAMES } from '../protocol/internal.js';
import type { OperationName } from '../protocol/operation-names.js';
import {
  activeContext,
  ATTR,
  endSpan,
  errorType,
  instruments,
  SpanKind,
  startSpan,
  withSpan,
  type Attributes,
  type Context,
  type Span,
} from '../telemetry/index.js';
import type { TransportInfo } from './transports/transport-types.js';

/** One traced operation: its span, the context to inject, and how to end it. */
export interface TracedCall {
  /** The context whose span is this call's CLIENT span (what the requests carry). */
  readonly trace: Context;
  /** Records the task and context ids of a result or event, when the span records. */
  note(value: unknown): void;
  /** Ends the span and records the duration, with the failure if any. */
  end(error?: unknown): void;
}

/** Starts the CLIENT span of `operation` on `info` under `parent` (else the active context). */
export function startCall(
  operation: OperationName,
  info: TransportInfo,
  request: unknown,
  parent: Context | undefined,
): TracedCall {
  const name = JSON_RPC_METHOD_NAMES['1.0'][operation];
  const under = parent ?? activeContext();
  const span = startSpan(name, SpanKind.CLIENT, under);
  const started = performance.now();
  if (span.isRecording()) {
    span.setAttributes(baseAttributes(name, info));
    noteIds(span, idsOfRequest(request));
  }
  return {
    trace: withSpan(under, span),
    note: (value) => {
      if (span.isRecording()) noteIds(span, idsOfResult(value));
    },
    end: (error) => {
      const meters = instruments();
      if (meters.on) {
        const attributes = baseAttributes(name, info);
        if (error !== undefined) attributes[ATTR.errorType] = errorType(error);
        meters.clientDuration.record((performance.now() - started) / 1000, attributes);
      }
      endSpan(span, error, SpanKind.CLIENT);
    },
  };
}

/** Runs a unary operation in its span. */
export async function tracedUnary<T>(call: TracedCall, run: (trace: Context) => Promise<T>): Promise<T> {
  try {
    const result = await run(call.trace);
    call.note(result);
    call.end();
    return result;
  } catch (error) {
    call.end(error);
    throw error;
  }
}

/**
 * A streaming operation in its span, which starts when the stream is first read (so a stream
 * never read leaves no span open) and ends when the stream does, or is abandoned.
 */
export async function* tracedStream(
  start: () => TracedCall,
  open: (trace: Context) => AsyncGenerator<StreamResponse>,
): AsyncGenerator<StreamResponse> {
  const call = start();
  let failure: unknown;
  let noted = false;
  try {
    for await (const event of open(call.trace)) {
      // The first event names the task and conversation; later ones repeat them.
      if (!noted) {
        call.note(event);
        noted = true;
      }
      yield event;
    }
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    call.end(failure);
  }
}

function baseAttributes(name: string, info: TransportInfo): Attributes {
  const attributes: Attributes = {
    [ATTR.method]: name,
    [ATTR.binding]: info.protocolBinding,
    [ATTR.protocolVersion]: info.protocolVersion,
  };
  const server = serverOf(info.url);
  if (server !== undefined) {
    attributes[ATTR.serverAddress] = server.address;
    if (server.port !== undefined) attributes[ATTR.serverPort] = server.port;
  }
  return attributes;
}

const servers = new Map<string, { address: string; port: number | undefined } | undefined>();

/** Host and port of an interface URL (gRPC ones may be bare `host:port`), parsed once per URL. */
function serverOf(url: string): { address: string; port: number | undefined } | undefined {
  if (servers.has(url)) return servers.get(url);
  let server: { address: string; port: number | undefined } | undefined;
  try {
    const parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `grpc://${url}`);
    const defaults: Record<string, number> = { 'http:': 80, 'https:': 443 };
    const port = parsed.port === '' ? defaults[parsed.protocol] : Number(parsed.port);
    server = { address: parsed.hostname.replace(/^\[|\]$/g, ''), port };
  } catch {
    server = undefined;
  }
  if (servers.size > 256) servers.clear();
  servers.set(url, server);
  return server;
}

interface Ids {
  taskId?: string | undefined;
  contextId?: string | undefined;
}

function noteIds(span: Span, ids: Ids): void {
  if (ids.taskId !== undefined) span.setAttribute(ATTR.taskId, ids.taskId);
  if (ids.contextId !== undefined) span.setAttribute(ATTR.contextId, ids.contextId);
}

/** The ids a request names: a send's message, or the task of GetTask, CancelTask, SubscribeToTask. */
function idsOfRequest(request: unknown): Ids {
  if (typeof request !== 'object' || request === null) return {};
  const { message, id, taskId } = request as { message?: Message; id?: unknown; taskId?: unknown };
  if (message !== undefined) return { taskId: message.taskId, contextId: message.contextId };
  if (typeof id === 'string' && !('taskId' in request)) return { taskId: id };
  if (typeof taskId === 'string') return { taskId };
  return {};
}

/** The ids a result or stream event carries (a task, a message, a task update). */
function idsOfResult(value: unknown): Ids {
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Partial<StreamResponse & { task: Task }> & Partial<Task>;
  if ('task' in v && v.task !== undefined) return { taskId: v.task.id, contextId: v.task.contextId };
  if ('message' in v && v.message !== undefined)
    return { taskId: v.message.taskId, contextId: v.message.contextId };
  const update = 'statusUpdate' in v ? v.statusUpdate : 'artifactUpdate' in v ? v.artifactUpdate : undefined;
  if (update !== undefined) return { taskId: update.taskId, contextId: update.contextId };
  // GetTask and CancelTask answer the task itself.
  if (typeof v.id === 'string' && typeof v.contextId === 'string' && v.status !== undefined)
    return { taskId: v.id, contextId: v.contextId };
  return {};
}
