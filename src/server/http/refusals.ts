/**
 * The answer to a request the listener refused before any binding read it (decision 0146): the
 * error in the envelope of the binding the request was for. A POST to the base path is JSON-RPC,
 * answered with a JSON-RPC error whose id is null (the body was never read; JSON-RPC 2.0 §5);
 * every other path gets the HTTP+JSON error envelope (A2A 1.0 §11.6, the 0.3 form on 0.3). The
 * version is the one the request's A2A-Version header asked for; 1.0 when not even the request
 * line was seen.
 */
import type { A2AError, ProtocolVersion } from '../../protocol/index.js';
import type { HttpBodyResponse, RefusedRequest } from './http-types.js';
import { jsonRpcErrorResponse } from './json-rpc-binding.js';
import { restErrorResponse } from './rest-binding.js';

/** How the server reads a request's path and version, as `handle` does. */
export interface RefusalRouting {
  /** The version of an A2A-Version header value (absent: the server's header-less version). */
  negotiate(requested: string | undefined): ProtocolVersion;
  /** The server's `pathPrefixes`: a base path below one of them is JSON-RPC too. */
  prefixes: readonly string[];
}

/** The refusal in the envelope of the binding `request` was for. */
export function refusalResponse(
  error: A2AError,
  request: RefusedRequest,
  routing: RefusalRouting,
): HttpBodyResponse {
  // A doubled leading slash is read as one, as `handle` reads it (decision 0138).
  let path = (request.path ?? '').replace(/^\/+/, '/');
  const prefix = routing.prefixes.find((p) => path === p || path.startsWith(`${p}/`));
  if (prefix !== undefined) path = path.slice(prefix.length) || '/';
  const jsonRpc = request.method === 'POST' && path === '/';
  let version: ProtocolVersion = '1.0';
  if (request.method !== undefined) {
    try {
      version = routing.negotiate(request.version);
    } catch {
      // An unsupported version is answered in the newest form, as `handle` answers it.
    }
  }
  // Both are plain bodies: only the bindings' success paths stream.
  return (
    jsonRpc
      ? jsonRpcErrorResponse(null, error, version, undefined, undefined, true)
      : restErrorResponse(error, version, { framing: true })
  ) as HttpBodyResponse;
}
