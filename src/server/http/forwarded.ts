/**
 * A listener behind a reverse proxy (decision 0149).
 *
 * - Public path. A public URL with a path (`https://api.acme.com/a2a/v1`) is served whether the
 *   proxy strips that path before forwarding or keeps it: a request whose path starts with it is
 *   read below it, any other as it is. Where the path's first segment is one the routes at the
 *   root use (`v1`, `tasks`, ...), reading below it would take those routes away, so only a proxy
 *   that strips the path is served.
 * - Trusted forwarding headers. Only when the listener is told its proxy is trusted
 *   (`trustProxy`), the scheme and host the client used are read from `Forwarded` (RFC 7239, its
 *   first element), else `X-Forwarded-Proto` / `X-Forwarded-Host` (their first value), the host
 *   falling back to `Host` when only the scheme is forwarded. A value that is not `http`/`https`, or
 *   not a host name or IP literal with an optional port, is ignored, so a hostile header can never
 *   put anything else into a card. The request then carries the base URL the client reached
 *   (`HttpRequest.proxied`); cards and documents built from it vary by those headers.
 */
import type { HttpApp, HttpRequest, HttpResponse } from './http-types.js';
import { requestBelow } from './http-types.js';

/** The request headers a card served behind a trusted proxy depends on (its `Vary`). */
export const FORWARDING_VARY = 'Forwarded, X-Forwarded-Host, X-Forwarded-Proto';

/** First path segments of the routes a server answers at its root. */
const ROOT_SEGMENTS = new Set([
  'v1',
  'tasks',
  'message:send',
  'message:stream',
  'extendedAgentCard',
  'agents',
  '.well-known',
]);

const HOST_NAME =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** `text` as a URL authority (`host[:port]`, lower-case), or undefined when it is not one. */
export function forwardedHost(text: string | undefined): string | undefined {
  if (text === undefined || text.length === 0 || text.length > 300) return undefined;
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (match === null) return undefined;
  const [, name, port] = match as unknown as [string, string, string | undefined];
  if (!name.startsWith('[') && (!HOST_NAME.test(name) || name.length > 253)) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  try {
    // The URL parser checks IPv6 literals and lower-cases the name; nothing else may be left over.
    const url = new URL(`http://${text}/`);
    return url.pathname === '/' && url.username === '' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/** `text` as a scheme the cards may list, or undefined. */
export function forwardedProto(text: string | undefined): 'http' | 'https' | undefined {
  const value = text?.trim().toLowerCase();
  return value === 'http' || value === 'https' ? value : undefined;
}

/** The first element of an RFC 7239 `Forwarded` header as lower-cased parameter names and values. */
export function firstForwarded(header: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < header.length) {
    const eq = header.indexOf('=', i);
    if (eq === -1) break;
    const name = header.slice(i, eq).trim().toLowerCase();
    let value = '';
    i = eq + 1;
    if (header[i] === '"') {
      // quoted-string (RFC 9110 §5.6.4): backslash escapes the next character.
      for (i += 1; i < header.length && header[i] !== '"'; i++) {
        if (header[i] === '\\') i += 1;
        value += header[i] ?? '';
      }
      i += 1;
    } else {
      while (i < header.length && header[i] !== ';' && header[i] !== ',') value += header[i++];
    }
    if (!out.has(name)) out.set(name, value.trim());
    while (i < header.length && header[i] === ' ') i++;
    // A comma ends the first element: the proxy nearest the client wrote it.
    if (header[i] === ',' || i >= header.length) break;
    i += 1;
  }
  return out;
}

function firstValue(text: string | undefined): string | undefined {
  return text?.split(',')[0]?.trim();
}

/**
 * The base URL a trusted proxy says the client reached (`scheme://host` + `publicPath`), or
 * undefined when its headers name neither a valid scheme nor a valid host.
 */
export function forwardedBase(
  request: Pick<HttpRequest, 'header'>,
  publicPath: string,
  defaultScheme: 'http' | 'https',
): string | undefined {
  const forwarded = request.header('forwarded');
  let proto: 'http' | 'https' | undefined;
  let host: string | undefined;
  if (forwarded !== undefined) {
    const first = firstForwarded(forwarded);
    proto = forwardedProto(first.get('proto'));
    host = forwardedHost(first.get('host'));
  }
  proto ??= forwardedProto(firstValue(request.header('x-forwarded-proto')));
  host ??= forwardedHost(firstValue(request.header('x-forwarded-host')));
  if (proto === undefined && host === undefined) return undefined;
  host ??= forwardedHost(request.header('host'));
  if (host === undefined) return undefined;
  // Through the URL parser once more: a scheme's default port (`https://x:443`) is left out.
  return `${new URL(`${proto ?? defaultScheme}://${host}`).origin}${publicPath}`;
}

/** Options of `publicFront`. */
export interface PublicFrontOptions {
  /** The public base URL (absolute, ending in `/`), when one is set. */
  publicUrl?: string | undefined;
  /** Read the client's scheme and host from the proxy's forwarding headers. */
  trustProxy?: boolean | undefined;
}

/** `app` behind a proxy (see the file comment); `app` itself when there is nothing to do. */
export function publicFront(app: HttpApp, options: PublicFrontOptions): HttpApp {
  const url = options.publicUrl === undefined ? undefined : new URL(options.publicUrl);
  const publicPath = url?.pathname ?? '/';
  const prefix = publicPath.replace(/\/+$/, '');
  const first = prefix.split('/')[1] ?? '';
  const strips = prefix !== '' && !ROOT_SEGMENTS.has(decodeURIComponent(first));
  const trust = options.trustProxy === true;
  if (!strips && !trust) return app;
  const scheme = url?.protocol === 'https:' ? 'https' : 'http';
  return {
    get maxBodyBytes() {
      return app.maxBodyBytes;
    },
    handle(request: HttpRequest): Promise<HttpResponse> {
      const below = strips && (request.path === prefix || request.path.startsWith(`${prefix}/`));
      if (!below && !trust) return app.handle(request);
      const seen = requestBelow(request, below ? request.path.slice(prefix.length) || '/' : request.path, '');
      if (trust) {
        const base = forwardedBase(request, publicPath, scheme);
        seen.proxied = base === undefined ? {} : { base };
      }
      return app.handle(seen);
    },
    setBaseUrl: (baseUrl) => app.setBaseUrl(baseUrl),
    close: () => app.close(),
  };
}
