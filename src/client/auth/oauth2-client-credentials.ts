/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for agents whose card declares an
 * `oauth2SecurityScheme` with a `clientCredentials` flow, or an `openIdConnectSecurityScheme`
 * (decision 0168). The token endpoint is the option's, else the card flow's, else the one the
 * server's metadata (`oauth2MetadataUrl`, RFC 8414) or OpenID Connect discovery document names.
 * Tokens are kept per agent, scheme and scope set, renewed shortly before they expire: with the
 * refresh token when the server gave one (RFC 6749 §6), else, or when it is refused, with a new
 * grant. Every request goes through the client's guarded HTTP.
 */
import type { SecurityScheme } from '../../protocol/index.js';
import type { Credential, CredentialContext, SecretSource } from './auth.js';
import { EndpointFinder } from './oauth2-endpoints.js';
import { postToEndpoint, readGrant, type OAuth2Client } from './oauth2-token-endpoint.js';
import {
  heldTokens,
  refreshTokens,
  tokenKey,
  TokenKeeper,
  type OAuth2Tokens,
  type OAuth2TokenStore,
} from './oauth2-tokens.js';

/** Options of `oauth2ClientCredentials`. */
export interface OAuth2ClientCredentialsOptions {
  clientId: string;
  clientSecret: SecretSource;
  /** Token endpoint; default: the card's `clientCredentials.tokenUrl`, else discovered. */
  tokenUrl?: string;
  /** Scopes to ask for; default: those the card's requirement lists. */
  scopes?: readonly string[];
  /** How the client authenticates to the endpoint (RFC 6749 §2.3.1); default HTTP Basic. */
  clientAuthentication?: 'basic' | 'body';
  /** Seconds before expiry at which a token is renewed (default 30; at most half its lifetime). */
  renewBeforeSeconds?: number;
  /** Where tokens are kept (default: in memory, for this credential). */
  store?: OAuth2TokenStore;
}

/** True for the schemes a client-credentials grant can satisfy. */
function fitsClientCredentials(scheme: SecurityScheme): boolean {
  if ('oauth2SecurityScheme' in scheme)
    return scheme.oauth2SecurityScheme.flows.clientCredentials !== undefined;
  return 'openIdConnectSecurityScheme' in scheme;
}

/** The client-credentials credential. */
export function oauth2ClientCredentials(options: OAuth2ClientCredentialsOptions): Credential {
  const keeper = new TokenKeeper(options.store ?? new Map(), options.renewBeforeSeconds ?? 30);
  const finder = new EndpointFinder();
  const client: OAuth2Client = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientAuthentication: options.clientAuthentication,
  };

  async function obtain(context: CredentialContext, scopes: readonly string[]): Promise<OAuth2Tokens> {
    const endpoints = await finder.find(context.scheme, 'clientCredentials', context, options.tokenUrl);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scopes.length > 0) form.set('scope', scopes.join(' '));
    const answer = await postToEndpoint(context, 'token endpoint', endpoints.tokenUrl, form, client);
    return heldTokens(readGrant(answer, endpoints.tokenUrl), scopes, endpoints.refreshUrl);
  }

  return {
    kind: 'OAuth 2.0 client credentials',
    fits: fitsClientCredentials,
    async apply(call, context) {
      const scopes = options.scopes ?? context.scopes;
      const key = tokenKey(context.card, context.schemeName, options.clientId, scopes);
      const token = await keeper.accessToken(key, {
        refresh: (held) => refreshTokens(context, client, held),
        // A refused refresh token costs nothing here: the client can always ask again.
        obtain: () => obtain(context, scopes),
      });
      call.headers.authorization = `Bearer ${token}`;
    },
  };
}
