/**
 * The node:http adapter, Concord's fast path: no framework between the socket and the handler.
 * Reads bodies with a hard size limit (413 before the whole body is buffered), writes SSE with
 * backpressure (waits for `drain`), aborts the call when the client disconnects, and shuts down
 * gracefully (stops accepting, lets in-flight requests finish, then closes idle sockets). `listen`
 * caps its connections, times out silent and idle ones, and answers what node's parser refuses
 * in the binding's error envelope (decision 0146).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { A2AError, toA2AError, toRestErrorBody } from '../../protocol/internal.js';
import type { HttpApp, HttpResponse } from '../http/http-types.js';
import { publicFront } from '../http/forwarded.js';
import { ReleasingSet } from '../common/releasing-set.js';
import { answerClientErrors } from './client-errors.js';
import { ConnectionGuard, defaultMaxConnections } from './connection-guard.js';
import { advertisedHost } from './advertised-host.js';
import { endForShutdown, toHttpRequest, writeResponse } from './node-exchange.js';
import type { AccessHook, CallFacts } from '../common/access-entry.js';
import { publicBaseUrl, REQUEST_TIMEOUT_MS } from './listen-settings.js';

/** Options of the node:http request listener. */
export interface NodeHandlerOptions {
  /** Path prefix the A2A server is mounted at (e.g. `/agents/echo`); requests outside get 404. */
  basePath?: string;
  /**
   * Open SSE responses are tracked here, so a shutdown can end them (clients resume later): `add`
   * records one and returns the function that forgets it. `listen` passes its own set. The shape
   * is written out rather than named, so it costs the public surface no name (decision 0155).
   */
  streams?: { add(res: ServerResponse): () => void };
  /**
   * Receives one entry per request once its answer is fully written (a stream's end): for an
   * access log (decision 0158). Without it nothing is gathered per request.
   */
  onAccess?: AccessHook | undefined;
}

/** A `(req, res)` listener for node:http (or any server built on it). */
export function createNodeHandler(server: HttpApp, options: NodeHandlerOptions = {}) {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const onAccess = options.onAccess;
  return (req: IncomingMessage, res: ServerResponse): void => {
    const request = toHttpRequest(req, res, server.maxBodyBytes, basePath);
    if (onAccess !== undefined) {
      const facts: CallFacts = {};
      if (request !== undefined) request.facts = facts;
      reportAccess(req, res, facts, onAccess);
    }
    if (request === undefined) {
      void writeResponse(res, notMounted(req.url ?? '/'));
      return;
    }
    server
      .handle(request)
      .then(
        (response) => writeResponse(res, response, options.streams),
        (error: unknown) => writeResponse(res, internal(error)),
      )
      .catch(() => res.destroy());
  };
}

/** Hands `onAccess` its entry when the exchange ends (answer written, or the client gone). */
function reportAccess(
  req: IncomingMessage,
  res: ServerResponse,
  facts: CallFacts,
  onAccess: AccessHook,
): void {
  const started = performance.now();
  res.once('close', () => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    try {
      onAccess(
        Object.assign(
          {
            method: req.method ?? 'GET',
            target: q === -1 ? url : url.slice(0, q),
            status: res.statusCode,
            durationMs: performance.now() - started,
            remoteAddress: req.socket.remoteAddress,
          },
          facts,
        ),
      );
    } catch {
      // The hook must not throw (access-entry.ts); a throw never reaches the exchange.
    }
  });
}

