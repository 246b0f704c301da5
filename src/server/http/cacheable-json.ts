/**
 * Public, cacheable JSON documents (agent cards, key sets): a strong ETag over the body,
 * `Cache-Control: max-age`, and `304 Not Modified` for a matching `If-None-Match` (A2A 1.0 §8.6,
 * RFC 9110 §13.1.2, where `*` and weak tags also match for GET).
 */
import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse } from './http-types.js';

/** The strong ETag of a body. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** Answers a GET or HEAD for `body`, with caching headers and conditional-request handling. */
export function cacheableJson(
  request: HttpRequest,
  body: string,
  options: { etag?: string; maxAgeSeconds: number; vary?: string },
): HttpResponse {
  const etag = options.etag ?? etagOf(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': `public, max-age=${options.maxAgeSeconds}`,
    etag,
    'access-control-allow-origin': '*',
  };
  if (options.vary !== undefined) headers.vary = options.vary;
  const match = request.header('if-none-match');
  if (
    match !== undefined &&
    match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
  ) {
    return { status: 304, headers, body: '' };
  }
  return { status: 200, headers, body: request.method === 'HEAD' ? '' : body };
}
