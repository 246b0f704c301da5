/**
 * The one error table (A2A 1.0.1 §5.4, §9.5) and the error classes the
 * core throws. Bindings never invent codes: they look the error's `type` up here.
 */
import { bounded, boundedMetadata, boundedViolations, MESSAGE_MAX } from './error-bounds.js';

/** Every error Concord can put on the wire. */
export type A2AErrorType =
  | 'JSONParseError'
  | 'InvalidRequestError'
  | 'MethodNotFoundError'
  | 'InvalidParamsError'
  | 'InternalError'
  | 'TaskNotFoundError'
  | 'TaskNotCancelableError'
  | 'PushNotificationNotSupportedError'
  | 'UnsupportedOperationError'
  | 'ContentTypeNotSupportedError'
  | 'InvalidAgentResponseError'
  | 'ExtendedAgentCardNotConfiguredError'
  | 'ExtensionSupportRequiredError'
  | 'VersionNotSupportedError'
  | 'UnauthenticatedError'
  | 'PermissionDeniedError'
  | 'PayloadTooLargeError'
  | 'RequestTimeoutError'
  | 'HeadersTooLargeError'
  | 'MalformedHttpRequestError'
  | 'ApprovalNotFoundError'
  | 'ApprovalAlreadyDecidedError';

/** gRPC status names used in REST error bodies (`error.status`, A2A 1.0 §11.6). */
export type GrpcStatusName =
  | 'INVALID_ARGUMENT'
  | 'NOT_FOUND'
  | 'FAILED_PRECONDITION'
  | 'INTERNAL'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'UNIMPLEMENTED'
  | 'RESOURCE_EXHAUSTED'
  | 'DEADLINE_EXCEEDED';

/** One row of the table. */
export interface ErrorCatalogEntry {
  /** JSON-RPC `error.code`. */
  code: number;
  /** HTTP status on the REST binding (and on JSON-RPC for HTTP-layer errors, see `httpLayer`). */
  httpStatus: number;
  grpcStatus: GrpcStatusName;
  /** google.rpc.ErrorInfo `reason`. */
  reason: string;
  /** ErrorInfo `domain`: the A2A domain for A2A errors, Concord's own for the others. */
  domain: string;
  defaultMessage: string;
  /** True when the error belongs to the HTTP layer, so JSON-RPC also answers with `httpStatus`. */
  httpLayer?: boolean;
}

/** ErrorInfo domain of the A2A errors (A2A 1.0 §5.4). */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
/** ErrorInfo domain of errors that A2A does not name (JSON-RPC standard and HTTP-layer ones). */
export const CONCORD_ERROR_DOMAIN = 'concord.a2a';

const A = A2A_ERROR_DOMAIN;
const C = CONCORD_ERROR_DOMAIN;

