/**
 * Express glue: a middleware that serves the A2A server at the path it is mounted on
 * (`app.use('/agent', a2aExpress(server))`). Concord reads the raw body itself, with its size
 * limit; mounted after a body parser (`express.json()`), it takes the parsed `req.body` instead,
 * measured against the same limit (decision 0146). Express is not a dependency; any framework
 * with node-style `(req, res, next)` middleware works the same way. On a server of your own,
 * `answerClientErrors(server, a2a)` (concord/server/node) answers what node's parser refuses in
 * A2A's envelopes, as `listen` does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpApp } from '../http/http-types.js';
import { toHttpRequest, writeResponse } from './node-exchange.js';

/** A node-style middleware (Express, Connect, Polka). */
export type NodeMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** Creates the middleware; unknown paths under the mount point get the A2A 404 error body. */
export function a2aExpress(server: HttpApp): NodeMiddleware {
  return (req, res, next) => {
    const request = toHttpRequest(req, res, server.maxBodyBytes);
    if (request === undefined) {
      next();
      return;
    }
    // Express rewrites req.url to be relative to the mount point, which is what routing needs.
    server
      .handle(request)
      .then((response) => writeResponse(res, response))
      .catch(next);
  };
}
