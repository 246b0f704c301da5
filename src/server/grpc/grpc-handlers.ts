/**
 * The handlers behind every RPC of both services: the same steps as the HTTP bindings (version,
 * call setup, strict decode, the transport-neutral RequestHandler through the shared operations
 * table, encode), with gRPC's ways of ending a call. Errors become the catalog's gRPC status with
 * ErrorInfo (and BadRequest) in `grpc-status-details-bin` (A2A 1.0 §10.6); a cancelled or
 * expired call aborts its signal, and a cancelled stream closes its subscription.
 */
import { once } from 'node:events';
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
import type { A2AServer } from '../a2a-server.js';
import type { CallContext } from '../call-context.js';
import { authenticateChallenge } from '../http/call-setup.js';
import { reportIfInternal } from '../common/error-reporting.js';
import { mappedError } from '../http/error-mapping.js';
import type { HttpRequest } from '../http/http-types.js';
import { OPERATIONS, type StreamingOperation, type UnaryOperation } from '../http/operations.js';
import { extendedCardBytes } from './grpc-card.js';
import { cancellationOf, echoedExtensions, metadataRequest, setupGrpcCall, versionOf } from './grpc-call.js';

/** What every handler of one service needs. */
export interface ServiceBinding {
  server: A2AServer;
  service: GrpcService;
  /** The other version's service, named in version errors. */
  other: GrpcService;
  status: StatusTypes;
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
): Promise<Prepared> {
  const request = metadataRequest(metadata, method.path, signal);
  const version = versionOf(binding.service, request, binding.other);
  const call = await setupGrpcCall(binding.server, request, version);
  let decoded: { tenant?: string };
  try {
    decoded = method.readRequest(bytes, binding.server.maxJsonDepth) as { tenant?: string };
  } catch (error) {
    throw new UnreadRequest(error);
  }
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
    try {
      const {
        call: context,
        request,
        echo,
      } = await prepare(binding, method, call.metadata, call.request, signal);
      const result = await operation.invoke(binding.server.handler, request as never, context);
      // The extended card is signed as this wire writes it, like the public card (decision 0149).
      const bytes =
        method.operation === 'getExtendedAgentCard'
          ? await extendedCardBytes(binding.server, method, context.version)
          : method.writeResult(result);
      // A call cancelled meanwhile (deadline passed) has already ended; grpc-js drops the answer.
      call.sendMetadata(echo);
      callback(null, bytes);
    } catch (error) {
      callback(serviceError(binding, error, method));
    }
  };
}

/** A server-streaming RPC: the task's events as messages, in order, until the stream closes. */
export function streamHandler(binding: ServiceBinding, method: GrpcMethod) {
  const operation = OPERATIONS[method.operation] as StreamingOperation;
  return async (call: ServerWritableStream<Buffer, Buffer>): Promise<void> => {
    const signal = cancellationOf(call);
    let events: AsyncIterator<{ event: unknown }> | undefined;
    try {
      const {
        call: context,
        request,
        echo,
      } = await prepare(binding, method, call.metadata, call.request, signal);
      const stream = await operation.invoke(binding.server.handler, request as never, context, {});
      events = stream[Symbol.asyncIterator]();
      call.sendMetadata(echo);
      for (;;) {
        if (signal.aborted) break;
        const next = await events.next();
        if (next.done === true || signal.aborted) break;
        // Backpressure: wait for the transport to drain (or for the client to go away).
        if (!call.write(method.writeResult(next.value.event))) {
          await Promise.race([once(call, 'drain'), once(signal, 'abort')]);
        }
      }
      if (!signal.aborted) call.end();
    } catch (error) {
      if (!signal.aborted) call.emit('error', serviceError(binding, error, method));
    } finally {
      // Closes the hub subscription when the client cancelled before the task's stream ended.
      await events?.return?.(undefined);
    }
  };
}
