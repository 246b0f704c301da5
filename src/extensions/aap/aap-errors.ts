/**
 * The AAP error vocabulary (AAP v0.1 errors: eleven codes, their HTTP statuses and JSON-RPC
 * codes, AAP v0.1 docs/errors.md, auto-agent-protocol/auto-agent-protocol at e68f478; decision 0062) as an extension error table,
 * and the `aap.error` payload every refusal carries: on REST (A2A 1.0 §11.6) `details` holds the
 * google.rpc.ErrorInfo (reason = the AAP code, domain `autoagentprotocol.org`, metadata = the
 * details as strings) and then the typed `aap.error` entry; on JSON-RPC 1.0 `error.data` is that
 * same list, on 0.3 the free-form `error.data.details` is the `aap.error` payload itself
 * (docs/decisions/0062-aap-profile.md).
 */
import { randomUUID } from 'node:crypto';
import { defineErrorTable, TableError, type A2AError, type ErrorTableRow } from '../../protocol/index.js';

/** ErrorInfo domain of AAP errors. */
export const AAP_ERROR_DOMAIN = 'autoagentprotocol.org';
/** `@type` of the typed `aap.error` detail entry. */
export const AAP_ERROR_DETAIL_TYPE = 'type.googleapis.com/aap.error';

/** An AAP error code. */
export type AapErrorCode =
  | 'UNSUPPORTED_SKILL'
  | 'SCHEMA_VALIDATION_FAILED'
  | 'MISSING_REQUIRED_FIELD'
  | 'VEHICLE_NOT_FOUND'
  | 'VEHICLE_UNAVAILABLE'
  | 'CONTACT_CONSENT_REQUIRED'
  | 'INVALID_CONSENT'
  | 'APPOINTMENT_TIME_UNAVAILABLE'
  | 'AUTH_REQUIRED'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR';

type Row = ErrorTableRow & { retryable: boolean };

const ROWS: Record<AapErrorCode, Row> = {
  UNSUPPORTED_SKILL: {
    code: -32601,
    httpStatus: 404,
    grpcStatus: 'NOT_FOUND',
    meaning: 'MethodNotFoundError',
    defaultMessage: 'This agent does not offer that skill',
    retryable: false,
  },
  SCHEMA_VALIDATION_FAILED: {
    code: -32602,
    httpStatus: 422,
    grpcStatus: 'INVALID_ARGUMENT',
    meaning: 'InvalidParamsError',
    defaultMessage: 'The request does not match the AAP schema',
    retryable: false,
  },
  MISSING_REQUIRED_FIELD: {
    code: -32602,
    httpStatus: 422,
    grpcStatus: 'INVALID_ARGUMENT',
    meaning: 'InvalidParamsError',
    defaultMessage: 'A required field is missing',
    retryable: false,
  },
  VEHICLE_NOT_FOUND: {
    code: -32000,
    httpStatus: 404,
    grpcStatus: 'NOT_FOUND',
    meaning: 'InvalidParamsError',
    defaultMessage: 'No listing matches the vehicle reference',
    retryable: false,
  },
  VEHICLE_UNAVAILABLE: {
    code: -32000,
    httpStatus: 409,
    grpcStatus: 'FAILED_PRECONDITION',
    meaning: 'InvalidParamsError',
    defaultMessage: 'The vehicle is no longer available',
    retryable: false,
  },
  CONTACT_CONSENT_REQUIRED: {
    code: -32000,
    httpStatus: 403,
    grpcStatus: 'PERMISSION_DENIED',
    meaning: 'PermissionDeniedError',
    defaultMessage: 'Customer contact information needs a matching consent grant',
    retryable: false,
  },
  INVALID_CONSENT: {
    code: -32000,
    httpStatus: 403,
    grpcStatus: 'PERMISSION_DENIED',
    meaning: 'PermissionDeniedError',
    defaultMessage: 'The consent grant cannot be used for this request',
    retryable: false,
  },
  APPOINTMENT_TIME_UNAVAILABLE: {
    code: -32000,
    httpStatus: 409,
    grpcStatus: 'FAILED_PRECONDITION',
    meaning: 'InvalidParamsError',
    defaultMessage: 'None of the requested windows can be honored and no alternatives are available',
    retryable: false,
  },
  AUTH_REQUIRED: {
    code: -32001,
    httpStatus: 401,
    grpcStatus: 'UNAUTHENTICATED',
    meaning: 'UnauthenticatedError',
    defaultMessage: 'A valid bearer token is required',
    httpLayer: true,
    retryable: false,
  },
  RATE_LIMITED: {
    code: -32002,
    httpStatus: 429,
    grpcStatus: 'RESOURCE_EXHAUSTED',
    meaning: 'InternalError',
    defaultMessage: 'Rate limit exceeded',
    httpLayer: true,
    retryable: true,
  },
  INTERNAL_ERROR: {
    code: -32603,
    httpStatus: 500,
    grpcStatus: 'INTERNAL',
    meaning: 'InternalError',
    defaultMessage: 'Internal error',
    retryable: true,
  },
};