/** The table. JSON-RPC standard codes -32700..-32603, A2A codes -32001..-32009 (A2A 1.0 §5.4). */
export const ERROR_CATALOG: Readonly<Record<A2AErrorType, ErrorCatalogEntry>> = {
  JSONParseError: {
    code: -32700,
    httpStatus: 400,
    grpcStatus: 'INVALID_ARGUMENT',
    reason: 'PARSE_ERROR',
    domain: C,
    defaultMessage: 'Invalid JSON payload',
  },
  InvalidRequestError: {
    code: -32600,
    httpStatus: 400,
    grpcStatus: 'INVALID_ARGUMENT',
    reason: 'INVALID_REQUEST',
    domain: C,
    defaultMessage: 'Request payload validation error',
  },
  MethodNotFoundError: {
    code: -32601,
    httpStatus: 404,
    grpcStatus: 'UNIMPLEMENTED',
    reason: 'METHOD_NOT_FOUND',
    domain: C,
    defaultMessage: 'Method not found',
  },
  InvalidParamsError: {
    code: -32602,
    httpStatus: 400,
    grpcStatus: 'INVALID_ARGUMENT',
    reason: 'INVALID_PARAMS',
    domain: C,
    defaultMessage: 'Invalid parameters',
  },
  InternalError: {
    code: -32603,
    httpStatus: 500,
    grpcStatus: 'INTERNAL',
    reason: 'INTERNAL',
    domain: C,
    defaultMessage: 'Internal error',
  },
  TaskNotFoundError: {
    code: -32001,
    httpStatus: 404,
    grpcStatus: 'NOT_FOUND',
    reason: 'TASK_NOT_FOUND',
    domain: A,
    defaultMessage: 'Task not found',
  },
  TaskNotCancelableError: {
    code: -32002,
    httpStatus: 400,
    grpcStatus: 'FAILED_PRECONDITION',
    reason: 'TASK_NOT_CANCELABLE',
    domain: A,
    defaultMessage: 'Task cannot be canceled',
  },
  PushNotificationNotSupportedError: {
    code: -32003,
    httpStatus: 400,
    grpcStatus: 'FAILED_PRECONDITION',
    reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
    domain: A,
    defaultMessage: 'Push Notification is not supported',
  },
  UnsupportedOperationError: {
    code: -32004,
    httpStatus: 400,
    grpcStatus: 'FAILED_PRECONDITION',
    reason: 'UNSUPPORTED_OPERATION',
    domain: A,
    defaultMessage: 'This operation is not supported',
  },
  ContentTypeNotSupportedError: {
    code: -32005,
    httpStatus: 400,
    grpcStatus: 'INVALID_ARGUMENT',
    reason: 'CONTENT_TYPE_NOT_SUPPORTED',
    domain: A,
    defaultMessage: 'Incompatible content types',
  },
  InvalidAgentResponseError: {
    code: -32006,
    httpStatus: 500,
    grpcStatus: 'INTERNAL',
    reason: 'INVALID_AGENT_RESPONSE',
    domain: A,
    defaultMessage: 'Invalid agent response',
  },
  ExtendedAgentCardNotConfiguredError: {
    code: -32007,
    httpStatus: 400,
    grpcStatus: 'FAILED_PRECONDITION',
    reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
    domain: A,
    defaultMessage: 'Extended Agent Card is not configured',
  },
  ExtensionSupportRequiredError: {
    code: -32008,
    httpStatus: 400,
    grpcStatus: 'FAILED_PRECONDITION',
    reason: 'EXTENSION_SUPPORT_REQUIRED',
    domain: A,
    defaultMessage: 'A required extension was not activated',
  },
  VersionNotSupportedError: {
    code: -32009,
    httpStatus: 400,
    grpcStatus: 'FAILED_PRECONDITION',
    reason: 'VERSION_NOT_SUPPORTED',
    domain: A,
    defaultMessage: 'Protocol version not supported',
  },
  // HTTP-layer errors: A2A puts authentication in the transport (A2A 1.0 §7.4), and body limits are ours.
  UnauthenticatedError: {
    code: -32010,
    httpStatus: 401,
    grpcStatus: 'UNAUTHENTICATED',
    reason: 'UNAUTHENTICATED',
    domain: C,
    defaultMessage: 'Authentication required',
    httpLayer: true,
  },
  PermissionDeniedError: {
    code: -32011,
    httpStatus: 403,
    grpcStatus: 'PERMISSION_DENIED',
    reason: 'PERMISSION_DENIED',
    domain: C,
    defaultMessage: 'Permission denied',
    httpLayer: true,
  },
  PayloadTooLargeError: {
    code: -32600,
    httpStatus: 413,
    grpcStatus: 'RESOURCE_EXHAUSTED',
    reason: 'PAYLOAD_TOO_LARGE',
    domain: C,
    defaultMessage: 'Request body too large',
    httpLayer: true,
  },
  // Contract approvals (OpenClaw PR #19293 a2a-contracts.md requiresApproval; Concord's own codes, decision 0017).
  ApprovalNotFoundError: {
    code: -32012,
    httpStatus: 404,
    grpcStatus: 'NOT_FOUND',
    reason: 'APPROVAL_NOT_FOUND',
    domain: C,
    defaultMessage: 'Approval not found',
  },
  ApprovalAlreadyDecidedError: {
    code: -32013,
    httpStatus: 409,
    grpcStatus: 'FAILED_PRECONDITION',
    reason: 'APPROVAL_ALREADY_DECIDED',
    domain: C,
    defaultMessage: 'The approval was already decided',
  },
  RequestTimeoutError: {
    code: -32603,
    httpStatus: 408,
    grpcStatus: 'DEADLINE_EXCEEDED',
    reason: 'REQUEST_TIMEOUT',
    domain: C,
    defaultMessage: 'Request timed out',
    httpLayer: true,
  },
  // Refused by the HTTP parser before any binding saw the request (decision 0146).
  HeadersTooLargeError: {
    code: -32600,
    httpStatus: 431,
    grpcStatus: 'RESOURCE_EXHAUSTED',
    reason: 'HEADERS_TOO_LARGE',
    domain: C,
    defaultMessage: 'Request header fields too large',
    httpLayer: true,
  },
  MalformedHttpRequestError: {
    code: -32600,
    httpStatus: 400,
    grpcStatus: 'INVALID_ARGUMENT',
    reason: 'MALFORMED_HTTP_REQUEST',
    domain: C,
    defaultMessage: 'Malformed HTTP request',
    httpLayer: true,
  },
};

