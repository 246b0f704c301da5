/**
 * The handlers behind every RPC of both services: the same steps as the HTTP bindings (version,
 * call setup, strict decode, the transport-neutral RequestHandler through the shared operations
 * table, encode), with gRPC's ways of ending a call. Errors become the catalog's gRPC status with
 * ErrorInfo (and BadRequest) in `grpc-status-details-bin` (A2A 1.0 §10.6); a cancelled or
 * expired call aborts its signal, and a cancelled stream closes its subscription.
 */
import { drained } from './drained.js';
import {
  Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import {
  encodeErrorStatus,
  STATUS_DETAILS_KEY,
  type GrpcMethod,
  type GrpcService,
  type StatusTypes,
} from '../../protocol/grpc/index.js';
import type { StreamResponse } from '../../protocol/index.js';
import type { A2AServer } from '../a2a-server.js';
import type { CallContext } from '../call-context.js';
import { authenticateChallenge } from '../http/call-setup.js';
import { reportIfInternal } from '../common/error-reporting.js';
import { mappedError } from '../http/error-mapping.js';
import type { HttpRequest } from '../http/http-types.js';
import { OPERATIONS, type StreamingOperation, type UnaryOperation } from '../http/operations.js';
import { extendedCardBytes } from './grpc-card.js';
import { cancellationOf, echoedExtensions, metadataRequest, setupGrpcCall, versionOf } from './grpc-call.js';
import { OperationTelemetry } from '../common/operation-telemetry.js';
import type { AccessHook, CallFacts } from '../common/access-entry.js';

/** What every handler of one service needs. */
export interface ServiceBinding {
  server: A2AServer;
  service: GrpcService;
  /** The other version's service, named in version errors. */
  other: GrpcService;
  status: StatusTypes;
  /** The listener's access hook (`listenGrpc` `onAccess`, decision 0158). */
  onAccess?: AccessHook | undefined;
}

/** OK, the status of a call answered without error. */
const GRPC_OK = 0;

/**
 * The telemetry of one RPC (decision 0157): its SERVER span under the `traceparent` metadata, and
 * the access facts when the listener has an `onAccess` hook (decision 0158).
 */
class RpcObservation {
  readonly telemetry: OperationTelemetry;
  readonly #facts: CallFacts | undefined;
  readonly #started: number;

  constructor(
    private readonly binding: ServiceBinding,
    private readonly method: GrpcMethod,
    private readonly call: { metadata: Metadata; getPeer(): string },
  ) {
    this.#facts = binding.onAccess === undefined ? undefined : {};
    this.#started = binding.onAccess === undefined ? 0 : performance.now();
    const metadata = call.metadata;
    this.telemetry = new OperationTelemetry({
      binding: 'GRPC',
      version: binding.service.version,
      headers: (name) => {
        const values = metadata.get(name).filter((v): v is string => typeof v === 'string');
        return values.length === 0 ? undefined : values.join(',');
      },
      agentName: binding.server.agentCard.name,
      facts: this.#facts,
      operation: method.operation,
      rpcMethod: method.path,
    });
  }

  /** Hands the access hook its entry once the call's status is sent; a throwing hook is ignored. */
  answered(status: number): void {
    const hook = this.binding.onAccess;
    if (hook === undefined) return;
    const peer = this.call.getPeer();
    try {
      hook(
        Object.assign(
          {
            method: 'GRPC',
            target: this.method.path,
            status,
            durationMs: performance.now() - this.#started,
            // `host:port` or `[v6]:port` (grpc-js); the address alone, as HTTP gives it.
            remoteAddress: peer.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1'),
          },
          this.#facts,
        ),
      );
    } catch {
      // The hook must not throw (access-entry.ts); a throw never reaches the call.
    }
  }
}

/** The gRPC status (with details) of anything thrown while answering `method`. */
export function serviceError(
  binding: ServiceBinding,
  error: unknown,
  method: GrpcMethod,
): Partial<ServiceError> {
  // The server's `mapError` hook applies here as on HTTP (an extension's own error table).
  // What the request's bytes were refused for is A2A's own, as on HTTP (decision 0135).
  const framing = error instanceof UnreadRequest;
  const thrown = framing ? error.cause : error;
  // INTERNAL tells the client nothing of the cause: the operator hears of it (decision 0144).
  reportIfInternal(thrown, binding.server.reportError, () => `gRPC ${method.path}`);
  const a2a = mappedError(thrown, binding.server.errorMapper, framing);
  const status = encodeErrorStatus(binding.status, a2a);
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, status.details);
  // The gRPC counterpart of a 401's WWW-Authenticate: how to authenticate (RFC 9110 §11.6.1).
  if (a2a.type === 'UnauthenticatedError')
    metadata.set('www-authenticate', authenticateChallenge(binding.server.agentCard));
  return { code: status.code, details: status.message, metadata };
}

