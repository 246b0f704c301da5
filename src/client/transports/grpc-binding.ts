/**
 * The gRPC transport (A2A 1.0 §10): the same operations as the HTTP transports over
 * `lf.a2a.v1.A2AService` or `a2a.v1.A2AService`, with the client's guarantees kept: every call
 * passes the interceptors, presents the selected credentials (as metadata), connects only to a
 * target the network guard accepted (the checked address is dialled, the name kept for TLS),
 * honours the timeout (as a gRPC deadline) and the AbortSignal (the call is cancelled), and turns
 * a status with ErrorInfo details into an A2AClientError carrying the A2A code and reason.
 */
import {
  credentials as channelCredentials,
  Metadata,
  makeGenericClientConstructor,
  status as grpcStatus,
  type ChannelCredentials,
  type Client,
  type ServiceError,
} from '@grpc/grpc-js';
import { ERROR_CATALOG, isTerminalState, type StreamResponse, type Task } from '../../protocol/internal.js';
import {
  decodeErrorStatus,
  STATUS_DETAILS_KEY,
  type GrpcMethod,
  type GrpcService,
} from '../../protocol/grpc/index.js';
import { readAnswer, type AnswerReading } from './answer-reading.js';
import { checkTarget } from '../http/address-guard.js';
import { A2AClientError, A2ALocalError } from '../client-errors.js';
import type { CallControl, HttpPipeline } from '../http/client-http.js';
import { Deadline } from '../http/deadline.js';
import { grpcSchema } from './grpc-schema.js';
import { parseGrpcTarget, type GrpcClientOptions, type GrpcTarget } from './grpc-target.js';
import type { OutgoingCall } from '../auth/interceptors.js';
import type { StreamControl, StreamedEvent, TransportInfo } from './transport-types.js';
import type {
  OperationTypes,
  StreamingOperationName,
  UnaryOperationName,
} from '../../protocol/operation-types.js';

const CODE_BY_REASON = new Map(Object.values(ERROR_CATALOG).map((e) => [e.reason, e.code]));
const bytes = (b: Buffer): Buffer => b;
// Headers that describe an HTTP body; a gRPC call has its own framing.
const NOT_METADATA = new Set(['content-type', 'accept', 'content-length', 'host', 'connection']);

function metadataOf(headers: Record<string, string>): Metadata {
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(headers)) if (!NOT_METADATA.has(name)) metadata.set(name, value);
  return metadata;
}

