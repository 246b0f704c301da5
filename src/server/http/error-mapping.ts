/**
 * The one place a binding turns what was thrown into the error it sends: anything not an
 * A2AError becomes an InternalError (toA2AError), then the server's `mapError` hook, if any, may
 * restate it in an extension's vocabulary (an extension error table, protocol/error-tables.ts).
 * A mapper that throws is ignored: the original error is sent rather than none.
 *
 * Errors of the protocol's own framing are never restated (decision 0135): a body that is not
 * JSON (-32700), a JSON-RPC envelope that is not a request (-32600), and, with `framing`, whatever
 * the binding refused while reading the request (an unknown method, params that do not decode).
 * Clients and kits judge those by A2A's codes and statuses; an extension's table speaks for the
 * agent's work, which has not started yet.
 */
import { toA2AError, type A2AError } from '../../protocol/internal.js';

/** Rewrites an error before it is encoded; return the error itself to leave it as it is. */
export type ErrorMapper = (error: A2AError) => A2AError;

/** The error to encode for `thrown`; `framing` when it was raised reading the request. */
export function mappedError(thrown: unknown, mapError: ErrorMapper | undefined, framing = false): A2AError {
  const error = toA2AError(thrown);
  if (mapError === undefined || framing) return error;
  if (error.type === 'JSONParseError' || error.type === 'InvalidRequestError') return error;
  try {
    return mapError(error);
  } catch {
    return error;
  }
}