/** A request whose bytes did not decode: the error to send, marked as the binding's own. */
class UnreadRequest {
  constructor(readonly cause: unknown) {}
}

/** The error itself, unwrapped from UnreadRequest (the span names the error, not its wrapper). */
function unread(error: unknown): unknown {
  return error instanceof UnreadRequest ? error.cause : error;
}

/** CANCELLED, the status of a call the client abandoned. */
const GRPC_CANCELLED = 1;

interface Prepared {
  call: CallContext;
  request: unknown;
  echo: Metadata;
}

/** Version, setup (auth before anything is decoded), decode, tenant: as the REST binding does. */
async function prepare(
  binding: ServiceBinding,
  method: GrpcMethod,
  metadata: Metadata,
  bytes: Buffer,
  signal: AbortSignal,
  telemetry: OperationTelemetry,
): Promise<Prepared> {
  const request = metadataRequest(metadata, method.path, signal);
  const version = versionOf(binding.service, request, binding.other);
  const call = await setupGrpcCall(binding.server, request, version);
  telemetry.attach(call);
  let decoded: { tenant?: string };
  try {
    decoded = method.readRequest(bytes, binding.server.maxJsonDepth) as { tenant?: string };
  } catch (error) {
    throw new UnreadRequest(error);
  }
  telemetry.request(decoded);
  if (decoded.tenant !== undefined) call.tenant = decoded.tenant;
  return { call, request: decoded, echo: echoMetadata(binding, request) };
}

function echoMetadata(binding: ServiceBinding, request: HttpRequest): Metadata {
  const metadata = new Metadata();
  const echo = echoedExtensions(binding.server, request);
  if (echo !== undefined) metadata.set(echo[0], echo[1]);
  return metadata;
}

/** A unary RPC. */
export function unaryHandler(binding: ServiceBinding, method: GrpcMethod) {
  const operation = OPERATIONS[method.operation] as UnaryOperation;
  return async (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>): Promise<void> => {
    const signal = cancellationOf(call);
    const observed = new RpcObservation(binding, method, call);
    const { telemetry } = observed;
    try {
      const {
        call: context,
        request,
        echo,
      } = await prepare(binding, method, call.metadata, call.request, signal, telemetry);
      const result = await operation.invoke(binding.server.handler, request as never, context);
      telemetry.result(result);
      // The extended card is signed as this wire writes it, like the public card (decision 0149).
      const bytes =
        method.operation === 'getExtendedAgentCard'
          ? await extendedCardBytes(binding.server, method, context.version)
          : method.writeResult(result);
      // A call cancelled meanwhile (deadline passed) has already ended; grpc-js drops the answer.
      call.sendMetadata(echo);
      telemetry.end();
      callback(null, bytes);
      observed.answered(GRPC_OK);
    } catch (error) {
      telemetry.end(unread(error));
      const answer = serviceError(binding, error, method);
      callback(answer);
      observed.answered(answer.code ?? GRPC_OK);
    }
  };
}

/** A server-streaming RPC: the task's events as messages, in order, until the stream closes. */
export function streamHandler(binding: ServiceBinding, method: GrpcMethod) {
  const operation = OPERATIONS[method.operation] as StreamingOperation;
  return async (call: ServerWritableStream<Buffer, Buffer>): Promise<void> => {
    const signal = cancellationOf(call);
    const observed = new RpcObservation(binding, method, call);
    const { telemetry } = observed;
    let events: AsyncIterator<{ event: StreamResponse }> | undefined;
    let status = GRPC_CANCELLED;
    try {
      const {
        call: context,
        request,
        echo,
      } = await prepare(binding, method, call.metadata, call.request, signal, telemetry);
      const stream = await operation.invoke(binding.server.handler, request as never, context, {});
      events = stream[Symbol.asyncIterator]();
      telemetry.streamOpened();
      call.sendMetadata(echo);
      for (;;) {
        if (signal.aborted) break;
        const next = await events.next();
        if (next.done === true || signal.aborted) break;
        telemetry.streamEvent(next.value.event);
        // Backpressure: wait for the transport to drain (or for the client to go away).
        if (!call.write(method.writeResult(next.value.event))) {
          await drained(call, signal);
        }
      }
      if (!signal.aborted) {
        status = GRPC_OK;
        call.end();
      }
      telemetry.endStream(signal.aborted ? 'disconnected' : 'completed');
    } catch (error) {
      const answer = signal.aborted ? undefined : serviceError(binding, error, method);
      if (answer !== undefined) {
        status = answer.code ?? GRPC_OK;
        call.emit('error', answer);
      }
      telemetry.end(unread(error));
    } finally {
      // Closes the hub subscription when the client cancelled before the task's stream ended.
      await events?.return?.(undefined);
      observed.answered(status);
    }
  };
}
