/**
 * One chosen interface (URL, binding, protocol version) and the calls over it: unary calls read
 * one JSON answer, streaming calls read SSE (A2A 1.0 §9.4.2, §11.7). Headers follow the version: 1.0 sends
 * `A2A-Version: 1.0` on every request (A2A 1.0 §3.6); 0.3 sends none, which every
 * server reads as 0.3. A 1.0 interface with a `tenant` has it copied into every request (A2A 1.0
 * §9.5).
 */
import { SseDecoder, type GetTaskRequest, type Task } from '../../protocol/internal.js';
import type { AnswerReading } from './answer-reading.js';
import { A2ALocalError } from '../client-errors.js';
import type { CallControl, HttpPipeline } from '../http/client-http.js';
import type { GrpcClientOptions } from './grpc-target.js';
import type { StreamControl, StreamedEvent, TransportInfo } from './transport-types.js';
import { readTaskInParts, type ArtifactPartHandler } from './artifact-parts.js';
import { jsonRpcBinding } from './json-rpc-binding.js';
import { restBinding } from './rest-binding.js';
import type {
  OperationTypes,
  StreamingOperationName,
  UnaryOperationName,
} from '../../protocol/operation-types.js';
import type { WireBinding } from './wire-binding.js';
import { parseJsonBody, unexpectedStatus } from './wire-errors.js';
import { withRetryAfter } from '../http/retry.js';
import { loadPeer } from '../../peers/index.js';

export type { ClientBinding, StreamControl, StreamedEvent, TransportInfo } from './transport-types.js';

/** The calls of one interface, whatever its binding. */
export interface CallTransport {
  readonly info: TransportInfo;
  /** Runs a unary operation and returns its canonical result. */
  unary<Op extends UnaryOperationName>(
    operation: Op,
    request: OperationTypes[Op][0],
    control?: CallControl,
  ): Promise<OperationTypes[Op][1]>;
  /**
   * `GetTask` with each artifact part handed to `onPart` as it arrives (decision 0173); absent where
   * the answer is one message (gRPC), which A2AClient then hands over part by part once read.
   */
  getTaskInParts?(request: GetTaskRequest, onPart: ArtifactPartHandler, control?: CallControl): Promise<Task>;
  /** Runs a streaming operation; events are yielded as they arrive. */
  stream(
    operation: StreamingOperationName,
    request: OperationTypes[StreamingOperationName][0],
    control?: StreamControl,
  ): AsyncGenerator<StreamedEvent>;
  /** Releases connections the transport keeps (gRPC channels). */
  close?(): void;
}

/**
 * The transport for an interface. gRPC's is loaded on first use, so clients that never talk
 * gRPC never load @grpc/grpc-js.
 */
export function createTransport(
  info: TransportInfo,
  http: HttpPipeline,
  grpc: GrpcClientOptions = {},
  reading: AnswerReading = {},
): CallTransport {
  if (info.protocolBinding !== 'GRPC') return new Transport(info, http, reading);
  let loaded: Promise<CallTransport> | undefined;
  let made: CallTransport | undefined;
  const transport = (): Promise<CallTransport> =>
    (loaded ??= loadPeer('grpcClient', () => import('./grpc-binding.js')).then(
      (m) => (made = new m.GrpcTransport(info, http, grpc, reading)),
    ));
  return {
    info,
    async unary(operation, request, control) {
      return (await transport()).unary(operation, request, control);
    },
    async *stream(operation, request, control) {
      yield* (await transport()).stream(operation, request, control);
    },
    close: () => made?.close?.(),
  };
}

/** Calls over one HTTP interface (JSON-RPC or HTTP+JSON). */
export class Transport implements CallTransport {
  private readonly binding: WireBinding;

  constructor(
    readonly info: TransportInfo,
    private readonly http: HttpPipeline,
    private readonly reading: AnswerReading = {},
  ) {
    this.binding =
      info.protocolBinding === 'JSONRPC'
        ? jsonRpcBinding(info.url, info.protocolVersion, reading)
        : restBinding(info.url, info.protocolVersion, info.tenant, reading);
  }

