/**
 * What an access log needs of each answered request (decision 0158). The library logs nothing
 * itself: the listeners (`listen`, `createNodeHandler`, `listenGrpc`) hand one AccessEntry per
 * request to an `onAccess` hook, and `concord serve` writes it as a log line. The bindings fill
 * in what only they learn (the operation, the task, the caller) on the request's `facts`, which
 * exist only when a hook is set, so a server without one builds nothing per request.
 */
import type { ProtocolVersion } from '../../protocol/index.js';

/** What the binding learned while handling one call. Every member is filled when known. */
export interface CallFacts {
  /** `JSONRPC`, `HTTP+JSON` or `GRPC`. */
  binding?: 'JSONRPC' | 'HTTP+JSON' | 'GRPC' | undefined;
  version?: ProtocolVersion | undefined;
  /** The operation as A2A 1.0 names it (`SendMessage`). */
  operation?: string | undefined;
  taskId?: string | undefined;
  /** The authenticated caller's principal name, never a credential. */
  principal?: string | undefined;
  /** The W3C trace id of the operation's span, when tracing is on. */
  traceId?: string | undefined;
  /** The A2A error type the call was answered with, if any. */
  errorType?: string | undefined;
}

/** One answered request. */
export interface AccessEntry extends CallFacts {
  /** The HTTP method, or `GRPC`. */
  method: string;
  /** The request path (without its query), or the gRPC method path (`/a2a.v1.A2AService/GetTask`). */
  target: string;
  /** The HTTP status, or the gRPC status code. */
  status: number;
  /** From the request's arrival to the last byte of the answer (a stream's end). */
  durationMs: number;
  remoteAddress?: string | undefined;
}

/** Receives each answered request; it must not throw (a throw is ignored). */
export type AccessHook = (entry: AccessEntry) => void;
