/**
 * Wire forms of an A2AError, one per binding and version (digest §5.2):
 * - 1.0 JSON-RPC: `error.data` is an array of typed details (ErrorInfo, BadRequest);
 * - 0.3 JSON-RPC: `error.data` is free-form, so it carries the same facts as a plain object;
 * - REST (both versions): the google.rpc.Status envelope of A2A 1.0 §11.6. 0.3 defines no REST
 *   error body, so the 1.0 one is used there too (docs/decisions/0002-rest-errors.md).
 */
import type { ProtocolVersion } from './codec.js';
import type { A2AError } from './errors.js';
import { ERROR_CATALOG } from './errors.js';
import type { JsonRpcErrorObject } from './json-rpc.js';

const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/** The typed `details` list: an ErrorInfo always, a BadRequest when fields were wrong. */
export function errorDetails(error: A2AError): Record<string, unknown>[] {
  // `entry`, not the catalog: an extension's error brings its own table row (error-tables.ts).
  const entry = error.entry;
  const info: Record<string, unknown> = {
    '@type': ERROR_INFO_TYPE,
    reason: entry.reason,
    domain: entry.domain,
  };
  if (error.metadata !== undefined) info.metadata = error.metadata;
  const details: Record<string, unknown>[] = [info];
  if (error.violations !== undefined && error.violations.length > 0) {
    details.push({ '@type': BAD_REQUEST_TYPE, fieldViolations: error.violations });
  }
  if (error.details !== undefined) details.push(...error.details);
  return details;
}

/** The JSON-RPC `error` member for the negotiated version. */
export function toJsonRpcErrorObject(error: A2AError, version: ProtocolVersion): JsonRpcErrorObject {
  const entry = error.entry;
  if (version === '1.0') return { code: entry.code, message: error.message, data: errorDetails(error) };
  const data: Record<string, unknown> = { reason: entry.reason };
  if (error.metadata !== undefined) data.metadata = error.metadata;
  if (error.violations !== undefined) data.violations = error.violations;
  if (error.data !== undefined) data.details = error.data;
  return { code: entry.code, message: error.message, data };
}

/** The REST error body `{error:{code,status,message,details}}` (A2A 1.0 §11.6). */
export function toRestErrorBody(error: A2AError): { error: Record<string, unknown> } {
  const entry = error.entry;
  return {
    error: {
      code: entry.httpStatus,
      status: entry.grpcStatus,
      message: error.message,
      details: errorDetails(error),
    },
  };
}

/** Finds the catalog row for a JSON-RPC code (client side: turning wire errors into A2AErrors). */
export function errorTypeForCode(code: number): A2AError['type'] | undefined {
  for (const [type, entry] of Object.entries(ERROR_CATALOG)) {
    if (entry.code === code && entry.httpLayer !== true) return type as A2AError['type'];
  }
  return undefined;
}
