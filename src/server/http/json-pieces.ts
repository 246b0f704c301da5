/**
 * A JSON answer written in pieces (decision 0172): one document, not an event stream, sent as its
 * pieces come with the socket's backpressure. The bindings give it the answer's status and
 * headers; the adapters write it as they write a stream, except that a shutdown lets it finish and
 * a failure part-way cuts the connection, so no client takes a truncated document for a whole one.
 */
import { reportIfInternal, type ErrorReporter } from '../common/error-reporting.js';
import type { OperationTelemetry } from '../common/operation-telemetry.js';
import type { HttpHeaders, HttpStreamResponse } from './http-types.js';

/** A JSON answer given as the pieces of its text, in order. */
export class JsonPieces {
  constructor(readonly pieces: AsyncIterable<string>) {}
}

/** How a piecewise answer ended: written whole, failed, or left by its client before its end. */
export type PiecesEnd = { written: true } | { error: unknown } | { gone: true };

/**
 * The response that writes `json` between `prefix` and `suffix` (a JSON-RPC envelope around a
 * result); `done` hears once how it ended, whether or not the writer ever asked for a piece.
 */
export function piecewiseResponse(
  headers: HttpHeaders,
  json: JsonPieces,
  done: (end: PiecesEnd) => void,
  prefix = '',
  suffix = '',
): HttpStreamResponse {
  let ended = false;
  const end = (how: PiecesEnd): void => {
    if (ended) return;
    ended = true;
    done(how);
  };
  async function* text(): AsyncGenerator<string> {
    if (prefix !== '') yield prefix;
    yield* json.pieces;
    if (suffix !== '') yield suffix;
  }
  const stream: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => {
      const inner = text();
      return {
        async next(): Promise<IteratorResult<string>> {
          try {
            const next = await inner.next();
            if (next.done === true) end({ written: true });
            return next;
          } catch (error) {
            end({ error });
            throw error;
          }
        },
        // The writer closes it early when the client left: before the first piece too, when a
        // generator's own `finally` would not run.
        async return(): Promise<IteratorResult<string>> {
          end({ gone: true });
          await inner.return(undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { status: 200, headers, stream, document: true };
}

/** What a call's span and metrics record for an answer its client left before its end. */
const CLIENT_LEFT = new DOMException('The client left before the answer was written', 'AbortError');

/**
 * Ends a call's telemetry as its piecewise answer ended; a failure part-way is reported as the
 * internal error it is (the client only sees its connection cut).
 */
export function endedAnswer(
  telemetry: OperationTelemetry,
  report: ErrorReporter | undefined,
  where: () => string,
): (end: PiecesEnd) => void {
  return (end) => {
    if ('error' in end) {
      telemetry.end(end.error);
      reportIfInternal(end.error, report, where);
    } else telemetry.end('gone' in end ? CLIENT_LEFT : undefined);
  };
}
