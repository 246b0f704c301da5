/**
 * Public, cacheable JSON documents (agent cards, key sets): a strong ETag over the body, the time
 * the body was built as `Last-Modified` (A2A 1.0 §8.6 lets cards carry it, decision 0134),
 * `Cache-Control: max-age`, and `304 Not Modified` for a matching `If-None-Match` or, when the
 * request has no `If-None-Match`, an `If-Modified-Since` no earlier than that time (RFC 9110
 * §13.1.2-§13.1.3, precedence per §13.2.2; `*` and weak tags also match for GET).
 */
import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse } from './http-types.js';

/** The strong ETag of a body. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** `date` to whole seconds, the resolution of HTTP dates (RFC 9110 §5.6.7). */
export function httpDateSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

function notModified(request: HttpRequest, etag: string, modifiedSeconds: number | undefined): boolean {
  // `modifiedSeconds` undefined: no date, or one that cannot tell versions apart (see callers).
  const match = request.header('if-none-match');
  if (match !== undefined) {
    return match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
  }
  const since = request.header('if-modified-since');
  if (since === undefined || modifiedSeconds === undefined) return false;
  // RFC 9110 §13.1.3: an invalid date, or one in the future, is ignored.
  const sinceMs = Date.parse(since);
  if (Number.isNaN(sinceMs) || sinceMs > Date.now()) return false;
  return modifiedSeconds <= Math.floor(sinceMs / 1000);
}

/** Answers a GET or HEAD for `body`, with caching headers and conditional-request handling. */
export function cacheableJson(
  request: HttpRequest,
  body: string,
  options: {
    etag?: string;
    lastModified?: Date;
    /** False: send `Last-Modified` but answer `If-Modified-Since` with the body (default true). */
    useModifiedSince?: boolean;
    maxAgeSeconds: number;
    vary?: string;
    /** Default `application/json`. */
    contentType?: string;
    /** The body depends on the caller's credentials: `private`, so shared caches keep none. */
    private?: boolean;
  },
): HttpResponse {
  const etag = options.etag ?? etagOf(body);
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/json',
    'cache-control': `${options.private === true ? 'private' : 'public'}, max-age=${options.maxAgeSeconds}`,
    etag,
    'access-control-allow-origin': '*',
  };
  const modified =
    options.lastModified === undefined || options.useModifiedSince === false
      ? undefined
      : httpDateSeconds(options.lastModified);
  if (options.lastModified !== undefined) headers['last-modified'] = options.lastModified.toUTCString();
  if (options.vary !== undefined) headers.vary = options.vary;
  if (notModified(request, etag, modified)) return { status: 304, headers, body: '' };
  return { status: 200, headers, body: request.method === 'HEAD' ? '' : body };
}
