/**
 * Reading credentials off a request, where each scheme puts them (A2A 1.0 §7.3): `http` bearer in
 * `Authorization: Bearer <token>` (RFC 6750 §2.1), `apiKey` in the named header, query parameter
 * or cookie (A2A 1.0 §4.5). Identity lives at the transport layer, never in the A2A payload.
 */
import type { HttpRequest } from '../../server/index.js';
import type { SecuritySchemeConfig } from '../host-config.js';
import type { SchemeIdentity } from './requirements.js';

/** The outcome of verifying one scheme's credentials. */
export type CredentialCheck =
  | { kind: 'valid'; identity: SchemeIdentity }
  /** Rejected; `reason` is a short code, `detail` a sentence. Neither ever holds the credential. */
  | { kind: 'invalid'; reason: string; detail: string }
  /** Could not be checked for a reason that is not the caller's (key set unreachable). */
  | { kind: 'unavailable'; error: unknown };

/**
 * Parses a `Cookie` header into name -> value (RFC 6265 §4.2.1: `name=value` pairs separated by
 * `; `). Values are kept as sent (the RFC defines no decoding), minus optional double quotes; the
 * first pair of a name wins, as user agents list the most specific cookie first (§5.4).
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === undefined) return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name !== '' && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/**
 * The bearer token of an `Authorization` header, '' for a bearer header without a token, or
 * undefined when the header is absent or uses another scheme (auth-scheme is case-insensitive,
 * RFC 9110 §11.1).
 */
export function readBearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const trimmed = authorization.trim();
  const space = trimmed.indexOf(' ');
  const scheme = space < 0 ? trimmed : trimmed.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return undefined;
  return space < 0 ? '' : trimmed.slice(space + 1).trim();
}

/** Where a scheme's credential comes from; schemes sharing a source see the same credential. */
export function credentialSource(scheme: SecuritySchemeConfig): string {
  if (scheme.type === 'http') return 'header:authorization';
  // Header names are case-insensitive (RFC 9110 §5.1); query and cookie names are not.
  return scheme.in === 'header' ? `header:${scheme.name.toLowerCase()}` : `${scheme.in}:${scheme.name}`;
}

/** Where a scheme expects its credential, for messages ("header X-API-Key"). */
export function describeLocation(scheme: SecuritySchemeConfig): string {
  if (scheme.type === 'http') return 'Authorization: Bearer header';
  return scheme.in === 'query' ? `query parameter ${scheme.name}` : `${scheme.in} ${scheme.name}`;
}

/**
 * Reads every scheme's credential from one request, parsing the Cookie header at most once.
 * Returns scheme name -> credential for the schemes whose credential is present.
 */
export function readCredentials(
  request: HttpRequest,
  schemes: Readonly<Record<string, SecuritySchemeConfig>>,
): Map<string, string> {
  const found = new Map<string, string>();
  let cookies: Map<string, string> | undefined;
  for (const [name, scheme] of Object.entries(schemes)) {
    let credential: string | undefined;
    if (scheme.type === 'http') {
      credential = readBearerToken(request.header('authorization'));
    } else if (scheme.in === 'header') {
      credential = request.header(scheme.name.toLowerCase());
    } else if (scheme.in === 'query') {
      credential = request.query.get(scheme.name) ?? undefined;
    } else {
      cookies ??= parseCookies(request.header('cookie'));
      credential = cookies.get(scheme.name);
    }
    if (credential !== undefined) found.set(name, credential);
  }
  return found;
}
