/**
 * One A2A operation's telemetry, written once for the three bindings (decision 0157): its SERVER
 * span (named as A2A 1.0 names the operation, A2A 1.0 §5.3, under the caller's `traceparent`),
 * the `a2a.server.requests` and `a2a.server.request.duration` metrics, the open-stream gauge, and
 * the access-log facts (decision 0158). With no SDK registered the span is the API's no-op and no
 * attribute object is built: every attribute waits on `span.isRecording()`, every metric on
 * `instruments().on`, every fact on the request having `facts`.
 */
import {
  JSON_RPC_METHOD_NAMES,
  type Message,
  type OperationName,
  type ProtocolVersion,
  type StreamResponse,
  type Task,
} from '../../protocol/internal.js';
import {
  ATTR,
  endSpan,
  errorType,
  extractContext,
  instruments,
  METRIC_ATTR,
  SPAN,
  SpanKind,
  startSpan,
  traceIdOf,
  withSpan,
  type Attributes,
  type Context,
  type HeaderLookup,
  type Span,
} from '../../telemetry/index.js';
import type { CallContext } from '../call-context.js';
import type { CallFacts } from './access-entry.js';

/** The binding a call came in on (A2A 1.0 §5.2 transport names). */
export type BindingName = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** The name of a span whose operation was never learnt (refused before its method was read). */
const UNKNOWN_OPERATION_SPAN = SPAN.unknownOperation;

/** `rpc.system.name` per binding (OpenTelemetry RPC conventions; REST is plain HTTP). */
const RPC_SYSTEM: Readonly<Record<BindingName, string>> = {
  JSONRPC: 'jsonrpc',
  'HTTP+JSON': 'http',
  GRPC: 'grpc',
};

/** Why a stream ended (`concord.stream.end`). */
export type StreamEnd = 'completed' | 'disconnected' | 'error' | 'shutdown';

/** What starts an operation's telemetry. */
export interface OperationStart {
  binding: BindingName;
  version: ProtocolVersion;
  /** Reads the request's headers (gRPC: its metadata), for `traceparent`, `tracestate`, `baggage`. */
  headers: HeaderLookup;
  /** The agent card's name (`gen_ai.agent.name`). */
  agentName: string;
  /** The access-log facts to fill, when the listener has an `onAccess` hook. */
  facts?: CallFacts | undefined;
  /** The operation, when the route already names it (REST, gRPC). */
  operation?: OperationName | undefined;
  /** `rpc.method`: the wire method (JSON-RPC method, gRPC path, REST `VERB /route`); read only when traced. */
  rpcMethod?: string | (() => string) | undefined;
}

/**
 * The telemetry of one call. A binding starts it as the request arrives (before authentication,
 * so refusals are traced too), names the operation once known, puts `trace` on the call, and
 * ends it with the call's outcome: once for a unary call, at the stream's end for a stream.
 */
export class OperationTelemetry {
  readonly span: Span;
  /** The context below the SERVER span: `call.trace`, the parent of all the call's work. */
  readonly trace: Context;
  readonly #binding: BindingName;
  readonly #facts: CallFacts | undefined;
  readonly #started = performance.now();
  #version: ProtocolVersion;
  #operation: OperationName | undefined;
  #call: CallContext | undefined;
  #taskId: string | undefined;
  #ended = false;
  #streaming = false;
  #events = 0;
  #streamError: unknown;

  constructor(start: OperationStart) {
    this.#binding = start.binding;
    this.#version = start.version;
    this.#facts = start.facts;
    this.#operation = start.operation;
    const name = start.operation === undefined ? UNKNOWN_OPERATION_SPAN : operationSpanName(start.operation);
    this.span = startSpan(name, SpanKind.SERVER, extractContext(start.headers));
    this.trace = withSpan(undefined, this.span);
    if (this.span.isRecording()) {
      this.span.setAttributes({
        [ATTR.binding]: start.binding,
        [ATTR.rpcSystem]: RPC_SYSTEM[start.binding],
        [ATTR.protocolVersion]: start.version,
        [ATTR.agentName]: start.agentName,
      });
      if (start.operation !== undefined) this.span.setAttribute(ATTR.method, name);
      const rpcMethod = start.rpcMethod;
      if (rpcMethod !== undefined) {
        this.span.setAttribute(ATTR.rpcMethod, typeof rpcMethod === 'string' ? rpcMethod : rpcMethod());
      }
    }
  }