function notMounted(path: string): HttpResponse {
  const body = toRestErrorBody(new A2AError('MethodNotFoundError', `Nothing is served at ${path}`));
  return { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

function internal(error: unknown): HttpResponse {
  return {
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(toRestErrorBody(toA2AError(error))),
  };
}

/** How many connections a listener keeps and how long it waits on them (decision 0146). */
export interface ConnectionOptions {
  /**
   * Connections kept at once. Past it, a new connection closes the oldest one that has not sent a
   * byte yet, or is itself closed when every one has. Default: three quarters of the process's
   * open-file limit, at most 8,192 (768 where the limit cannot be read).
   */
  maxConnections?: number | undefined;
  /**
   * Milliseconds from a connection's start (or a keep-alive request's first byte) to the end of
   * its headers (default 10 s). A connection that sends nothing in that time is closed silently;
   * one that sent part of a request gets a 408 in its binding's envelope.
   */
  headersTimeoutMs?: number | undefined;
  /** Milliseconds a keep-alive connection may wait between requests (default 5 s). */
  idleTimeoutMs?: number | undefined;
}

/** Options of `listen`. */
export interface ListenOptions extends ConnectionOptions {
  port?: number | undefined;
  host?: string | undefined;
  /** Milliseconds a request may take to send its headers and body (default 30 s). */
  requestTimeoutMs?: number | undefined;
  /** Milliseconds `close()` waits for in-flight requests before cutting them (default 10 s). */
  shutdownGraceMs?: number | undefined;
  /**
   * The URL clients reach this listener at (behind a proxy, a load balancer, TLS termination):
   * the cards' HTTP interfaces list it instead of the bound address (decision 0138). Requests are
   * served whether the proxy strips its path or keeps it (decision 0149).
   */
  publicUrl?: string | undefined;
  /**
   * Trust the proxy in front: cards list the scheme and host its `Forwarded` /
   * `X-Forwarded-Proto` / `X-Forwarded-Host` headers name (validated; decision 0149). Only for a
   * listener every client reaches through that proxy: anyone else could set them.
   */
  trustProxy?: boolean | undefined;
  /** Receives one entry per answered request, for an access log (decision 0158; see NodeHandlerOptions). */
  onAccess?: AccessHook | undefined;
}

/** A running server. */
export interface RunningServer {
  /** Base URL, ending in `/`. */
  url: string;
  server: Server;
  /** Graceful stop: no new connections, in-flight requests finish, then the store closes. */
  close(): Promise<void>;
}

/** Serves an A2A server over node:http. */
export async function listen(a2a: HttpApp, options: ListenOptions = {}): Promise<RunningServer> {
  // Checked before binding, so a bad URL leaves no listener behind.
  const publicUrl = options.publicUrl === undefined ? undefined : publicBaseUrl(options.publicUrl);
  const limits = connectionLimits(options);
  const streams = new ReleasingSet<ServerResponse>();
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      // Node checks the header and request deadlines on this interval (default 30 s, which kept a
      // silent connection up to 90 s); a quarter of the header timeout, at most a second.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    createNodeHandler(publicFront(a2a, { publicUrl, trustProxy: options.trustProxy }), {
      streams,
      onAccess: options.onAccess,
    }),
  );
  answerClientErrors(server, a2a, limits);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Counted and capped; kept for shutdown too: a connection that never sent a byte holds no
  // request, but node's closeIdleConnections leaves it open (fetch clients open such spares).
  const sockets = new ConnectionGuard(limits.maxConnections);
  server.on('connection', (socket: Socket) => sockets.admit(socket));
  const address = server.address() as AddressInfo;
  // A wildcard bind advertises the machine's name, never a loopback one (decision 0149).
  const url = `http://${advertisedHost(address.address)}:${address.port}/`;
  a2a.setBaseUrl(publicUrl ?? url);
  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    close: () => (closing ??= shutdown(server, a2a, streams, sockets, options.shutdownGraceMs ?? 10_000)),
  };
}

/** The listener's limits, checked: each a positive integer, headers no later than the request. */
function connectionLimits(
  options: ListenOptions,
): { [K in keyof ConnectionOptions]-?: number } & { requestTimeoutMs: number } {
  const limits = {
    maxConnections: options.maxConnections ?? defaultMaxConnections(),
    headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 5_000,
    requestTimeoutMs: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`${name}: expected a positive integer, got ${String(value)}`);
    }
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new TypeError(
      `headersTimeoutMs (${limits.headersTimeoutMs}) exceeds requestTimeoutMs (${limits.requestTimeoutMs}): the headers are part of the request`,
    );
  }
  return limits;
}

async function shutdown(
  server: Server,
  a2a: HttpApp,
  streams: ReleasingSet<ServerResponse>,
  sockets: ConnectionGuard,
  graceMs: number,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A stream may last as long as its task; end it now, the client resumes with Last-Event-ID.
  // Their calls' signals say it was a shutdown: the stream spans record it (decision 0157).
  for (const res of streams.values()) endForShutdown(res);
  // Keep-alive sockets become idle as their in-flight requests finish; close them as they do.
  const closeIdle = (): void => {
    server.closeIdleConnections();
    for (const socket of sockets.sockets()) if (socket.bytesRead === 0) socket.destroy();
  };
  const sweeper = setInterval(closeIdle, 25);
  closeIdle();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearInterval(sweeper);
  clearTimeout(timer);
  await a2a.close();
}
export { answerClientErrors } from './client-errors.js';
