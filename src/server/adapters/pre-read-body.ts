/**
 * A request body some middleware read before Concord's handler ran (decision 0146): `express.json()`
 * (or `express.text()`, `express.raw()`, any body-parser) mounted in front of `a2aExpress` reads the
 * stream and leaves the result on `req.body`, so waiting for the stream's end waited forever and
 * every call hung. The parsed body is used instead, measured against the same size limit: a parsed
 * JSON value is written out again (the bindings parse it back; nothing they read changes), a string
 * or a Buffer is taken as sent. A stream read with nothing left behind fails at once, saying what
 * to change.
 */
import type { IncomingMessage } from 'node:http';
import { A2AError } from '../../protocol/index.js';

/** The 413 of a body over `limit` bytes. */
export function tooLarge(limit: number): A2AError {
  return new A2AError('PayloadTooLargeError', `Request body exceeds the limit of ${limit} bytes`, {
    metadata: { limitBytes: String(limit) },
  });
}

/** The body a middleware read before the handler, as text; rejects when none was left. */
export function readBodyBefore(req: IncomingMessage, limit: number): Promise<string> {
  const parsed = (req as { body?: unknown }).body;
  let text: string;
  if (typeof parsed === 'string') text = parsed;
  else if (Buffer.isBuffer(parsed)) text = parsed.toString('utf8');
  else if (parsed !== undefined) text = JSON.stringify(parsed) ?? '';
  // Ended without a byte ever read: the body was empty.
  else if (!req.readableDidRead) text = '';
  else {
    return Promise.reject(
      new A2AError(
        'InternalError',
        'The request body was read before the A2A handler ran and no parsed body was left on ' +
          'req.body: mount a2aExpress (or the node handler) before any middleware that reads bodies',
      ),
    );
  }
  if (Buffer.byteLength(text) > limit) return Promise.reject(tooLarge(limit));
  return Promise.resolve(text);
}
