/**
 * A2A errors as gRPC statuses (A2A 1.0 §10.6, §5.4): the status code is the error
 * table's `grpcStatus` column, and the `grpc-status-details-bin` trailer carries a serialized
 * `google.rpc.Status` whose `details` hold a `google.rpc.ErrorInfo` (reason, domain, metadata) and,
 * for invalid input, a `google.rpc.BadRequest` naming each bad field by its JSON Pointer.
 */
import type { Type } from 'protobufjs';
import type { A2AError, FieldViolation, GrpcStatusName } from '../errors.js';

/** The numeric codes of gRPC's status enum (grpc/doc/statuscodes.md). */
export const GRPC_STATUS_CODES = Object.freeze({
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} satisfies Record<GrpcStatusName | string, number>);

/** The trailer that carries the serialized `google.rpc.Status`. */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';

const ERROR_INFO_URL = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST_URL = 'type.googleapis.com/google.rpc.BadRequest';

/** The google.rpc message types, from the loaded schema. */
export interface StatusTypes {
  status: Type;
  errorInfo: Type;
  badRequest: Type;
}

/** A status ready to send: code, message and the details blob. */
export interface EncodedStatus {
  code: number;
  message: string;
  details: Buffer;
}

/** The gRPC status of an A2AError, with ErrorInfo (and BadRequest when fields were bad). */
export function encodeErrorStatus(types: StatusTypes, error: A2AError): EncodedStatus {
  const entry = error.entry;
  const code = GRPC_STATUS_CODES[entry.grpcStatus];
  const details = [
    {
      type_url: ERROR_INFO_URL,
      value: types.errorInfo
        .encode(
          types.errorInfo.fromObject({
            reason: entry.reason,
            domain: entry.domain,
            metadata: error.metadata ?? {},
          }),
        )
        .finish(),
    },
  ];
  if (error.violations !== undefined && error.violations.length > 0) {
    details.push({
      type_url: BAD_REQUEST_URL,
      value: types.badRequest
        .encode(types.badRequest.fromObject({ field_violations: error.violations }))
        .finish(),
    });
  }
  const status = types.status.fromObject({ code, message: error.message, details });
  return { code, message: error.message, details: Buffer.from(types.status.encode(status).finish()) };
}

/** What a `google.rpc.Status` blob says. */
export interface DecodedStatus {
  code: number;
  message: string;
  reason?: string;
  domain?: string;
  metadata?: Record<string, string>;
  violations?: FieldViolation[];
}

/** Reads a `grpc-status-details-bin` blob; details of other types are ignored. Throws on bad bytes. */
export function decodeErrorStatus(types: StatusTypes, bytes: Uint8Array): DecodedStatus {
  const status = types.status.decode(bytes) as unknown as {
    code?: number;
    message?: string;
    details?: { type_url?: string; value?: Uint8Array }[];
  };
  const out: DecodedStatus = { code: status.code ?? 0, message: status.message ?? '' };
  for (const any of status.details ?? []) {
    const url = any.type_url ?? '';
    const value = any.value ?? new Uint8Array();
    if (url.endsWith('/google.rpc.ErrorInfo')) {
      const info = types.errorInfo.decode(value) as unknown as {
        reason?: string;
        domain?: string;
        metadata?: Record<string, string>;
      };
      if (info.reason !== undefined && info.reason !== '') out.reason = info.reason;
      if (info.domain !== undefined && info.domain !== '') out.domain = info.domain;
      if (info.metadata !== undefined && Object.keys(info.metadata).length > 0)
        out.metadata = { ...info.metadata };
    } else if (url.endsWith('/google.rpc.BadRequest')) {
      const bad = types.badRequest.decode(value) as unknown as {
        field_violations?: { field?: string; description?: string }[];
      };
      out.violations = (bad.field_violations ?? []).map((v) => ({
        field: v.field ?? '',
        description: v.description ?? '',
      }));
    }
  }
  return out;
}
