/**
 * Requests to an authorization server's endpoints (decision 0168): a form POSTed through the
 * client's guarded HTTP (`CredentialContext.postForm`: SSRF guard, no interceptors, no
 * redirects), the client authenticated as RFC 6749 §2.3.1 says, and the answer read as a token
 * (§5.1) or an error (§5.2, RFC 8628 §3.5). Error messages name the endpoint and the OAuth error
 * code, and never hold a secret of the request.
 */
import type { CredentialContext, SecretSource } from './auth.js';
import { OAuthError, redacted } from './oauth2-error.js';

/** Who the client is to the authorization server (RFC 6749 §2). */
export interface OAuth2Client {
  clientId: string;
  /** A confidential client's secret; none for a public client (a CLI, a device). */
  clientSecret?: SecretSource | undefined;
  /** How a secret is sent (RFC 6749 §2.3.1): HTTP Basic (default) or in the form. */
  clientAuthentication?: 'basic' | 'body' | undefined;
}

/** A token endpoint's grant (RFC 6749 §5.1). */
export interface GrantedToken {
  accessToken: string;
  refreshToken?: string;
  /** Seconds the access token lives, when the server says. */
  expiresIn?: number;
  /** The scopes granted, when the server says (space-separated in the answer). */
  scopes?: string[];
}

/** The answer of an endpoint that accepted the request. */
export type EndpointAnswer = Record<string, unknown>;

/**
 * POSTs `form` to the endpoint at `url` (`what` names it in messages) as `client`; resolves the JSON object of a 2xx answer, or throws an
 * OAuthError with the server's error code. `secrets` are what the form carries besides the
 * client secret (a refresh token, a device code): no message repeats them.
 */
export async function postToEndpoint(
  context: CredentialContext,
  what: string,
  url: string,
  form: URLSearchParams,
  client: OAuth2Client,
  secrets: readonly string[] = [],
): Promise<EndpointAnswer> {
  const secret =
    client.clientSecret === undefined
      ? undefined
      : typeof client.clientSecret === 'string'
        ? client.clientSecret
        : await client.clientSecret();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (secret === undefined || client.clientAuthentication === 'body') {
    form.set('client_id', client.clientId);
    if (secret !== undefined) form.set('client_secret', secret);
  } else {
    // RFC 6749 §2.3.1: both parts form-urlencoded before base64.
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  const answer = await context.postForm(new URL(url), form, headers, context.signal);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const object =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  const ok = answer.status >= 200 && answer.status < 300;
  if (ok && object !== undefined && object.error === undefined) return object;
  const hidden = [secret, ...secrets];
  if (object !== undefined && typeof object.error === 'string') {
    const description =
      typeof object.error_description === 'string'
        ? ` (${redacted(object.error_description, hidden).slice(0, 300)})`
        : '';
    const code = redacted(object.error, hidden).slice(0, 100);
    throw new OAuthError(
      `The ${what} ${url} refused the request: ${code}${description} (HTTP ${answer.status})`,
      { error: code, url, httpStatus: answer.status },
    );
  }
  throw new OAuthError(
    `The ${what} ${url} answered HTTP ${answer.status} with ${object === undefined ? 'no JSON object' : 'no OAuth answer'}`,
    { error: 'invalid_response', url, httpStatus: answer.status },
  );
}

/** A count of seconds in an answer: a number, or a numeric string as some servers send. */
export function secondsOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Reads a token answer (RFC 6749 §5.1); only bearer tokens can be presented (RFC 6750). */
export function readGrant(body: EndpointAnswer, url: string): GrantedToken {
  if (typeof body.access_token !== 'string' || body.access_token === '')
    throw new OAuthError(`The token endpoint ${url} answered without an access token`, {
      error: 'invalid_response',
      url,
    });
  // token_type is REQUIRED but case-insensitive (RFC 6749 §7.1); a missing one is read as Bearer.
  if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer')
    throw new OAuthError(
      `The token endpoint ${url} issued a token of type ${JSON.stringify(body.token_type)}; only Bearer tokens can be presented`,
      { error: 'invalid_response', url },
    );
  const grant: GrantedToken = { accessToken: body.access_token };
  if (typeof body.refresh_token === 'string' && body.refresh_token !== '')
    grant.refreshToken = body.refresh_token;
  const expiresIn = secondsOf(body.expires_in);
  if (expiresIn !== undefined) grant.expiresIn = expiresIn;
  if (typeof body.scope === 'string') grant.scopes = body.scope.split(' ').filter((s) => s !== '');
  return grant;
}
