/**
 * The OAuth 2.0 credentials of the calling commands (decision 0168): the logins stored by
 * `concord auth login`, and client credentials from `--client-id`/`--client-secret`.
 *
 * A stored login fits a card's scheme that names an endpoint of the authorization server it was
 * made with, and its token is presented only on requests to an interface of the agent it was
 * made for (the card's interface URLs at login): a card elsewhere that names the same server, or
 * lists another agent's interface beside its own, never gets it. The token is refreshed when it
 * is about to expire and written back. A token that cannot be had is a failure with exit 4; a
 * login that cannot be renewed says to log in again. Where no scheme asks for OAuth (a card
 * without requirements, an AI Catalog fetch) they present nothing (a2a-cli A2ACLI_AUTH_008).
 */
import {
  OAuthError,
  oauth2ClientCredentials,
  oauth2DeviceCode,
  type Credential,
  type OAuth2Tokens,
  type OAuth2TokenStore,
} from '../../client/index.js';
import type { SecurityScheme } from '../../protocol/index.js';
import { A2ACLI_ERR, CliFailure, EXIT, UsageError } from '../exit-codes.js';
import { TokenFile, type StoredLogin } from './token-file.js';

/** Every endpoint a scheme names: they identify its authorization server. */
export function schemeEndpoints(scheme: SecurityScheme | undefined): string[] {
  if (scheme === undefined) return [];
  if ('openIdConnectSecurityScheme' in scheme) return [scheme.openIdConnectSecurityScheme.openIdConnectUrl];
  if (!('oauth2SecurityScheme' in scheme)) return [];
  const { flows, oauth2MetadataUrl } = scheme.oauth2SecurityScheme;
  const urls = oauth2MetadataUrl === undefined ? [] : [oauth2MetadataUrl];
  for (const flow of Object.values(flows) as Record<string, unknown>[]) {
    for (const name of ['tokenUrl', 'deviceAuthorizationUrl', 'refreshUrl', 'authorizationUrl'])
      if (typeof flow[name] === 'string' && flow[name] !== '') urls.push(flow[name]);
  }
  return urls;
}

/** True when `url` is the interface at `base` or below it. */
function within(url: URL, base: string): boolean {
  const href = url.href;
  return href === base || href.startsWith(base.endsWith('/') ? base : `${base}/`);
}

/** `credential`, with the OAuthError it may throw turned into the CLI's failure. */
function reporting(credential: Credential, failure: (error: OAuthError) => CliFailure): Credential {
  return {
    kind: credential.kind,
    fits: (scheme) => credential.fits(scheme),
    async apply(call, context) {
      // No scheme asks for it (a card without requirements, an AI Catalog fetch): nothing is sent.
      if (context.scheme === undefined) return;
      try {
        await credential.apply(call, context);
      } catch (error) {
        throw error instanceof OAuthError ? failure(error) : error;
      }
    },
  };
}

/** The store of one login: its entry in the file, whatever key the credential uses. */
function loginStore(file: TokenFile, login: StoredLogin): OAuth2TokenStore {
  return {
    get: () => file.get(login.agent)?.tokens,
    set: (_key: string, tokens: OAuth2Tokens) => file.put(Object.assign({}, login, { tokens })),
    // The refresh token was refused: the login is over.
    delete: () => file.remove(login.agent),
  };
}

/** The failure a login that cannot give a token is reported as. */
function loginFailure(login: StoredLogin, error: OAuthError): CliFailure {
  const again = `run: concord auth login ${login.agent} --client-id ${login.clientId}`;
  return error.loginRequired
    ? new CliFailure(
        A2ACLI_ERR.CREDENTIALS_MISSING,
        `the stored login for ${login.agent} can no longer be used: ${error.message.replace(/^A new login is needed: /, '')}; log in again`,
        EXIT.AUTH,
        again,
      )
    : new CliFailure(
        A2ACLI_ERR.AUTH_FAILED,
        `the stored login for ${login.agent} could not be renewed: ${error.message}`,
        EXIT.AUTH,
        again,
      );
}

/** The credential of the stored logins, or undefined when there are none. It never starts a login. */
export function storedLogins(file = new TokenFile()): Credential | undefined {
  const servers = new Set(file.list().flatMap((login) => login.authorizationServer));
  if (servers.size === 0) return undefined;
  return {
    kind: 'stored login (concord auth login)',
    fits: (scheme) => schemeEndpoints(scheme).some((url) => servers.has(url)),
    async apply(call, context) {
      if (context.scheme === undefined) return;
      const named = schemeEndpoints(context.scheme);
      const login = file
        .list()
        .find(
          (l) =>
            l.interfaces.some((base) => within(call.url, base)) &&
            named.some((url) => l.authorizationServer.includes(url)),
        );
      if (login === undefined)
        throw new CliFailure(
          A2ACLI_ERR.CREDENTIALS_MISSING,
          `no stored login for the agent at ${call.url.origin}${call.url.pathname}`,
          EXIT.AUTH,
          'log in first: concord auth login <agent URL> --client-id <id>',
        );
      const held = oauth2DeviceCode({ clientId: login.clientId, store: loginStore(file, login) });
      await reporting(held, (error) => loginFailure(login, error)).apply(call, context);
    },
  };
}

/** OAuth 2.0 client credentials for `--client-id` and `--client-secret`. */
export function clientCredentials(clientId: string, clientSecret: string): Credential {
  return reporting(oauth2ClientCredentials({ clientId, clientSecret }), (error) => {
    return new CliFailure(
      A2ACLI_ERR.AUTH_FAILED,
      `no token from the agent's authorization server: ${error.message}`,
      EXIT.AUTH,
      error.error === 'invalid_client' || error.error === 'unauthorized_client'
        ? 'check --client-id and --client-secret (or CONCORD_CLIENT_ID / CONCORD_CLIENT_SECRET)'
        : null,
    );
  });
}

/** The flags of OAuth credentials on the calling commands. */
export interface OAuthFlags {
  'client-id'?: string | undefined;
  'client-secret'?: string | undefined;
}

/** Usage lines of the OAuth flags. */
export const OAUTH_FLAGS_USAGE = `  --client-id <id>        with --client-secret: OAuth 2.0 client credentials, the token got from
  --client-secret <s>     the authorization server the card names (default: $CONCORD_CLIENT_ID,
                          $CONCORD_CLIENT_SECRET). A login stored by concord auth login is used
                          when the card's OAuth scheme names its server`;

/**
 * The OAuth credentials of a calling command: client credentials (flags, then the environment),
 * then the stored logins.
 */
export function oauthCredentialsOf(flags: OAuthFlags): Credential[] {
  const env = (name: string): string | undefined =>
    process.env[name] === '' ? undefined : process.env[name];
  const id = flags['client-id'] ?? env('CONCORD_CLIENT_ID');
  const secret = flags['client-secret'] ?? env('CONCORD_CLIENT_SECRET');
  if (flags['client-secret'] !== undefined && id === undefined)
    throw new UsageError('--client-secret needs --client-id (or CONCORD_CLIENT_ID)');
  if (flags['client-id'] !== undefined && secret === undefined)
    throw new UsageError(
      '--client-id needs --client-secret for client credentials; for a person, log in once with: concord auth login <url> --client-id <id>',
    );
  const credentials: Credential[] = [];
  if (id !== undefined && secret !== undefined) credentials.push(clientCredentials(id, secret));
  const stored = storedLogins();
  if (stored !== undefined) credentials.push(stored);
  return credentials;
}
