/**
 * Tokens held per agent and renewed before they expire (decision 0168). A credential keeps its
 * tokens in a store (`OAuth2TokenStore`: memory by default, a file for the CLI), under a key
 * naming the agent, the card's scheme, the client and the scopes; one renewal runs at a time per
 * key. Renewal redeems the refresh token at the server that issued it (RFC 6749 §6); a refused
 * refresh token (`invalid_grant`) is dropped and the flow obtains a new grant when it can
 * (client credentials, or a device login with a person at hand) or says a login is needed.
 */
import type { AgentCard } from '../../protocol/index.js';
import type { CredentialContext } from './auth.js';
import { endpointUrl } from './oauth2-endpoints.js';
import { OAuthError } from './oauth2-error.js';
import { postToEndpoint, readGrant, type GrantedToken, type OAuth2Client } from './oauth2-token-endpoint.js';

/** The tokens held for one agent, as a store keeps them. */
export interface OAuth2Tokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms at which the access token expires. */
  expiresAt: number;
  /** Epoch ms at which it was received. */
  issuedAt: number;
  /** The scopes granted (or asked for, when the server did not say). */
  scopes: string[];
  /** Where the refresh token is redeemed: an endpoint of the server that issued it. */
  refreshUrl: string;
}

/** Where a credential keeps tokens between calls; a `Map<string, OAuth2Tokens>` is one. */
export interface OAuth2TokenStore {
  get(key: string): OAuth2Tokens | undefined | Promise<OAuth2Tokens | undefined>;
  set(key: string, tokens: OAuth2Tokens): unknown;
  delete(key: string): unknown;
}

/** Lifetime assumed when a server does not say (RFC 6749 §5.1 makes `expires_in` RECOMMENDED). */
const DEFAULT_LIFETIME_SECONDS = 3600;

/** The agent a card describes, for keys: its preferred interface's URL, else its name. */
export function agentIdentity(card: AgentCard | undefined): string {
  return card?.supportedInterfaces?.[0]?.url ?? card?.name ?? '';
}

/** The store key of the tokens for one agent, scheme, client and scope set. */
export function tokenKey(
  card: AgentCard | undefined,
  schemeName: string | undefined,
  clientId: string,
  scopes: readonly string[],
): string {
  return JSON.stringify([agentIdentity(card), schemeName ?? '', clientId, [...scopes].sort()]);
}

/** The tokens a grant gives; a refresh answer without a new refresh token keeps the old one. */
export function heldTokens(
  grant: GrantedToken,
  asked: readonly string[],
  refreshUrl: string,
  previousRefreshToken?: string,
): OAuth2Tokens {
  const now = Date.now();
  const tokens: OAuth2Tokens = {
    accessToken: grant.accessToken,
    expiresAt: now + (grant.expiresIn ?? DEFAULT_LIFETIME_SECONDS) * 1000,
    issuedAt: now,
    scopes: grant.scopes ?? [...asked],
    refreshUrl,
  };
  const refreshToken = grant.refreshToken ?? previousRefreshToken;
  if (refreshToken !== undefined) tokens.refreshToken = refreshToken;
  return tokens;
}

/** Redeems a held refresh token at the endpoint that issued it (RFC 6749 §6). */
export async function refreshTokens(
  context: CredentialContext,
  client: OAuth2Client,
  held: OAuth2Tokens & { refreshToken: string },
): Promise<OAuth2Tokens> {
  // A store is the caller's: its endpoint gets the same check as one read from a card.
  const url = endpointUrl(held.refreshUrl, 'refresh endpoint').href;
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: held.refreshToken });
  const answer = await postToEndpoint(context, 'token endpoint', url, form, client, [held.refreshToken]);
  return heldTokens(readGrant(answer, url), held.scopes, url, held.refreshToken);
}

/** How a keeper renews the tokens of one key. */
export interface Renewal {
  /** Redeems the held refresh token. */
  refresh(held: OAuth2Tokens & { refreshToken: string }): Promise<OAuth2Tokens>;
  /** Obtains a new grant; undefined when only a person can (no one to ask). */
  obtain: (() => Promise<OAuth2Tokens>) | undefined;
}

/** Holds tokens in a store and renews them, one renewal per key at a time. */
export class TokenKeeper {
  private readonly running = new Map<string, Promise<OAuth2Tokens>>();

  constructor(
    private readonly store: OAuth2TokenStore,
    private readonly renewBeforeSeconds: number,
  ) {}

  /** True when `tokens` should be renewed now: within the margin before expiry (at most half its life). */
  due(tokens: OAuth2Tokens, now = Date.now()): boolean {
    const margin = Math.min(this.renewBeforeSeconds * 1000, (tokens.expiresAt - tokens.issuedAt) / 2);
    return now >= tokens.expiresAt - Math.max(0, margin);
  }

  /** A current access token for `key`: the held one, a refreshed one, or a new grant. */
  async accessToken(key: string, renewal: Renewal): Promise<string> {
    // Concurrent calls for one key share one read and at most one renewal.
    let work = this.running.get(key);
    if (work === undefined) {
      const started = this.current(key, renewal);
      work = started;
      this.running.set(key, started);
      void started.then(
        () => this.running.delete(key),
        () => this.running.delete(key),
      );
    }
    return (await work).accessToken;
  }

  /** The held tokens when they are not due, else renewed ones. */
  private async current(key: string, renewal: Renewal): Promise<OAuth2Tokens> {
    const held = await this.store.get(key);
    if (held !== undefined && !this.due(held)) return held;
    try {
      return await this.renew(key, held, renewal);
    } catch (error) {
      // An early renewal that failed for a passing reason (the server or the network, not a
      // refused refresh token) leaves the held token, still valid, in use until it expires.
      const refused = error instanceof OAuthError && (error.error === 'invalid_grant' || error.loginRequired);
      if (held !== undefined && !refused && Date.now() < held.expiresAt) return held;
      throw error;
    }
  }

  private async renew(key: string, held: OAuth2Tokens | undefined, renewal: Renewal): Promise<OAuth2Tokens> {
    let refused: OAuthError | undefined;
    if (held?.refreshToken !== undefined) {
      try {
        const tokens = await renewal.refresh(held as OAuth2Tokens & { refreshToken: string });
        await this.store.set(key, tokens);
        return tokens;
      } catch (error) {
        // invalid_grant: the refresh token expired, was revoked or already used (RFC 6749 §5.2).
        if (!(error instanceof OAuthError) || error.error !== 'invalid_grant') throw error;
        refused = error;
        await this.store.delete(key);
      }
    }
    if (renewal.obtain === undefined) {
      const why =
        refused !== undefined
          ? `the authorization server refused the refresh token (invalid_grant)`
          : held !== undefined
            ? 'the access token expired and there is no refresh token'
            : 'no token is held for this agent';
      const options: ConstructorParameters<typeof OAuthError>[1] = {
        error: 'login_required',
        loginRequired: true,
      };
      if (refused !== undefined) {
        options.cause = refused;
        if (refused.url !== undefined) options.url = refused.url;
        if (refused.httpStatus !== undefined) options.httpStatus = refused.httpStatus;
      }
      throw new OAuthError(`A new login is needed: ${why}`, options);
    }
    const tokens = await renewal.obtain();
    await this.store.set(key, tokens);
    return tokens;
  }
}