/** One invalid field: where (JSON Pointer, RFC 6901) and what was wrong (google.rpc.BadRequest). */
export interface FieldViolation {
  field: string;
  description: string;
}

/** Options of an A2AError. */
export interface A2AErrorOptions {
  /** ErrorInfo metadata: string values only (google.rpc.ErrorInfo). */
  metadata?: Record<string, string> | undefined;
  /** Field violations; sent as google.rpc.BadRequest. */
  violations?: FieldViolation[] | undefined;
  /** Extra data for the 0.3 JSON-RPC `error.data` (which takes any JSON). */
  data?: unknown;
  /**
   * Typed detail entries (each with an `@type`) sent after the ErrorInfo (and BadRequest) in the
   * 1.0 `details` / `error.data` lists, e.g. an extension's own error payload.
   */
  details?: Record<string, unknown>[] | undefined;
  /** HTTP headers the error response carries (e.g. `retry-after` on a 429). */
  headers?: Record<string, string> | undefined;
  cause?: unknown;
}

/** An error that goes on the wire. Throw it anywhere; the binding maps it once. */
export class A2AError extends Error {
  /** Which catalog row this error is. */
  readonly type: A2AErrorType;
  readonly metadata: Record<string, string> | undefined;
  readonly violations: FieldViolation[] | undefined;
  readonly data: unknown;
  /** Extra typed detail entries (see `A2AErrorOptions.details`). */
  readonly details: Record<string, unknown>[] | undefined;
  /** Headers of the error response (see `A2AErrorOptions.headers`). */
  readonly headers: Record<string, string> | undefined;

  constructor(type: A2AErrorType, message?: string, options: A2AErrorOptions = {}) {
    // Bounded here, once, so no binding can echo a client's megabyte back (error-bounds.ts).
    super(
      bounded(message ?? ERROR_CATALOG[type].defaultMessage, MESSAGE_MAX),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = type;
    this.type = type;
    this.metadata = boundedMetadata(options.metadata);
    this.violations = boundedViolations(options.violations);
    this.data = options.data;
    this.details = options.details;
    this.headers = options.headers;
  }

  /** The catalog row of this error (an extension's error overrides it with its own table's row). */
  get entry(): ErrorCatalogEntry {
    return ERROR_CATALOG[this.type];
  }
}

/** Builds the "task not found" error with the id in ErrorInfo metadata. */
export function taskNotFound(taskId: string): A2AError {
  return new A2AError('TaskNotFoundError', `Task not found: ${bounded(taskId, 128)}`, {
    metadata: { taskId },
  });
}

/** Builds an invalid-params error for one field (JSON Pointer path). */
export function invalidParams(path: string, description: string): A2AError {
  return new A2AError('InvalidParamsError', `Invalid parameters: ${path || '/'}: ${description}`, {
    violations: [{ field: path || '/', description }],
  });
}

/**
 * Turns anything thrown into an A2AError: A2AErrors pass through, anything else becomes an
 * InternalError whose message does not leak the original (it may hold secrets or paths).
 */
export function toA2AError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  return new A2AError('InternalError', undefined, { cause: error });
}