  /** The operation, once the request names it (JSON-RPC: after its envelope is read). */
  named(operation: OperationName, version: ProtocolVersion, rpcMethod?: string): void {
    this.#operation = operation;
    this.#version = version;
    if (!this.span.isRecording()) return;
    const name = operationSpanName(operation);
    this.span.updateName(name);
    this.span.setAttribute(ATTR.method, name);
    this.span.setAttribute(ATTR.protocolVersion, version);
    if (rpcMethod !== undefined) this.span.setAttribute(ATTR.rpcMethod, rpcMethod);
  }

  /** The call context: it gets the span's context as its `trace`, and its caller is noted. */
  attach(call: CallContext): void {
    call.trace = this.trace;
    this.#call = call;
  }

  /** What the decoded request reveals (the task it names, the message it sends). */
  request(params: unknown): void {
    if (typeof params !== 'object' || params === null) return;
    const p = params as { id?: unknown; taskId?: unknown; message?: Partial<Message> };
    const message = p.message;
    const taskId = message?.taskId ?? p.taskId ?? p.id;
    if (typeof taskId === 'string') this.#taskId = taskId;
    if (!this.span.isRecording()) return;
    if (typeof taskId === 'string') this.span.setAttribute(ATTR.taskId, taskId);
    if (typeof message?.messageId === 'string') this.span.setAttribute(ATTR.messageId, message.messageId);
    if (typeof message?.contextId === 'string') this.span.setAttribute(ATTR.contextId, message.contextId);
  }

  /** What a unary result reveals: the task (its id, context and state) or the reply message. */
  result(value: unknown): void {
    if (typeof value !== 'object' || value === null) return;
    const v = value as { task?: Task; message?: Message };
    if (v.task !== undefined) this.#task(v.task);
    else if (v.message !== undefined) this.#message(v.message);
    else if (typeof (value as Partial<Task>).id === 'string' && 'status' in value) this.#task(value as Task);
  }

  /** One event written on the stream. */
  streamEvent(event: StreamResponse): void {
    this.#events++;
    if (!this.span.isRecording()) return;
    if ('task' in event) this.#task(event.task);
    else if ('statusUpdate' in event) {
      this.#noteTask(event.statusUpdate.taskId, event.statusUpdate.contextId);
      this.span.setAttribute(ATTR.taskState, event.statusUpdate.status.state);
    } else if ('message' in event) this.#message(event.message);
  }

  /** The error a stream ended with (written to the client as an error event). */
  streamFailed(error: unknown): void {
    this.#streamError = error;
  }