/** The AAP error table (codes, statuses, domain). */
export const AAP_ERRORS = defineErrorTable<AapErrorCode>(AAP_ERROR_DOMAIN, ROWS);

/** The table's `retryable` default of a code (a refusal may override it). */
export function defaultRetryable(code: AapErrorCode): boolean {
  return ROWS[code].retryable;
}

/** The typed AAP error payload (schemas/aap/v0.1/schemas/error.schema.json). */
export interface AapErrorPayload {
  type: 'aap.error';
  error_id: string;
  code: AapErrorCode;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
  created_at: string;
}

/** Options of `aapError`. */
export interface AapErrorOptions {
  details?: Record<string, unknown>;
  /** Overrides the table's default (AAP: "the dealer's per-instance value wins"). */
  retryable?: boolean;
  /** When the error was made (default now). */
  now?: Date;
  cause?: unknown;
}

/** ErrorInfo metadata is a map of strings: other values are sent as their JSON. */
function asMetadata(details: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (details === undefined) return undefined;
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(details)) {
    if (value === undefined) continue;
    metadata[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return metadata;
}

/** An AAP refusal: a TableError of the AAP table carrying its `aap.error` payload. */
export class AapError extends TableError<AapErrorCode> {
  readonly payload: AapErrorPayload;

  constructor(code: AapErrorCode, message: string, options: AapErrorOptions = {}) {
    const payload: AapErrorPayload = {
      type: 'aap.error',
      error_id: `err_${randomUUID().replace(/-/g, '')}`,
      code,
      message,
      retryable: options.retryable ?? ROWS[code].retryable,
      ...(options.details === undefined ? {} : { details: options.details }),
      created_at: (options.now ?? new Date()).toISOString(),
    };
    const retryAfter = options.details?.retry_after_ms;
    const metadata = asMetadata(options.details);
    super(AAP_ERRORS, code, message, {
      ...(metadata === undefined ? {} : { metadata }),
      details: [{ '@type': AAP_ERROR_DETAIL_TYPE, ...payload }],
      data: payload,
      ...(typeof retryAfter === 'number'
        ? { headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfter / 1000))) } }
        : {}),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.payload = payload;
  }
}

/** Builds an AAP refusal; throw it from a skill handler or the profile's checks. */
export function aapError(code: AapErrorCode, message: string, options: AapErrorOptions = {}): AapError {
  return new AapError(code, message, options);
}

/**
 * The AAP agent's `mapError`: Concord's own errors restated in AAP's vocabulary where AAP has a
 * code for them — a missing or invalid bearer token is AUTH_REQUIRED, a request A2A itself
 * refuses as malformed is SCHEMA_VALIDATION_FAILED (with the pointer into the request body), an
 * unexpected failure is INTERNAL_ERROR. Errors AAP has no code for (an unknown task, an
 * unsupported A2A version or output mode) keep A2A's own.
 */
export function mapToAapError(error: A2AError, now: () => Date = () => new Date()): A2AError {
  if (error instanceof AapError) return error;
  const at = now();
  switch (error.type) {
    case 'UnauthenticatedError':
      return aapError('AUTH_REQUIRED', error.message, { now: at });
    case 'InvalidParamsError':
    case 'InvalidRequestError':
    case 'JSONParseError': {
      const first = error.violations?.[0];
      const details =
        first === undefined ? undefined : { instancePath: first.field, problem: first.description };
      return aapError('SCHEMA_VALIDATION_FAILED', error.message, {
        ...(details === undefined ? {} : { details }),
        now: at,
      });
    }
    case 'InternalError':
      return aapError('INTERNAL_ERROR', 'Internal error', { now: at });
    default:
      return error;
  }
}
