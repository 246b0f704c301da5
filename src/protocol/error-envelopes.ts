/**
 * Wire forms of an A2AError, one per binding and version (A2A 1.0 §9.5, §11.6):
 * - 1.0 JSON-RPC: `error.data` is an array of typed details (ErrorInfo, BadRequest);
 * - 0.3 JSON-RPC: `error.data` is free-form, so it carries the same facts as a plain object;
 * - 1.0 REST: the google.rpc.Status envelope of A2A 1.0 §11.6;
 * - 0.3 REST: 0.3 defines no body (A2A 0.3 §8 is JSON-RPC only); the official 0.3 clients (a2a-js RestTransport,
 *   and the 1.x SDK's 0.3 compat transport) read a bare `{code, message, data?}` with the JSON-RPC
 *   code, so that is sent, `data` as on 0.3 JSON-RPC (docs/decisions/0135-json-rpc-and-error-edges.md).
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

/** The free-form 0.3 `error.data`: the same facts as the 1.0 details, as a plain object. */
function legacyData(error: A2AError): Record<string, unknown> {
  const data: Record<string, unknown> = { reason: error.entry.reason };
  if (error.metadata !== undefined) data.metadata = error.metadata;
  if (error.violations !== undefined) data.violations = error.violations;
  if (error.data !== undefined) data.details = error.data;
  return data;
}

/** The JSON-RPC `error` member for the negotiated version. */
export function toJsonRpcErrorObject(error: A2AError, version: ProtocolVersion): JsonRpcErrorObject {
  const entry = error.entry;
  if (version === '1.0') return { code: entry.code, message: error.message, data: errorDetails(error) };
  return { code: entry.code, message: error.message, data: legacyData(error) };
}

/** The REST error body of a version: §11.6 on 1.0, the bare JSON-RPC error object on 0.3. */
export function toVersionedRestErrorBody(error: A2AError, version: ProtocolVersion): Record<string, unknown> {
  if (version === '1.0') return toRestErrorBody(error);
  return { code: error.entry.code, message: error.message, data: legacyData(error) };
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
