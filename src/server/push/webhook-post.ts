/**
 * One webhook POST over node:http / node:https to the address the guard checked (the DNS answer
 * pinned through the net layer's `pinnedLookup`; TLS still verifies the certificate against the
 * host name). Redirects are not followed: a 3xx is a failed delivery, since the next hop could be
 * anywhere, the guard's refusals included. The answer's body is read and dropped (at most 64 KiB)
 * so the connection closes cleanly.
 */
import http from 'node:http';
import https from 'node:https';
import { bareHostname, pinnedLookup, type ResolvedAddress } from '../../net/index.js';

/** The most of an answer body read before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Thrown when no HTTP answer came: refused connection, reset, timeout. */
export class WebhookNetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WebhookNetworkError';
  }
}

/** POSTs `body` to `url` at `target`; resolves with the HTTP status once the answer arrived. */
export function postWebhook(
  url: URL,
  target: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = transport.request({
      method: 'POST',
      hostname: bareHostname(url),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: Object.assign({}, headers, { 'content-length': String(Buffer.byteLength(body)) }),
      lookup: pinnedLookup(target),
      // One connection per delivery: a pooled socket could outlive the address check.
      agent: false,
      timeout: timeoutMs,
    });
    const timer = setTimeout(() => {
      request.destroy(new WebhookNetworkError(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    request.on('timeout', () => request.destroy(new WebhookNetworkError(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(
        error instanceof WebhookNetworkError
          ? error
          : new WebhookNetworkError(error.message, { cause: error }),
      );
    });
    request.on('response', (response) => {
      // The status is what counts; the timer still bounds how long the body may take.
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      response.on('error', () => undefined);
      response.on('close', () => {
        clearTimeout(timer);
        resolve(response.statusCode ?? 0);
      });
    });
    request.end(body);
  });
}
