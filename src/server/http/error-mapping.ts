/**
 * The one place a binding turns what was thrown into the error it sends: anything not an
 * A2AError becomes an InternalError (toA2AError), then the server's `mapError` hook, if any, may
 * restate it in an extension's vocabulary (an extension error table, protocol/error-tables.ts).
 * A mapper that throws is ignored: the original error is sent rather than none.
 */
import { toA2AError, type A2AError } from '../../protocol/index.js';

/** Rewrites an error before it is encoded; return the error itself to leave it as it is. */
export type ErrorMapper = (error: A2AError) => A2AError;

/** The error to encode for `thrown`. */
export function mappedError(thrown: unknown, mapError: ErrorMapper | undefined): A2AError {
  const error = toA2AError(thrown);
  if (mapError === undefined) return error;
  try {
    return mapError(error);
  } catch {
    return error;
  }
}
