/**
 * The HTTP exchange as the bindings see it, independent of node:http, fetch or express. Adapters
 * build an HttpRequest and write the HttpResponse; streaming bodies are pulled one chunk at a
 * time, so an adapter that waits for the socket to drain gives end-to-end backpressure.
 */
import type { A2AError } from '../../protocol/index.js';
import type { CallFacts } from '../common/access-entry.js';

/** An incoming request, relative to where the A2A server is mounted. */
export interface HttpRequest {
  /** Upper-case method. */
  method: string;
  /** Path below the mount point, starting with `/`, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  /** Header lookup by lower-case name. */
  header(name: string): string | undefined;
  /** Reads the whole body as UTF-8, enforcing the size limit (PayloadTooLargeError). */
  text(): Promise<string>;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
  /** The URL the client used to reach the mount point (scheme://host/base), for absolute links. */
  origin?: string | undefined;
  /** The peer's IP address, when the adapter knows it (node:http does), e.g. for rate limits. */
  remoteAddress?: string | undefined;
  /**
   * Set when the listener trusts its proxy (`trustProxy`, decision 0149): `base` is the base URL
   * the client reached at this mount point (ending in `/`), from the proxy's validated forwarding
   * headers, absent when they name none. What is built from it varies by those headers.
   */
  proxied?: { base?: string } | undefined;
  /**
   * What the binding learns of the call (operation, task, caller, trace id), for the listener's
   * access log: present only when the listener has an `onAccess` hook (decision 0158).
   */
  facts?: CallFacts | undefined;
}

/** Response headers, lower-case names. */
export type HttpHeaders = Record<string, string>;

/** A complete response. */
export interface HttpBodyResponse {
  status: number;
  headers: HttpHeaders;
  body: string;
}

/** A streamed response (SSE). Closing the iterator (`return()`) stops the producer. */
export interface HttpStreamResponse {
  status: number;
  headers: HttpHeaders;
  stream: AsyncIterable<string>;
  /**
   * One document written in pieces, not an event stream (json-pieces.ts, decision 0172): a
   * shutdown does not end it, and a failure while it is written cuts the connection instead of
   * ending the body, so the client never reads a truncated document as whole.
   */
  document?: true;
}

/** What a binding returns. */
export type HttpResponse = HttpBodyResponse | HttpStreamResponse;

/**
 * The same request as seen from below a mount point or path prefix: `path` is what remains below
 * it and `origin` gains `mountPath` (e.g. `/agents/echo`), the proxied base URL `publicMount`
 * (a path prefix that the card does not name passes ''). Everything else reads through to the
 * original, lazily, so the adapters' lazy members (signal, query) stay lazy.
 */
export function requestBelow(
  request: HttpRequest,
  path: string,
  mountPath: string,
  publicMount = mountPath,
): HttpRequest {
  const below: HttpRequest = {
    method: request.method,
    path,
    get query() {
      return request.query;
    },
    header: (name) => request.header(name),
    text: () => request.text(),
    get signal() {
      return request.signal;
    },
    // The facts are the original request's: the listener reads them once the answer is written.
    get facts() {
      return request.facts;
    },
  };
  if (request.origin !== undefined) below.origin = `${request.origin}${mountPath}`;
  if (request.remoteAddress !== undefined) below.remoteAddress = request.remoteAddress;
  const proxied = request.proxied;
  if (proxied !== undefined) {
    below.proxied =
      proxied.base === undefined || publicMount === ''
        ? proxied
        : { base: `${proxied.base}${publicMount.replace(/^\/+/, '')}/` };
  }
  return below;
}

/** True for streamed responses. */
export function isStreamResponse(response: HttpResponse): response is HttpStreamResponse {
  return 'stream' in response;
}

/**
 * What the adapters serve: one A2A server, or anything composed of them (the agent host mounts
 * several under one listener). `setBaseUrl` tells it the URL the listener ended up on.
 */
export interface HttpApp {
  /** Request bodies above this many bytes are refused with 413. */
  readonly maxBodyBytes: number;
  /** Handles one exchange; never throws. */
  handle(request: HttpRequest): Promise<HttpResponse>;
  /** The public base URL, ending in `/`, once the listener is bound. */
  setBaseUrl(baseUrl: string): void;
  /** Releases what it holds (stores) after the listener stopped. */
  close(): Promise<void>;
  /**
   * The answer to a request the listener refused before `handle` could see it (headers over the
   * limit, a malformed request, a timeout): the error in the envelope of the binding the request
   * was for. Optional: without it adapters send the HTTP+JSON 1.0 envelope (decision 0146).
   */
  refusal?(error: A2AError, request: RefusedRequest): HttpBodyResponse;
}

/**
 * What the listener saw of a refused request before refusing it: often the request line and the
 * `A2A-Version` header, sometimes nothing (they arrived in an earlier read than the failure).
 */
export interface RefusedRequest {
  /** Upper-case method. */
  method?: string;
  /** Path, still percent-encoded, without the query. */
  path?: string;
  /** The `A2A-Version` header's value. */
  version?: string;
}
