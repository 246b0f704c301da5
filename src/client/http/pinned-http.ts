/**
 * HTTP for the client over node:http / node:https, with the DNS answer pinned (decision 0019):
 * the host is resolved and checked once (address-guard.ts), then the socket is opened to exactly
 * that address through a custom `lookup`, so DNS rebinding between check and connect is
 * impossible. TLS still verifies the certificate against the hostname (SNI is the hostname).
 * node's global fetch (undici) cannot take a lookup without the `undici` package, which Concord
 * does not depend on (docs/decisions/0019-client.md). Connections are kept alive in the client's
 * pool (connection-pool.ts, decision 0137) when one is given.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { bareHostname, pinnedLookup } from '../../net/index.js';
import { checkTarget, type NetworkPolicy, type ResolvedAddress } from './address-guard.js';
import { A2ALocalError, StreamIdleError } from '../client-errors.js';
import type { ConnectionPool } from './connection-pool.js';
import type { Deadline } from './deadline.js';

/** One request to send. */
export interface HttpRequestSpec {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Default bound of a unary answer read into memory (a card, a task, a list page): a safety limit
 * against a server that sends without end, raised per client with `maxResponseBytes` when tasks
 * carry larger artifacts (issue 27).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** A redirect body read out to keep its connection; a longer one closes the connection instead. */
const DISCARD_READ_LIMIT = 64 * 1024;

/** An answer whose headers have arrived; the body is read once, as text or as chunks. */
export class HttpAnswer {
  /** Response headers, lower-case names, repeated values joined with ", ". */
  readonly headers: Record<string, string> = {};

  /** Sees the body as it is read: whole from `text`, chunk by chunk from `chunks` (interceptors' `received`). */
  onBody: ((text: string) => void) | undefined;

  constructor(
    readonly url: URL,
    private readonly response: IncomingMessage,
    private readonly deadline: Deadline,
  ) {
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) this.headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }

  /** The HTTP status. */
  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** The base media type of the body (`text/event-stream`, `application/json`...). */
  get mediaType(): string {
    return (this.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  }

  /** Reads the whole body as UTF-8; a body longer than `maxBytes` fails (BAD_RESPONSE) naming the limit. */
  async text(maxBytes = DEFAULT_MAX_RESPONSE_BYTES): Promise<string> {
    const parts: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of this.response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          this.close();
          throw new A2ALocalError(
            'BAD_RESPONSE',
            `${this.url.href} answered more than ${maxBytes} bytes (the client's maxResponseBytes)`,
            {
              httpStatus: this.status,
              url: this.url.href,
            },
          );
        }
        parts.push(chunk);
      }
    } catch (error) {
      throw this.failure(error);
    }
    const text = Buffer.concat(parts).toString('utf8');
    this.onBody?.(text);
    return text;
  }

  /**
   * The body as UTF-8 text chunks, as they arrive (for SSE). With `idleTimeoutMs` > 0, a body that
   * sends nothing for that long (no event, no heartbeat comment) fails as a dropped connection
   * (NETWORK), which a resumable stream answers by re-attaching (decision 0137).
   */
  async *chunks(idleTimeoutMs = 0): AsyncGenerator<string> {
    this.response.setEncoding('utf8');
    const onIdle = (): void => {
      this.response.destroy(
        new StreamIdleError(
          `${this.url.host} sent nothing on the stream for ${idleTimeoutMs} ms (no event, no heartbeat)`,
          this.url.href,
        ),
      );
    };
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      if (idleTimeoutMs > 0) idle = setTimeout(onIdle, idleTimeoutMs);
    };
    arm();
    try {
      for await (const chunk of this.response as AsyncIterable<string>) {
        // Only the server's silence counts: the clock stops while the caller handles the chunk
        // (a cleared timer cannot be refreshed, so each wait gets a new one).
        clearTimeout(idle);
        this.onBody?.(chunk);
        yield chunk;
        arm();
      }
    } catch (error) {
      throw this.failure(error);
    } finally {
      clearTimeout(idle);
    }
  }

  /**
   * Drops the body of an answer nobody reads (a redirect's). A short body with a known length is
   * read out, so the kept-alive connection can serve the next request; anything else (chunked,
   * or long) closes the connection rather than read whatever a server keeps sending.
   */
  discard(): void {
    const length = Number(this.response.headers['content-length']);
    if (Number.isFinite(length) && length <= DISCARD_READ_LIMIT) this.response.resume();
    else this.response.destroy();
  }

  /** Drops the connection (a stream the caller stopped reading). */
  close(): void {
    this.response.destroy();
  }

  private failure(error: unknown): Error {
    if (error instanceof A2ALocalError) return error;
    if (this.deadline.aborted) return this.deadline.error(`Reading ${this.url.href}`);
    return new A2ALocalError(
      'NETWORK',
      `Connection to ${this.url.host} dropped: ${(error as Error).message}`,
      {
        cause: error,
        url: this.url.href,
      },
    );
  }
}

