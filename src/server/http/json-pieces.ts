/**
 * A JSON answer written in pieces (decision 0172): one document, not an event stream, sent as its
 * pieces come with the socket's backpressure. The bindings give it the answer's status and
 * headers; the adapters write it as they write a stream, except that a shutdown lets it finish and
 * a failure part-way cuts the connection, so no client takes a truncated document for a whole one.
 */
import type { HttpHeaders, HttpStreamResponse } from './http-types.js';

/** A JSON answer given as the pieces of its text, in order. */
export class JsonPieces {
  constructor(readonly pieces: AsyncIterable<string>) {}
}

/**
 * The response that writes `json` between `prefix` and `suffix` (a JSON-RPC envelope around a
 * result); `done` hears when it was written, or why not.
 */
export function piecewiseResponse(
  headers: HttpHeaders,
  json: JsonPieces,
  done: (error?: unknown) => void,
  prefix = '',
  suffix = '',
): HttpStreamResponse {
  return { status: 200, headers, stream: enveloped(json.pieces, done, prefix, suffix), document: true };
}

async function* enveloped(
  pieces: AsyncIterable<string>,
  done: (error?: unknown) => void,
  prefix: string,
  suffix: string,
): AsyncGenerator<string> {
  let failure: unknown;
  try {
    if (prefix !== '') yield prefix;
    yield* pieces;
    if (suffix !== '') yield suffix;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    // Also when the client left and the writer closed this generator early.
    done(failure);
  }
}