function headersOf(metadata: Metadata | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata?.getMap() ?? {})) {
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/**
 * The texts of a refused server certificate (OpenSSL's, older and newer spellings; node's for the
 * name check) and node's codes for them. grpc-js keeps only the handshake error's text, in the
 * status details ("No connection established. Last error: Error: <text>"), not its code.
 */
const CERTIFICATE_FAILURES: readonly (readonly [RegExp, string])[] = [
  [/self[- ]signed certificate in certificate chain/, 'SELF_SIGNED_CERT_IN_CHAIN'],
  [/self[- ]signed certificate/, 'DEPTH_ZERO_SELF_SIGNED_CERT'],
  [/unable to verify the first certificate/, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'],
  [/unable to get local issuer certificate/, 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'],
  [/unable to get issuer certificate/, 'UNABLE_TO_GET_ISSUER_CERT'],
  [/certificate has expired/, 'CERT_HAS_EXPIRED'],
  [/certificate is not yet valid/, 'CERT_NOT_YET_VALID'],
  [/certificate not trusted/, 'CERT_UNTRUSTED'],
  [/certificate revoked/, 'CERT_REVOKED'],
  [/Hostname\/IP does not match certificate's altnames/, 'ERR_TLS_CERT_ALTNAME_INVALID'],
];

/**
 * The certificate refusal behind a gRPC connection failure, as the error an HTTPS request fails
 * with (node's `code`, e.g. `UNABLE_TO_GET_ISSUER_CERT_LOCALLY`), the gRPC status its cause; so a
 * caller tells a refused certificate the same way on every binding. Undefined for other failures.
 */
function certificateFailure(service: Partial<ServiceError>): Error | undefined {
  for (const [text, code] of CERTIFICATE_FAILURES) {
    const match = text.exec(service.details ?? '');
    if (match !== null) return Object.assign(new Error(match[0], { cause: service }), { code });
  }
  return undefined;
}

/** Calls over one gRPC interface. */
export class GrpcTransport {
  private readonly service: GrpcService;
  private readonly target: GrpcTarget;
  private readonly clients = new Map<string, Client>();

  constructor(
    readonly info: TransportInfo,
    private readonly http: HttpPipeline,
    private readonly options: GrpcClientOptions = {},
    private readonly reading: AnswerReading = {},
  ) {
    this.service = grpcSchema().services[info.protocolVersion];
    this.target = parseGrpcTarget(info.url);
  }

  /** Runs a unary operation and returns its canonical result. */
  async unary<Op extends UnaryOperationName>(
    operation: Op,
    request: OperationTypes[Op][0],
    control: CallControl = {},
  ): Promise<OperationTypes[Op][1]> {
    const method = this.methodOf(operation);
    const deadline = new Deadline(control.signal, control.timeoutMs ?? this.http.timeoutMs);
    const call = this.outgoing(operation, method, control, request);
    const started = performance.now();
    let answer: { value: Buffer; metadata: Metadata | undefined };
    try {
      await this.http.prepare(call, control, deadline.signal);
      const client = await this.clientFor(deadline);
      answer = await new Promise((resolve, reject) => {
        let metadata: Metadata | undefined;
        const pending = client.makeUnaryRequest(
          method.path,
          bytes,
          bytes,
          method.writeRequest(this.withTenant(request)),
          metadataOf(call.headers),
          (error, value) => (error === null ? resolve({ value: value as Buffer, metadata }) : reject(error)),
        );
        pending.on('metadata', (m: Metadata) => (metadata = m));
        deadline.signal.addEventListener('abort', () => pending.cancel(), { once: true });
      });
    } catch (error) {
      const failure = this.failure(error, deadline, method);
      await this.http.after(call, { durationMs: performance.now() - started, error: failure });
      deadline.dispose();
      throw failure;
    }
    deadline.dispose();
    await this.http.after(call, {
      grpcStatus: grpcStatus.OK,
      headers: headersOf(answer.metadata),
      durationMs: performance.now() - started,
    });
    const result = this.decoded(method, answer.value);
    this.observe(call, method, result);
    return result as OperationTypes[Op][1];
  }

  /**
   * Runs a streaming operation; events arrive as the server sends them. gRPC messages carry no
   * event ids (A2A 1.0 §10), so `lastEventId` is not sent: a re-attachment starts from the task's
   * current snapshot (A2A 1.0 §3.1.6), which holds everything that happened meanwhile.
   */
  async *stream(
    operation: StreamingOperationName,
    request: OperationTypes[StreamingOperationName][0],
    control: StreamControl = {},
  ): AsyncGenerator<StreamedEvent> {
    const method = this.methodOf(operation);
    const deadline = new Deadline(control.signal, control.timeoutMs ?? this.http.timeoutMs);
    const call = this.outgoing(operation, method, control, request);
    const started = performance.now();
    let failure: Error | undefined;
    let headers: Record<string, string> | undefined;
    let pending: ReturnType<Client['makeServerStreamRequest']> | undefined;
    try {
      await this.http.prepare(call, control, deadline.signal);
      const client = await this.clientFor(deadline);
      pending = client.makeServerStreamRequest(
        method.path,
        bytes,
        bytes,
        method.writeRequest(this.withTenant(request)),
        metadataOf(call.headers),
      );
      const live = pending;
      // The iterator reports failures; this keeps a status after an early return from going unheard.
      live.on('error', () => undefined);
      live.on('metadata', (m: Metadata) => {
        headers = headersOf(m);
        // The timeout bounds the wait for the stream to start, not its length: tasks run long.
        deadline.stopTimer();
      });
      deadline.signal.addEventListener('abort', () => live.cancel(), { once: true });
      for await (const chunk of live as AsyncIterable<Buffer>) {
        deadline.stopTimer();
        const event = this.decoded(method, chunk) as StreamResponse;
        this.observe(call, method, event);
        yield { event };
      }
    } catch (error) {
      failure = this.failure(error, deadline, method);
      const task = await this.finishedMeanwhile(operation, request, control, failure);
      if (task === undefined) throw failure;
      failure = undefined;
      yield { event: { task } };
    } finally {
      pending?.cancel();
      deadline.dispose();
      await this.http.after(call, {
        durationMs: performance.now() - started,
        ...(failure === undefined ? { grpcStatus: grpcStatus.OK } : { error: failure }),
        ...(headers === undefined ? {} : { headers }),
      });
    }
  }

  /**
   * A re-attachment (attempt 2+) to a task that finished while the client was away: 1.0 refuses
   * to subscribe to a finished task (A2A 1.0 §3.1.6), and gRPC has no Last-Event-ID to replay the
   * end from, so the task itself, as it ended, is the stream's last event.
   */
  private async finishedMeanwhile(
    operation: StreamingOperationName,
    request: OperationTypes[StreamingOperationName][0],
    control: StreamControl,
    failure: Error,
  ): Promise<Task | undefined> {
    if (operation !== 'subscribeToTask' || (control.attempt ?? 1) < 2) return undefined;
    if (!(failure instanceof A2AClientError) || failure.type !== 'UnsupportedOperationError')
      return undefined;
    const { id } = request as { id: string };
    const task = await this.unary('getTask', { id }, Object.assign({}, control, { attempt: 1 }));
    return isTerminalState(task.status.state) ? task : undefined;
  }

  /** Closes the channels. */
  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }

  private methodOf(operation: UnaryOperationName | StreamingOperationName): GrpcMethod {
    const method = this.service.method(operation);
    if (method === undefined) {
      throw new A2ALocalError(
        'UNSUPPORTED_OPERATION',
        `${operation} does not exist in A2A ${this.service.version} gRPC (${this.service.name})`,
      );
    }
    return method;
  }

  /**
   * TLS channel credentials: the client's certificate for mutual TLS, its trustedCertificates
   * (the HTTP pipeline's context, which holds the certificate too), and its insecureTls.
   */
  private tlsCredentials(): ChannelCredentials {
    // The client's insecureTls: the server's certificate is not checked (development only).
    const verify = this.http.insecureTls ? { rejectUnauthorized: false } : {};
    const context = this.http.secureContext;
    if (context !== undefined) return channelCredentials.createFromSecureContext(context, verify);
    const mine = this.http.clientCertificate;
    return channelCredentials.createSsl(
      null,
      mine === undefined ? null : Buffer.from(mine.key),
      mine === undefined ? null : Buffer.from(mine.cert),
      verify,
    );
  }

  /** An answer message, as ProtoJSON, to the interceptors that observe bodies. */
  private observe(call: OutgoingCall, method: GrpcMethod, result: unknown): void {
    if (this.http.wantsBodies) this.http.received(call, JSON.stringify(method.encodeResult(result)));
  }

  private outgoing(
    purpose: UnaryOperationName | StreamingOperationName,
    method: GrpcMethod,
    control: CallControl,
    request: unknown,
  ): OutgoingCall {
    const headers: Record<string, string> = {};
    // A2A 1.0 §3.6: a 1.0 client sends its version on every request; 0.3 sends none.
    if (this.info.protocolVersion === '1.0') headers['a2a-version'] = '1.0';
    return {
      purpose,
      method: 'POST',
      url: new URL(method.path.slice(1), this.target.url),
      headers,
      // The request's ProtoJSON, only for an interceptor that logs bodies (the wire is protobuf).
      body: this.http.wantsBodies
        ? JSON.stringify(method.encodeRequest(this.withTenant(request)))
        : undefined,
      attempt: control.attempt ?? 1,
    };
  }

  private withTenant<T>(request: T): T {
    const tenant = this.info.tenant;
    if (this.info.protocolVersion !== '1.0' || tenant === undefined || tenant === '') return request;
    return Object.assign({}, request, { tenant });
  }

  /** A channel to the guard-checked address; reused while the name resolves to the same one. */
  private async clientFor(deadline: Deadline): Promise<Client> {
    const { host, port, tls } = this.target;
    const resolved = await checkTarget(this.target.url, this.http.network);
    if (deadline.aborted) throw deadline.error(`Connecting to ${host}:${port}`);
    const key = `${resolved.address}|${port}`;
    let client = this.clients.get(key);
    if (client === undefined) {
      const address =
        resolved.family === 6 ? `ipv6:[${resolved.address}]:${port}` : `ipv4:${resolved.address}:${port}`;
      const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      const credentials =
        (this.options.credentials as ChannelCredentials | undefined) ??
        (tls ? this.tlsCredentials() : channelCredentials.createInsecure());
      const Ctor = makeGenericClientConstructor({}, this.service.name);
      client = new Ctor(address, credentials, {
        // Dial the checked address, but speak to (and verify the certificate of) the name.
        'grpc.default_authority': authority,
        ...(tls ? { 'grpc.ssl_target_name_override': host } : {}),
        // The client's maxResponseBytes bounds each message, unary answers and stream events alike.
        'grpc.max_receive_message_length': this.http.maxResponseBytes,
      });
      this.clients.set(key, client);
    }
    return client;
  }

  private decoded(method: GrpcMethod, value: Buffer): unknown {
    return readAnswer(() => method.readResult(value), this.info.url, 0, this.reading);
  }

  private failure(error: unknown, deadline: Deadline, method: GrpcMethod): Error {
    if (error instanceof A2ALocalError || error instanceof A2AClientError) return error;
    const what = `${method.name} on ${this.info.url}`;
    if (deadline.aborted) return deadline.error(what);
    const service = error as Partial<ServiceError>;
    if (typeof service.code !== 'number') return error instanceof Error ? error : new Error(String(error));
    const blob = service.metadata?.get(STATUS_DETAILS_KEY)[0];
    if (blob instanceof Buffer) {
      try {
        const status = decodeErrorStatus(grpcSchema().status, blob);
        return new A2AClientError({
          code: (status.reason === undefined ? undefined : CODE_BY_REASON.get(status.reason)) ?? 0,
          httpStatus: 0,
          grpcStatus: service.code,
          message: service.details ?? status.message,
          body: status,
          ...(status.reason === undefined ? {} : { reason: status.reason }),
          ...(status.metadata === undefined ? {} : { metadata: status.metadata }),
          ...(status.violations === undefined ? {} : { violations: status.violations }),
        });
      } catch {
        // Unreadable details: judge by the status code alone.
      }
    }
    // Connection failures, and calls the server cut short, are network trouble: streams resume.
    if (service.code === grpcStatus.UNAVAILABLE || service.code === grpcStatus.CANCELLED) {
      return new A2ALocalError('NETWORK', `${what} failed: ${service.details ?? 'unavailable'}`, {
        cause: (this.target.tls ? certificateFailure(service) : undefined) ?? error,
        url: this.info.url,
      });
    }
    // grpc-js cancels a call whose message passes grpc.max_receive_message_length with this status
    // and text: the client's own bound, reported like the HTTP bindings' (pinned-http.ts).
    if (
      service.code === grpcStatus.RESOURCE_EXHAUSTED &&
      service.details?.startsWith('Received message larger than max') === true
    ) {
      return new A2ALocalError(
        'BAD_RESPONSE',
        `${what} answered more than ${this.http.maxResponseBytes} bytes (the client's maxResponseBytes)`,
        { cause: error, url: this.info.url },
      );
    }
    if (service.code === grpcStatus.DEADLINE_EXCEEDED) {
      return new A2ALocalError('TIMEOUT', `${what} exceeded its deadline`, {
        cause: error,
        url: this.info.url,
      });
    }
    return new A2AClientError({
      code: 0,
      httpStatus: 0,
      grpcStatus: service.code,
      message: service.details ?? `gRPC status ${service.code}`,
      body: { code: service.code, details: service.details },
    });
  }
}
