/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for agents whose card declares an
 * `oauth2SecurityScheme` with a `clientCredentials` flow: the token endpoint is POSTed a form,
 * the access token is cached until shortly before it expires, and it is presented as a bearer
 * token. The token URL comes from the option or else the card; either way the request goes
 * through the client's SSRF guard.
 */
import type { SecurityScheme } from '../../protocol/index.js';
import type { Credential, CredentialContext, SecretSource } from './auth.js';
import { A2ALocalError } from '../client-errors.js';

/** Options of `oauth2ClientCredentials`. */
export interface OAuth2ClientCredentialsOptions {
  clientId: string;
  clientSecret: SecretSource;
  /** Token endpoint; default: the card's `clientCredentials.tokenUrl`. */
  tokenUrl?: string;
  /** Scopes to ask for; default: those the card's requirement lists. */
  scopes?: readonly string[];
  /** How the client authenticates to the endpoint (RFC 6749 §2.3.1); default HTTP Basic. */
  clientAuthentication?: 'basic' | 'body';
  /** Seconds before expiry at which a cached token is renewed (default 30). */
  renewBeforeSeconds?: number;
}

interface CachedToken {
  token: string;
  /** Epoch ms after which it is renewed. */
  renewAt: number;
}

function flowOf(scheme: SecurityScheme | undefined): { tokenUrl: string } | undefined {
  if (scheme === undefined || !('oauth2SecurityScheme' in scheme)) return undefined;
  return scheme.oauth2SecurityScheme.flows.clientCredentials;
}

/** The client-credentials credential; tokens are cached per token URL and scope set. */
export function oauth2ClientCredentials(options: OAuth2ClientCredentialsOptions): Credential {
  const cache = new Map<string, Promise<CachedToken>>();

  async function fetchToken(
    tokenUrl: string,
    scopes: readonly string[],
    context: CredentialContext,
  ): Promise<CachedToken> {
    const secret =
      typeof options.clientSecret === 'string' ? options.clientSecret : await options.clientSecret();
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scopes.length > 0) form.set('scope', scopes.join(' '));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.clientAuthentication === 'body') {
      form.set('client_id', options.clientId);
      form.set('client_secret', secret);
    } else {
      // RFC 6749 §2.3.1: both parts form-urlencoded before base64.
      const pair = `${encodeURIComponent(options.clientId)}:${encodeURIComponent(secret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    const answer = await context.postForm(new URL(tokenUrl), form, headers, context.signal);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(answer.text) as Record<string, unknown>;
    } catch {
      // handled below: no access_token
    }
    if (answer.status < 200 || answer.status >= 300 || typeof body.access_token !== 'string') {
      const detail =
        typeof body.error === 'string'
          ? `: ${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}`
          : '';
      throw new A2ALocalError(
        'BAD_RESPONSE',
        `Token endpoint ${tokenUrl} answered HTTP ${answer.status} without an access token${detail}`,
        {
          httpStatus: answer.status,
          url: tokenUrl,
        },
      );
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    const renewBefore = options.renewBeforeSeconds ?? 30;
    return { token: body.access_token, renewAt: Date.now() + Math.max(0, expiresIn - renewBefore) * 1000 };
  }

  return {
    kind: 'OAuth 2.0 client credentials',
    fits(scheme) {
      return flowOf(scheme) !== undefined;
    },
    async apply(call, context) {
      const tokenUrl = options.tokenUrl ?? flowOf(context.scheme)?.tokenUrl;
      if (tokenUrl === undefined) {
        throw new A2ALocalError(
          'UNSUPPORTED_OPERATION',
          'oauth2ClientCredentials: no tokenUrl given and the card declares no clientCredentials flow',
        );
      }
      const scopes = options.scopes ?? context.scopes;
      const key = `${tokenUrl} ${[...scopes].sort().join(' ')}`;
      let pending = cache.get(key);
      if (pending !== undefined) {
        const settled = await pending.catch(() => undefined);
        if (settled === undefined || settled.renewAt <= Date.now()) pending = undefined;
      }
      if (pending === undefined) {
        pending = fetchToken(tokenUrl, scopes, context);
        cache.set(key, pending);
        // A failed fetch is not cached: the next call asks again.
        pending.catch(() => cache.delete(key));
      }
      call.headers.authorization = `Bearer ${(await pending).token}`;
    },
  };
}
