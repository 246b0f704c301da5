/**
 * Credentials the client presents (A2A puts authentication in the transport,
 * A2A 1.0 §7.3): each says which of the card's security schemes it can satisfy and how it
 * changes a request. `selectCredentials` picks, from the card's `securityRequirements` (an OR of
 * ANDs), the first alternative the caller holds every credential for.
 */
import type { AgentCard, SecurityScheme } from '../../protocol/index.js';
import type { OutgoingCall } from './interceptors.js';

/** What a credential learns about where it is used. */
export interface CredentialContext {
  /** The card's scheme it was matched to (undefined when the card declares none). */
  scheme: SecurityScheme | undefined;
  /** Scopes the matched requirement lists for the scheme. */
  scopes: readonly string[];
  /** The card's name for `scheme` (undefined when the card declares none). */
  schemeName?: string | undefined;
  /** The card of the agent called (undefined before one is known, as on the AI Catalog fetch). */
  card?: AgentCard | undefined;
  /** POSTs a form through the client's guarded HTTP (token endpoints); resolves status and body. */
  postForm(
    url: URL,
    form: URLSearchParams,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<{ status: number; text: string }>;
  /**
   * GETs a public document (OAuth 2.0 server metadata, OpenID Connect discovery) through the
   * client's guarded HTTP, without credentials; resolves status and body.
   */
  getDocument(url: URL, signal?: AbortSignal): Promise<{ status: number; text: string }>;
  signal?: AbortSignal;
}

/** A credential the client can present. */
export interface Credential {
  /** Human-readable kind, for error messages. */
  readonly kind: string;
  /** True when this credential can satisfy `scheme`. */
  fits(scheme: SecurityScheme): boolean;
  /** Adds the credential to the request. */
  apply(call: OutgoingCall, context: CredentialContext): Promise<void>;
}

/** A secret given directly or fetched on demand (rotation, vaults). */
export type SecretSource = string | (() => string | Promise<string>);

async function secretOf(source: SecretSource): Promise<string> {
  return typeof source === 'string' ? source : await source();
}

/**
 * `Authorization: Bearer <token>`. Fits an HTTP `bearer` scheme, OAuth 2.0 and OpenID Connect
 * schemes (whose access tokens are presented as bearer tokens, RFC 6750).
 */
export function bearer(token: SecretSource): Credential {
  return {
    kind: 'bearer token',
    fits(scheme) {
      if ('httpAuthSecurityScheme' in scheme)
        return scheme.httpAuthSecurityScheme.scheme.toLowerCase() === 'bearer';
      return 'oauth2SecurityScheme' in scheme || 'openIdConnectSecurityScheme' in scheme;
    },
    async apply(call) {
      call.headers.authorization = `Bearer ${await secretOf(token)}`;
    },
  };
}

/** Options of `apiKey`: where the key goes, under which name (as the card's apiKey scheme says). */
export interface ApiKeyOptions {
  in: 'header' | 'query' | 'cookie';
  name: string;
  value: SecretSource;
}

/** An API key in a header, query parameter or cookie. Fits the card's apiKey scheme of that name. */
export function apiKey(options: ApiKeyOptions): Credential {
  return {
    kind: `API key ${options.name} (${options.in})`,
    fits(scheme) {
      return (
        'apiKeySecurityScheme' in scheme &&
        scheme.apiKeySecurityScheme.location === options.in &&
        scheme.apiKeySecurityScheme.name.toLowerCase() === options.name.toLowerCase()
      );
    },
    async apply(call) {
      const value = await secretOf(options.value);
      if (options.in === 'header') call.headers[options.name.toLowerCase()] = value;
      else if (options.in === 'query') call.url.searchParams.set(options.name, value);
      else {
        const cookie = `${options.name}=${encodeURIComponent(value)}`;
        call.headers.cookie =
          call.headers.cookie === undefined ? cookie : `${call.headers.cookie}; ${cookie}`;
      }
    },
  };
}

/** A credential matched to one of the card's schemes. */
export interface SelectedCredential {
  credential: Credential;
  scheme: SecurityScheme | undefined;
  scopes: readonly string[];
  /** The card's name for `scheme`. */
  schemeName?: string;
  /** The card the scheme was read from. */
  card?: AgentCard;
}

/**
 * Picks the credentials to present. A card without requirements gets every credential given (the
 * caller knows the agent better than the card says); otherwise the first requirement alternative
 * whose every scheme some credential fits. None fitting selects nothing: the agent then answers
 * 401, which says more than a local guess would.
 */
export function selectCredentials(
  card: AgentCard | undefined,
  credentials: readonly Credential[],
): SelectedCredential[] {
  if (credentials.length === 0) return [];
  const requirements = card?.securityRequirements ?? [];
  if (card === undefined || requirements.length === 0)
    return credentials.map((credential) =>
      Object.assign({ credential, scheme: undefined, scopes: [] }, card === undefined ? {} : { card }),
    );
  for (const requirement of requirements) {
    const chosen: SelectedCredential[] = [];
    for (const [name, { list }] of Object.entries(requirement.schemes)) {
      const scheme = card.securitySchemes?.[name];
      const credential = scheme === undefined ? undefined : credentials.find((c) => c.fits(scheme));
      if (credential === undefined) break;
      chosen.push({ credential, scheme, scopes: list, schemeName: name, card });
    }
    if (chosen.length === Object.keys(requirement.schemes).length) return chosen;
  }
  return [];
}