  private headers(accept: string, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept };
    if (hasBody) {
      // 1.0.1 asks for application/a2a+json on REST bodies; JSON-RPC is always application/json (A2A 1.0 §11.1, §9.1).
      headers['content-type'] =
        this.info.protocolBinding === 'HTTP+JSON' && this.info.protocolVersion === '1.0'
          ? 'application/a2a+json'
          : 'application/json';
    }
    if (this.info.protocolVersion === '1.0') headers['a2a-version'] = '1.0';
    return headers;
  }

  private withTenant<T>(request: T): T {
    const tenant = this.info.tenant;
    if (this.info.protocolVersion !== '1.0' || tenant === undefined || tenant === '') return request;
    return Object.assign({}, request, { tenant });
  }

  private plan(operation: UnaryOperationName | StreamingOperationName, request: unknown, accept: string) {
    const plan = this.binding.plan(operation, this.withTenant(request));
    const body = plan.body === undefined ? undefined : JSON.stringify(plan.body);
    const spec = { method: plan.method, url: plan.url, headers: this.headers(accept, body !== undefined) };
    return body === undefined ? spec : Object.assign({}, spec, { body });
  }

  /** Runs a unary operation and returns its canonical result. */
  async unary<Op extends UnaryOperationName>(
    operation: Op,
    request: OperationTypes[Op][0],
    control: CallControl = {},
  ): Promise<OperationTypes[Op][1]> {
    const answer = await this.http.read(
      operation,
      this.plan(operation, request, 'application/json, application/a2a+json'),
      control,
    );
    const ok = answer.status >= 200 && answer.status < 300;
    if (ok && answer.text.trim() === '' && operation === 'deleteTaskPushNotificationConfig') {
      return undefined as OperationTypes[Op][1];
    }
    if (!ok) throw this.failure(answer.status, answer.text, answer.url, answer.headers);
    const json = parseJsonBody(answer.text, answer.status, answer.url);
    return this.binding.result(operation, answer.status, json, answer.url) as OperationTypes[Op][1];
  }

  /** `GetTask` with each artifact part handed to `onPart` as it arrives (artifact-parts.ts). */
  async getTaskInParts(
    request: GetTaskRequest,
    onPart: ArtifactPartHandler,
    control: CallControl = {},
  ): Promise<Task> {
    const spec = this.plan('getTask', request, 'application/json, application/a2a+json');
    const { answer, deadline } = await this.http.open('getTask', spec, control);
    try {
      if (answer.status < 200 || answer.status >= 300) {
        const text = await answer.text(this.http.maxResponseBytes);
        throw this.failure(answer.status, text, answer.url.href, answer.headers);
      }
      return await readTaskInParts(
        answer.chunks(),
        this.binding,
        { status: answer.status, url: answer.url.href },
        onPart,
        this.reading,
        this.http.maxResponseBytes,
      );
    } finally {
      answer.close();
      deadline.dispose();
    }
  }

  /**
   * The error an answer that is not the one asked for carries, or else `otherwise` (by default, what
   * its status says).
   */
  private failure(
    status: number,
    text: string,
    url: string,
    headers: Record<string, string>,
    otherwise: () => unknown = () => unexpectedStatus(status, url),
  ): unknown {
    const json = parseJsonOrFail(text, status, url, headers);
    // A 429 or 503 may say when to come back (Retry-After); the retry policy reads it (decision 0137).
    return withRetryAfter(this.binding.error(status, json) ?? otherwise(), status, headers);
  }

  /** Runs a streaming operation; events are yielded as they arrive, the connection closes when iteration stops. */
  async *stream(
    operation: StreamingOperationName,
    request: OperationTypes[StreamingOperationName][0],
    control: StreamControl = {},
  ): AsyncGenerator<StreamedEvent> {
    const spec = this.plan(operation, request, 'text/event-stream');
    if (control.lastEventId !== undefined) spec.headers['last-event-id'] = control.lastEventId;
    const { answer, deadline } = await this.http.open(operation, spec, control);
    try {
      if (answer.status < 200 || answer.status >= 300 || answer.mediaType !== 'text/event-stream') {
        // Errors before the first event come as an ordinary answer (A2A 1.0 §9.4.2, §11.7).
        const text = await answer.text(this.http.maxResponseBytes);
        throw this.failure(answer.status, text, answer.url.href, answer.headers, () =>
          answer.status >= 300
            ? unexpectedStatus(answer.status, answer.url.href)
            : new A2ALocalError(
                'BAD_RESPONSE',
                `${answer.url.href} answered ${answer.mediaType || 'no content type'} instead of an event stream`,
                { httpStatus: answer.status, url: answer.url.href },
              ),
        );
      }
      // The timeout bounds the wait for the stream to start, not its length: tasks run long.
      deadline.stopTimer();
      const decoder = new SseDecoder();
      // Any bytes (an event or a heartbeat comment) prove the stream alive (decision 0137).
      for await (const chunk of answer.chunks(control.idleTimeoutMs ?? this.http.streamIdleTimeoutMs)) {
        for (const event of decoder.push(chunk)) {
          const item = this.binding.event(event, answer.status);
          yield event.id === undefined ? { event: item } : { id: event.id, event: item };
        }
      }
    } finally {
      answer.close();
      deadline.dispose();
    }
  }
}

/** parseJsonBody, whose BAD_RESPONSE for a non-JSON 429/503 still carries the Retry-After. */
function parseJsonOrFail(
  text: string,
  status: number,
  url: string,
  headers: Record<string, string>,
): unknown {
  try {
    return parseJsonBody(text, status, url);
  } catch (error) {
    throw withRetryAfter(error, status, headers);
  }
}
