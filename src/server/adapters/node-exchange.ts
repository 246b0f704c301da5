/**
 * The node:http exchange seen as Concord's transport-neutral one: a node request as an
 * HttpRequest (read with a hard size limit), an HttpResponse written back to node (plain bodies at
 * the end of the turn, SSE with backpressure). `createNodeHandler` and the Express adapter share it;
 * the CLI, the host and the tests reach it through src/server/internal.ts (decision 0155), since no
 * user of `concord-a2a/server/node` needs it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isStreamResponse,
  type HttpBodyResponse,
  type HttpRequest,
  type HttpResponse,
  type HttpStreamResponse,
} from '../http/http-types.js';
import { readBodyBefore, tooLarge } from './pre-read-body.js';
import { SERVER_SHUTDOWN } from '../common/operation-telemetry.js';
import type { CallFacts } from '../common/access-entry.js';
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

/** Responses a listener's shutdown ended: their request signals abort with SERVER_SHUTDOWN. */
const endedByShutdown = new WeakSet<ServerResponse>();

/**
 * Ends an open stream for a shutdown (the client resumes with Last-Event-ID elsewhere or later):
 * its call's signal says so, so the stream's span records `shutdown` (decision 0157).
 */
export function endForShutdown(res: ServerResponse): void {
  endedByShutdown.add(res);
  res.end();
}

/**
 * A node request seen as an HttpRequest. A class with lazy members rather than an object of
 * closures: the query, the abort signal and the origin are built only when something asks (most
 * calls never do), which keeps the per-request cost near that of a bare handler.
 */
class NodeHttpRequest implements HttpRequest {
  private parsedQuery: URLSearchParams | undefined;
  private controller: AbortController | undefined;
  /** Set by the listener when it has an `onAccess` hook (decision 0158). */
  facts?: CallFacts | undefined;

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

  // 'close' on the response fires when the exchange ends or the client goes away. The signal
  // aborts only when the answer was cut short: the client left before the response finished
  // (HttpRequest: "aborted when the client disconnects"), or a shutdown ended the stream. After
  // an answer written in full nothing waits on the signal (a stream's producer has returned), and
  // aborting it anyway, with its Event and dispatch, was about 3% of a stream's CPU
  // (docs/performance.md, 'Where the time goes'). The reason is made once: `abort()` without one
  // builds a DOMException with a stack trace each time, which was 5% of a streaming benchmark's time.
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const made = new AbortController();
      this.controller = made;
      const { res } = this;
      const onClose = (): void => {
        if (endedByShutdown.has(res)) made.abort(SERVER_SHUTDOWN);
        else if (!res.writableFinished) made.abort(EXCHANGE_ENDED);
      };
      if (res.closed) onClose();
      else res.once('close', onClose);
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
  /** The stream ended while corked: its end is written with the turn's other writes. */
  ended: boolean;
}

/**
 * Uncorks each stream that wrote this turn, in the turn's check phase; a stream that also ended
 * this turn is ended there instead, which uncorks it and adds the last chunk to the same write.
 */
const streamUncorks = new TurnWrites<StreamTurn>((res, turn) => {
  turn.corked = false;
  if (!turn.ended) res.uncork();
  else if (!res.writableEnded && !res.destroyed) res.end();
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
  const turn: StreamTurn = { corked: false, ended: false };
  corkForTurn(res, turn);
  res.writeHead(response.status, response.headers);
  res.flushHeaders();
  // A document written in pieces is not ended by a shutdown: cut short, it would be a broken one.
  const untrack = response.document === true ? undefined : streams?.add(res);
  const iterator = response.stream[Symbol.asyncIterator]();
  let failed = false;
  // Over once the client left (destroyed) or the response was ended: a shutdown ends open streams
  // (endForShutdown) while their sockets stay up until the end is flushed, and an event written in
  // between is a write after end, an 'error' nobody listens to, so an uncaught exception (issue 27).
  // Checked again after each wait for an event, the wait in which the end comes.
  const over = (): boolean => res.destroyed || res.writableEnded;
  try {
    for (;;) {
      if (over()) break;
      // A producer that fails part-way (a document's store read; an event stream's producer
      // turns its failures into events) cuts the connection rather than ending the body, so the
      // client sees the answer broken, never shorter yet whole.
      let next: IteratorResult<string>;
      try {
        next = await iterator.next();
      } catch {
        failed = true;
        break;
      }
      if (next.done === true || over()) break;
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
    // Closes the producer (the task's subscription) however the loop ended; a producer that fails
    // while closing has no one left to tell, the response being over.
    iterator.return?.(undefined).catch(() => undefined);
    // node's end() uncorks at once ("fully uncork connection on end()"), so a stream that ends in
    // the turn it wrote in (a quick task: its whole answer) would go out alone, waking its reader
    // for it; it is ended in the turn's check phase instead, with the turn's other writes.
    if (failed) res.destroy();
    else if (!res.writableEnded) {
      if (turn.corked && !res.destroyed) turn.ended = true;
      else res.end();
    }
  }
}
