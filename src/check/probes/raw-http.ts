/**
 * Raw HTTP for the checks that must see the wire as it is, or send what no client would
 * (malformed JSON, wrong method names, an unsupported A2A-Version): one request, the answer's
 * status, headers and body text, nothing decoded. Every target still passes the client's SSRF
 * guard (`checkTarget`) and the connection goes to the address that was checked.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkTarget, type NetworkPolicy, type ResolvedAddress } from '../../client/internal.js';

/** A request to send as is. */
export interface RawRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers?: Record<string, string>;
  /** The body text exactly as it goes on the wire. */
  body?: string;
}

/** An answer as received. */
export interface RawAnswer {
  status: number;
  /** Lower-case names, repeated values joined with ", ". */
  headers: Record<string, string>;
  /** The base media type, lower case (`application/json`). */
  mediaType: string;
  text: string;
  /** How reading ended: the server closed the body, the reader stopped, or the time ran out. */
  ended: 'closed' | 'stopped' | 'timeout';
}

/** Lets a stream reader stop early or shorten its own deadline. */
export interface ReadControl {
  /** The answer's base media type (`text/event-stream`, `application/json`). */
  readonly mediaType: string;
  stop(): void;
  /** Stop reading at most `ms` from now (never extends the deadline). */
  within(ms: number): void;
}

/** How raw requests are sent. */
export interface RawHttpOptions extends NetworkPolicy {
  timeoutMs: number;
}

const MAX_TEXT = 4 * 1024 * 1024;

function pinned(target: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Sends one request and reads the answer until the server closes it, `onText` stops it, or
 * `timeoutMs` passes (a stream that never ends is reported as `ended: 'timeout'`, not an error).
 * Connection failures reject with the underlying error.
 */
export async function rawExchange(
  request: RawRequest,
  options: RawHttpOptions,
  onText?: (chunk: string, control: ReadControl) => void,
): Promise<RawAnswer> {
  const target = await checkTarget(request.url, options);
  const transport = request.url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise<RawAnswer>((resolve, reject) => {
    let deadline = Date.now() + options.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let finish: (ended: RawAnswer['ended']) => void = () => undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish('timeout'), Math.max(0, deadline - Date.now()));
    };
    const outgoing = transport.request({
      method: request.method,
      hostname: request.url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: request.url.port === '' ? undefined : Number(request.url.port),
      path: `${request.url.pathname}${request.url.search}`,
      headers,
      lookup: pinned(target),
      agent: false,
    });
    finish = (): void => {
      clearTimeout(timer);
      outgoing.destroy();
      reject(new Error(`no answer from ${request.url.href} within ${options.timeoutMs} ms`));
    };
    arm();
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.on('response', (response) => {
      const answerHeaders = headersOf(response);
      const mediaType = (answerHeaders['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      let text = '';
      let done = false;
      finish = (ended): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (ended !== 'closed') response.destroy();
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, mediaType, text, ended });
      };
      const control: ReadControl = {
        mediaType,
        stop: () => finish('stopped'),
        within: (ms) => {
          if (Date.now() + ms < deadline) {
            deadline = Date.now() + ms;
            arm();
          }
        },
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (done) return;
        text += chunk;
        if (text.length > MAX_TEXT) finish('stopped');
        else onText?.(chunk, control);
      });
      response.on('end', () => finish('closed'));
      response.on('error', () => finish('closed'));
      response.on('aborted', () => finish('closed'));
    });
    outgoing.end(request.body);
  });
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}... (${text.length} chars)` : text;
}

const SHOWN_HEADERS = ['a2a-version', 'a2a-extensions', 'x-a2a-extensions', 'content-type', 'last-event-id'];

/** A request in one line, for evidence (credentials never shown). */
export function describeRequest(request: RawRequest): string {
  const headers = Object.entries(request.headers ?? {})
    .filter(([name]) => SHOWN_HEADERS.includes(name.toLowerCase()))
    .map(([name, value]) => `${name}: ${value}`);
  const head = `${request.method} ${request.url.href}${headers.length > 0 ? ` [${headers.join('; ')}]` : ''}`;
  return request.body === undefined ? head : `${head} ${clip(request.body, 400)}`;
}

/** An answer in one line, for evidence. */
export function describeAnswer(answer: RawAnswer): string {
  const type = answer.headers['content-type'] ?? 'no content type';
  const body = answer.text.trim() === '' ? '(empty body)' : clip(answer.text.trim(), 600);
  return `HTTP ${answer.status} (${type}) ${body}`;
}

/** The answer's body as JSON, or undefined when it is not JSON. */
export function jsonOf(answer: RawAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}
