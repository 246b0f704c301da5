/**
 * Requests node's HTTP parser refuses before any handler runs (decision 0146): header fields over
 * the limit, a malformed request, a request not complete in time. Node answers those with a bare
 * status line and an empty body (431, 400, 408); here they get the error envelope of the binding
 * the request was for, which the app builds (`HttpApp.refusal`), so clients read the same error
 * shapes as for every other refusal. The binding is read from the request line when the read that
 * failed held it (one read almost always holds a whole header block); otherwise the HTTP+JSON 1.0
 * envelope is sent.
 */
import { maxHeaderSize, STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { A2AError, toRestErrorBody } from '../../protocol/internal.js';
import type { HttpApp, HttpBodyResponse, RefusedRequest } from '../http/http-types.js';

/** The listener's time limits, named in the 408 message. */
export interface RefusalLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** A clientError as node raises it: the parser's code, and the bytes of the read that failed. */
interface ClientError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/**
 * Answers `server`'s client errors with `app`'s envelopes. `listen` installs it; call it yourself
 * on a node:http server of your own (one that serves `a2aExpress`, say).
 */
export function answerClientErrors(server: Server, app: HttpApp, limits?: Partial<RefusalLimits>): void {
  const known: RefusalLimits = {
    headersTimeoutMs: limits?.headersTimeoutMs ?? server.headersTimeout,
    requestTimeoutMs: limits?.requestTimeoutMs ?? server.requestTimeout,
  };
  server.on('clientError', (error: ClientError, socket: Duplex) => answer(app, known, error, socket));
}

function answer(app: HttpApp, limits: RefusalLimits, error: ClientError, socket: Duplex): void {
  const refused = refusalOf(error, limits);
  if (refused === undefined || !socket.writable || (socket as Socket).bytesRead === 0) {
    // A reset, or a connection that timed out without sending a byte (a client's spare
    // connection, or one of a flood): there is no request to answer.
    socket.destroy();
    return;
  }
  const pending = pendingResponse(socket);
  if (pending?.headersSent === true) {
    // A response is under way on this connection; another status line would corrupt it.
    socket.destroy();
    return;
  }
  const seen = pending === undefined ? seenIn(error.rawPacket) : seenOf(pending);
  let response: HttpBodyResponse;
  try {
    response = app.refusal?.(refused, seen) ?? plainRefusal(refused);
  } catch {
    response = plainRefusal(refused);
  }
  // Closed once written: the parser cannot go on after an error, and a client that leaves the
  // connection half-open must not keep its descriptor.
  socket.end(serialized(response), () => socket.destroy());
}

/** The error to send for a parser error; undefined when there is nobody to answer. */
function refusalOf(error: ClientError, limits: RefusalLimits): A2AError | undefined {
  const code = error.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new A2AError(
      'HeadersTooLargeError',
      `The request's header fields exceed the limit of ${maxHeaderSize} bytes`,
      { metadata: { limitBytes: String(maxHeaderSize) } },
    );
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return new A2AError('PayloadTooLargeError', 'The request body has chunk extensions over the limit');
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new A2AError(
      'RequestTimeoutError',
      `The request was not received in time: headers within ${limits.headersTimeoutMs} ms, ` +
        `the whole request within ${limits.requestTimeoutMs} ms`,
      {
        metadata: {
          headersTimeoutMs: String(limits.headersTimeoutMs),
          requestTimeoutMs: String(limits.requestTimeoutMs),
        },
      },
    );
  }
  if (code.startsWith('HPE_')) {
    // llhttp's reason names what was wrong ("Invalid header value char") and echoes no input.
    const reason = error.message.replace(/^Parse Error:\s*/, '');
    return new A2AError('MalformedHttpRequestError', `Malformed HTTP request: ${reason}`, {
      metadata: { parserError: code },
    });
  }
  return undefined;
}

/**
 * The response node has made for this connection's current request, when the parser got that far
 * (a body that broke off, or timed out): node keeps it as `_httpMessage`, as its own clientError
 * default does.
 */
function pendingResponse(socket: Duplex): ServerResponse | undefined {
  const pending = (socket as { _httpMessage?: unknown })._httpMessage;
  return pending !== null && typeof pending === 'object' ? (pending as ServerResponse) : undefined;
}

function seenOf(response: ServerResponse): RefusedRequest {
  const { req } = response;
  const seen: RefusedRequest = {};
  if (req.method !== undefined) seen.method = req.method;
  const path = pathOf(req.url);
  if (path !== undefined) seen.path = path;
  const version = req.headers['a2a-version'];
  if (typeof version === 'string') seen.version = version;
  return seen;
}

const REQUEST_LINE = /^(?:\r?\n)*([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/\d\.\d\r?\n/;
const VERSION_HEADER = /\r?\na2a-version:[ \t]*([^\r\n]*?)[ \t]*\r?\n/i;

/** The request line and A2A-Version header, when the read that failed held them. */
function seenIn(raw: unknown): RefusedRequest {
  if (!Buffer.isBuffer(raw)) return {};
  let text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end !== -1) text = text.slice(0, end + 2);
  const line = REQUEST_LINE.exec(text);
  if (line === null) return {};
  const seen: RefusedRequest = { method: line[1]!.toUpperCase() };
  const path = pathOf(line[2]);
  if (path !== undefined) seen.path = path;
  const version = VERSION_HEADER.exec(text.slice(line[0].length - 2));
  if (version !== null) seen.version = version[1]!;
  return seen;
}

/** The path of a request target: origin form, or the absolute form proxies send. */
function pathOf(target: string | undefined): string | undefined {
  if (target === undefined) return undefined;
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).pathname;
    } catch {
      return undefined;
    }
  }
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** The HTTP+JSON 1.0 envelope, for apps without `refusal`. */
function plainRefusal(error: A2AError): HttpBodyResponse {
  return {
    status: error.entry.httpStatus,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(toRestErrorBody(error)),
  };
}

function serialized(response: HttpBodyResponse): string {
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n`;
  for (const [name, value] of Object.entries(response.headers)) {
    if (name === 'content-length' || name === 'connection' || /[\r\n]/.test(name + value)) continue;
    head += `${name}: ${value}\r\n`;
  }
  return `${head}content-length: ${Buffer.byteLength(response.body)}\r\nconnection: close\r\n\r\n${response.body}`;
}