  /** Ends a unary call, or a stream (opened or refused before its first event), with its outcome. */
  end(error?: unknown): void {
    if (this.#streaming) {
      this.endStream('completed', error);
      return;
    }
    if (this.#ended) return;
    this.#ended = true;
    this.#finish(error);
  }

  /** The stream is open: the span now lasts until `endStream` (`a2a.server.active_streams` +1). */
  streamOpened(): void {
    if (this.#streaming || this.#ended) return;
    this.#streaming = true;
    const meters = instruments();
    if (meters.on) meters.activeStreams.add(1, this.#metricAttributes(undefined));
  }

  /** Ends a stream: how it ended and how many events it carried. */
  endStream(reason: StreamEnd, error: unknown = this.#streamError): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.span.isRecording()) {
      this.span.setAttribute(ATTR.streamEvents, this.#events);
      this.span.setAttribute(ATTR.streamEnd, error === undefined ? reason : 'error');
    }
    if (this.#streaming) {
      const meters = instruments();
      if (meters.on) meters.activeStreams.add(-1, this.#metricAttributes(undefined));
    }
    this.#finish(error);
  }

  /**
   * Wraps a stream of SSE chunks so the span ends on every exit: the last chunk taken, the
   * consumer closing it (client gone, server shutdown: `signal` tells which), or a throw.
   */
  wrapStream(stream: AsyncIterable<string>, signal: () => AbortSignal | undefined): AsyncIterable<string> {
    this.streamOpened();
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the iterator's methods report to this call
    const self = this;
    return {
      [Symbol.asyncIterator](): AsyncIterator<string> {
        const inner = stream[Symbol.asyncIterator]();
        return {
          async next(): Promise<IteratorResult<string>> {
            try {
              const next = await inner.next();
              if (next.done === true) self.endStream(closedBy(signal()));
              return next;
            } catch (error) {
              self.endStream('error', error);
              throw error;
            }
          },
          async return(value?: unknown): Promise<IteratorResult<string>> {
            const closed = closedBy(signal());
            self.endStream(closed === 'completed' ? 'disconnected' : closed);
            await inner.return?.(value);
            return { done: true, value: undefined };
          },
        };
      },
    };
  }

  #finish(error: unknown): void {
    const type = error === undefined ? undefined : errorType(error);
    const call = this.#call;
    if (this.span.isRecording() && call !== undefined && call.tenant !== '') {
      this.span.setAttribute(ATTR.tenant, call.tenant);
    }
    const facts = this.#facts;
    if (facts !== undefined) {
      facts.binding = this.#binding;
      facts.version = this.#version;
      if (this.#operation !== undefined) facts.operation = operationSpanName(this.#operation);
      if (this.#taskId !== undefined) facts.taskId = this.#taskId;
      const principal = call?.user?.name;
      if (principal !== undefined) facts.principal = principal;
      const traceId = traceIdOf(this.trace);
      if (traceId !== undefined) facts.traceId = traceId;
      if (type !== undefined) facts.errorType = type;
    }
    const meters = instruments();
    if (meters.on) {
      const attributes = this.#metricAttributes(type ?? 'ok');
      meters.requests.add(1, attributes);
      meters.requestDuration.record((performance.now() - this.#started) / 1000, attributes);
    }
    endSpan(this.span, error, SpanKind.SERVER);
  }

  #metricAttributes(outcome: string | undefined): Attributes {
    const attributes: Attributes = {
      [ATTR.method]:
        this.#operation === undefined ? UNKNOWN_OPERATION_SPAN : operationSpanName(this.#operation),
      [ATTR.binding]: this.#binding,
      [ATTR.protocolVersion]: this.#version,
    };
    if (outcome !== undefined) attributes[METRIC_ATTR.outcome] = outcome;
    return attributes;
  }

  #task(task: Task): void {
    this.#noteTask(task.id, task.contextId);
    if (this.span.isRecording()) this.span.setAttribute(ATTR.taskState, task.status.state);
  }

  #message(message: Message): void {
    if (message.taskId !== undefined || message.contextId !== undefined) {
      this.#noteTask(message.taskId, message.contextId);
    }
    if (this.span.isRecording()) this.span.setAttribute(ATTR.messageId, message.messageId);
  }

  #noteTask(taskId: string | undefined, contextId: string | undefined): void {
    if (taskId !== undefined) this.#taskId = taskId;
    if (!this.span.isRecording()) return;
    if (taskId !== undefined) this.span.setAttribute(ATTR.taskId, taskId);
    if (contextId !== undefined) this.span.setAttribute(ATTR.contextId, contextId);
  }
}

/** The span name of an operation: its A2A 1.0 name on every binding and version (A2A 1.0 §5.3). */
export function operationSpanName(operation: OperationName): string {
  return JSON_RPC_METHOD_NAMES['1.0'][operation];
}

/** The abort reason a listener gives a request's signal when its shutdown ends the exchange. */
export const SERVER_SHUTDOWN = new DOMException('The server is shutting down', 'AbortError');

/** How a stream was closed, from its call's signal: by the client, by a shutdown, or not at all. */
function closedBy(signal: AbortSignal | undefined): StreamEnd {
  if (signal === undefined || !signal.aborted) return 'completed';
  return signal.reason === SERVER_SHUTDOWN ? 'shutdown' : 'disconnected';
}
