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
import {
  isStreamResponse,
  type HttpApp,
  type HttpBodyResponse,
  type HttpRequest,
  type HttpResponse,
  type HttpStreamResponse,
} from '../http/http-types.js';
import { publicFront } from '../http/forwarded.js';
import { ReleasingSet } from '../common/releasing-set.js';
import { answerClientErrors } from './client-errors.js';
import { ConnectionGuard, defaultMaxConnections } from './connection-guard.js';
import { readBodyBefore, tooLarge } from './pre-read-body.js';
import { advertisedHost } from './advertised-host.js';
import { TurnWrites } from './turn-writes.js';

/**
 * Where open SSE responses are recorded: `add` records one and returns the function that forgets
 * it. `listen` passes its own internal set, whose layout keeps finished streams out of V8's old
 * generation (docs/performance.md, 'Releasing registries'); that set is server code, not public
 * surface.
 */
export interface StreamRegistry {
  add(res: ServerResponse): () => void;
}

/** Options of the node:http request listener. */
export interface NodeHandlerOptions {
  /** Path prefix the A2A server is mounted at (e.g. `/agents/echo`); requests outside get 404. */
  basePath?: string;
  /** Open SSE responses are tracked here, so a shutdown can end them (clients resume later). */
  streams?: StreamRegistry;
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  // A body parser mounted in front (express.json()) has read the stream: no 'end' will come.
  if (req.readableEnded || req.readableDidRead) return readBodyBefore(req, limit);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Once the body is read (or refused), nothing of this call stays attached to the request.
    // Left on it, these closures tied every send's request to V8's old generation through
    // scavenges (docs/performance.md, 'Releasing registries'); an IncomingMessage with no 'error'
    // listener never emits one.
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** The abort reason of every request signal: the HTTP exchange is over (an AbortError, as usual). */
const EXCHANGE_ENDED = new DOMException('The HTTP exchange ended', 'AbortError');

/**
 * A node request seen as an HttpRequest. A class with lazy members rather than an object of
 * closures: the query, the abort signal and the origin are built only when something asks (most
 * calls never do), which keeps the per-request cost near that of a bare handler.
 */
class NodeHttpRequest implements HttpRequest {
  private parsedQuery: URLSearchParams | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly maxBodyBytes: number,
    private readonly basePath: string,
    readonly method: string,
    readonly path: string,
    private readonly rawQuery: string,
  ) {}

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  text(): Promise<string> {
    return readBody(this.req, this.maxBodyBytes);
  }

  // 'close' on the response fires when the exchange ends or the client goes away. Every stream
  // ends so, so the reason is made once: `abort()` without one builds a DOMException with a stack
  // trace each time, which was 5% of a streaming benchmark's time.
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const made = new AbortController();
      this.controller = made;
      if (this.res.closed) made.abort(EXCHANGE_ENDED);
      else this.res.once('close', () => made.abort(EXCHANGE_ENDED));
    }
    return this.controller.signal;
  }

  get origin(): string {
    return `http://${this.req.headers.host ?? 'localhost'}${this.basePath}`;
  }

  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }
}

/** Adapts a node request to the transport-neutral HttpRequest; undefined outside `basePath`. */
export function toHttpRequest(
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
  basePath = '',
): HttpRequest | undefined {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  if (basePath !== '') {
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
    path = path.slice(basePath.length) || '/';
  }
  return new NodeHttpRequest(
    req,
    res,
    maxBodyBytes,
    basePath,
    req.method ?? 'GET',
    path,
    q === -1 ? '' : url.slice(q + 1),
  );
}

function writePlain(res: ServerResponse, response: HttpBodyResponse): void {
  response.headers['content-length'] = String(Buffer.byteLength(response.body));
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** Plain responses go out together at the end of the event-loop turn (turn-writes.ts). */
const plainWrites = new TurnWrites(writePlain);

/** Whether a stream's response is corked until the end of the current turn. */
interface StreamTurn {
  corked: boolean;
}

/** Uncorks each stream that wrote this turn, in the turn's check phase. */
const streamUncorks = new TurnWrites<StreamTurn>((res, turn) => {
  turn.corked = false;
  res.uncork();
});

function corkForTurn(res: ServerResponse, turn: StreamTurn): void {
  if (turn.corked) return;
  turn.corked = true;
  res.cork();
  streamUncorks.add(res, turn);
}

/**
 * Writes an HttpResponse: plain bodies at the end of this event-loop turn, together with the
 * turn's other responses (docs/performance.md, 'End-of-turn writes'); streams as their events come,
 * with backpressure, each turn's events flushed together at the end of that turn.
 */
export function writeResponse(
  res: ServerResponse,
  response: HttpResponse,
  streams?: StreamRegistry,
): Promise<void> | void {
  if (!isStreamResponse(response)) {
    plainWrites.add(res, response);
    return;
  }
  return writeStream(res, response, streams);
}

async function writeStream(
  res: ServerResponse,
  response: HttpStreamResponse,
  streams: StreamRegistry | undefined,
): Promise<void> {
  // Corked until the end of the turn, like plain responses (docs/performance.md, 'End-of-turn
  // writes'): the headers and the events that are ready together leave in one write, and a stream
  // that ends within the turn (a quick task) is one write in all.
  const turn: StreamTurn = { corked: false };
  corkForTurn(res, turn);
  res.writeHead(response.status, response.headers);
  res.flushHeaders();
  const untrack = streams?.add(res);
  const iterator = response.stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (res.destroyed) break;
      const next = await iterator.next();
      if (next.done === true) break;
      corkForTurn(res, turn);
      if (!res.write(next.value)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
  } finally {
    untrack?.();
    void iterator.return?.(undefined);
    res.end();
  }
}

/** A `(req, res)` listener for node:http (or any server built on it). */
export function createNodeHandler(server: HttpApp, options: NodeHandlerOptions = {}) {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  return (req: IncomingMessage, res: ServerResponse): void => {
    const request = toHttpRequest(req, res, server.maxBodyBytes, basePath);
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
    createNodeHandler(publicFront(a2a, { publicUrl, trustProxy: options.trustProxy }), { streams }),
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

/** The default `requestTimeoutMs` of `listen`: the whole request, headers and body. */
export const REQUEST_TIMEOUT_MS = 30_000;

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

/** A public URL as a base URL: absolute http(s), ending in `/` (paths below it are relative). */
export function publicBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`publicUrl: ${JSON.stringify(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`publicUrl: ${JSON.stringify(text)} is not an http(s) URL`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`publicUrl: ${JSON.stringify(text)} has a query or fragment`);
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
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
  for (const res of streams.values()) res.end();
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