/** Errors of a reused socket the server had closed while it was idle in the pool. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** A reused pooled socket failed before any answer: most likely closed by the server while idle. */
class StaleSocket extends Error {
  constructor(readonly failure: A2ALocalError) {
    super(failure.message);
  }
}

/**
 * True for a request that may be sent again after a stale socket: a GET or HEAD, or one that
 * carries an Idempotency-Key (a server that honours it runs it once even if the first copy did
 * arrive). Others (a cancel, a push-config create) surface the failure instead.
 */
function replayable(spec: HttpRequestSpec): boolean {
  return spec.method === 'GET' || spec.method === 'HEAD' || spec.headers['idempotency-key'] !== undefined;
}

/**
 * Sends one request to the policy-checked, pinned address and resolves when the headers arrive.
 * Failures are A2ALocalErrors: SSRF_BLOCKED, NETWORK, TIMEOUT or ABORTED (from `deadline`). With a
 * `pool`, a kept-alive socket is used when one is idle; when it turns out closed by the server
 * (reset before any answer), a replayable request is sent again on another socket (RFC 9112
 * §9.3.1; decision 0137).
 */
export async function sendHttp(
  spec: HttpRequestSpec,
  policy: NetworkPolicy,
  deadline: Deadline,
  pool?: ConnectionPool,
): Promise<HttpAnswer> {
  const what = `${spec.method} ${spec.url.href}`;
  if (deadline.aborted) throw deadline.error(what);
  const target = await checkTarget(spec.url, policy);
  for (;;) {
    if (deadline.aborted) throw deadline.error(what);
    try {
      return await exchange(spec, target, deadline, pool?.agentFor(spec.url) ?? false, pool?.tlsOptions());
    } catch (error) {
      // Each stale socket is destroyed by its failure, so this ends at a fresh connection.
      if (!(error instanceof StaleSocket)) throw error;
      if (!replayable(spec)) throw error.failure;
    }
  }
}

function exchange(
  spec: HttpRequestSpec,
  target: ResolvedAddress,
  deadline: Deadline,
  agent: http.Agent | false,
  tls: https.RequestOptions = {},
): Promise<HttpAnswer> {
  const what = `${spec.method} ${spec.url.href}`;
  const transport = spec.url.protocol === 'https:' ? https : http;
  return new Promise<HttpAnswer>((resolve, reject) => {
    const headers: Record<string, string> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = String(Buffer.byteLength(spec.body));
    const request = transport.request({
      method: spec.method,
      hostname: bareHostname(spec.url),
      port: spec.url.port === '' ? undefined : Number(spec.url.port),
      path: `${spec.url.pathname}${spec.url.search}`,
      headers,
      // Only a new socket looks the host up; it gets the checked address (the file comment).
      lookup: pinnedLookup(target),
      agent,
      // The pool's TLS options also on a request without its agent (one made after it closed).
      ...(transport === https ? tls : {}),
    });
    const onAbort = (): void => {
      request.destroy(deadline.error(what));
    };
    deadline.signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) => {
      deadline.signal.removeEventListener('abort', onAbort);
      if (error instanceof A2ALocalError) reject(error);
      else if (deadline.aborted) reject(deadline.error(what));
      else {
        const failure = new A2ALocalError('NETWORK', `${what} failed: ${error.message}`, {
          cause: error,
          url: spec.url.href,
        });
        const stale = request.reusedSocket && STALE_SOCKET_CODES.has(error.code ?? '');
        reject(stale ? new StaleSocket(failure) : failure);
      }
    });
    request.on('response', (response) => {
      // From here the answer owns the socket; an abort destroys the body stream instead.
      deadline.signal.removeEventListener('abort', onAbort);
      // A body nobody reads any more (a closed stream) may still fail; readers see errors themselves.
      response.on('error', () => undefined);
      deadline.signal.addEventListener('abort', () => response.destroy(deadline.error(what)), { once: true });
      resolve(new HttpAnswer(spec.url, response, deadline));
    });
    request.end(spec.body);
  });
}
