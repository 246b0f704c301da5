/**
 * The client's two error families (house style rule 4). `A2AClientError` is an error the agent
 * put on the wire: it keeps the JSON-RPC code, the HTTP status and the ErrorInfo reason exactly
 * as received, and maps them to the catalog type (src/protocol/errors.ts) so callers can switch on
 * `type` as the server does. `A2ALocalError` is something that went wrong on this side or between
 * the two (no connection, a timeout, an answer that is not A2A, a refused target); its `kind` says
 * which.
 */
import {
  A2AError,
  ERROR_CATALOG,
  errorTypeForCode,
  type A2AErrorType,
  type FieldViolation,
} from '../protocol/internal.js';

/** What the wire said, normalised over the JSON-RPC and REST envelopes (A2A 1.0 §9.5, §11.6). */
export interface WireErrorFacts {
  /** JSON-RPC `error.code`, or the code the REST/gRPC ErrorInfo reason stands for (0 when unknown). */
  code: number;
  /** The HTTP status (0 over gRPC). */
  httpStatus: number;
  /** The gRPC status code, when the error came over gRPC. */
  grpcStatus?: number;
  /** google.rpc.ErrorInfo `reason` (0.3 JSON-RPC: `error.data.reason`). */
  reason?: string;
  message: string;
  metadata?: Record<string, string>;
  violations?: FieldViolation[];
  /** The parsed body as received, for diagnostics. */
  body: unknown;
}

const TYPE_BY_REASON = new Map<string, A2AErrorType>(
  Object.entries(ERROR_CATALOG).map(([type, entry]) => [entry.reason, type as A2AErrorType]),
);

// gRPC status codes that name an error type without any details (grpc/doc/statuscodes.md).
const GRPC_PERMISSION_DENIED = 7;
const GRPC_UNIMPLEMENTED = 12;
const GRPC_UNAUTHENTICATED = 16;

/** The catalog type a wire error stands for: the reason first (it is unambiguous), then the code. */
function typeOf(facts: WireErrorFacts): A2AErrorType {
  const byReason = facts.reason === undefined ? undefined : TYPE_BY_REASON.get(facts.reason);
  if (byReason !== undefined) return byReason;
  if (facts.httpStatus === 401 || facts.grpcStatus === GRPC_UNAUTHENTICATED) return 'UnauthenticatedError';
  if (facts.httpStatus === 403 || facts.grpcStatus === GRPC_PERMISSION_DENIED) return 'PermissionDeniedError';
  if (facts.grpcStatus === GRPC_UNIMPLEMENTED) return 'MethodNotFoundError';
  return errorTypeForCode(facts.code) ?? 'InternalError';
}

/** An A2A error received from the agent; `type` is the catalog row, the wire facts are kept. */
export class A2AClientError extends A2AError {
  /** The JSON-RPC code as received (REST: the catalog code of the reason). */
  readonly code: number;
  readonly httpStatus: number;
  /** The gRPC status code, when the error came over gRPC. */
  readonly grpcStatus: number | undefined;
  readonly reason: string | undefined;
  readonly body: unknown;

  constructor(facts: WireErrorFacts) {
    super(
      typeOf(facts),
      facts.message,
      Object.assign(
        {},
        facts.metadata === undefined ? {} : { metadata: facts.metadata },
        facts.violations === undefined ? {} : { violations: facts.violations },
      ),
    );
    this.name = 'A2AClientError';
    this.code = facts.code;
    this.httpStatus = facts.httpStatus;
    this.grpcStatus = facts.grpcStatus;
    this.reason = facts.reason;
    this.body = facts.body;
  }
}

/** Local failure kinds. */
export type A2ALocalErrorKind =
  /** No connection, a reset, or the connection dropped before the answer was complete. */
  | 'NETWORK'
  /** The call's `timeoutMs` elapsed. */
  | 'TIMEOUT'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'
  /** The answer is not an A2A answer (wrong status, not JSON, fails the codec). */
  | 'BAD_RESPONSE'
  /** The card's signatures did not verify against the caller's keys (A2A 1.0 §8.4). */
  | 'CARD_SIGNATURE_INVALID'
  /** The target resolves to a private, loopback or link-local address (A2A 1.0 §13.2). */
  | 'SSRF_BLOCKED'
  /** The card offers no interface the client speaks under the caller's preference (A2A 1.0 §8.3.2). */
  | 'NO_COMPATIBLE_INTERFACE'
  /** The operation does not exist in the chosen interface's protocol version (e.g. 0.3 ListTasks). */
  | 'UNSUPPORTED_OPERATION';

/** Options of an A2ALocalError. */
export interface A2ALocalErrorOptions {
  cause?: unknown;
  /** The HTTP status, when an answer arrived but was not A2A. */
  httpStatus?: number;
  /** The URL involved. */
  url?: string;
}

/** A failure on this side of the wire; never carries an A2A code. */
export class A2ALocalError extends Error {
  readonly kind: A2ALocalErrorKind;
  readonly httpStatus: number | undefined;
  readonly url: string | undefined;

  constructor(kind: A2ALocalErrorKind, message: string, options: A2ALocalErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'A2ALocalError';
    this.kind = kind;
    this.httpStatus = options.httpStatus;
    this.url = options.url;
  }
}

/**
 * A stream whose server went silent past the idle timeout: a dropped connection (NETWORK), which
 * a resumable stream re-attaches to; but not a reason to send a send again, since a silent server
 * is most likely still working on it (retry.ts, decision 0137).
 */
export class StreamIdleError extends A2ALocalError {
  constructor(message: string, url: string) {
    super('NETWORK', message, { url });
  }
}
