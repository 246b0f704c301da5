/**
 * The OAuth 2.0 device authorization grant (RFC 8628) for a person at a terminal, on agents whose
 * card declares an `oauth2SecurityScheme` with a `deviceCode` flow, or an
 * `openIdConnectSecurityScheme` whose discovery document names a device authorization endpoint
 * (decision 0168). The device authorization endpoint is asked for a code (§3.1–3.2), the person
 * is shown where to enter it (`onPrompt`, §3.3), and the token endpoint is polled at the interval
 * the server set, slower on `slow_down`, until it grants, denies or the code expires (§3.4–3.5).
 * Tokens are kept like the client-credentials ones and refreshed before they expire; when no
 * token can be renewed a new login starts only if `onPrompt` is given, otherwise the credential
 * fails with `OAuthError.loginRequired`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SecurityScheme } from '../../protocol/index.js';
import type { Credential, CredentialContext, SecretSource } from './auth.js';
import { A2ALocalError } from '../client-errors.js';
import { EndpointFinder, type OAuth2Endpoints } from './oauth2-endpoints.js';
import { OAuthError } from './oauth2-error.js';
import { postToEndpoint, readGrant, secondsOf, type OAuth2Client } from './oauth2-token-endpoint.js';
import {
  heldTokens,
  refreshTokens,
  tokenKey,
  TokenKeeper,
  type OAuth2Tokens,
  type OAuth2TokenStore,
} from './oauth2-tokens.js';

/** What the person logging in is shown (RFC 8628 §3.3). */
export interface DeviceLoginPrompt {
  /** Where to go, on any device with a browser. */
  verificationUri: string;
  /** The same with the code filled in, when the server gives one (RFC 8628 §3.3.1). */
  verificationUriComplete?: string;
  /** The code to enter there. */
  userCode: string;
  /** Seconds until the code expires. */
  expiresIn: number;
}

/** Options of `oauth2DeviceCode`. */
export interface OAuth2DeviceCodeOptions {
  /** The client's id at the authorization server (a public client, as a CLI is). */
  clientId: string;
  /** A confidential client's secret (RFC 8628 §3.1 allows one; public clients have none). */
  clientSecret?: SecretSource;
  /** How a secret is sent (RFC 6749 §2.3.1): HTTP Basic (default) or in the form. */
  clientAuthentication?: 'basic' | 'body';
  /** Scopes to ask for; default: those the card's requirement lists. */
  scopes?: readonly string[];
  /**
   * Shows the person where to log in. Without it no login is ever started: with no token to
   * use or renew, the credential fails with an OAuthError whose `loginRequired` is true.
   */
  onPrompt?: (prompt: DeviceLoginPrompt) => void | Promise<void>;
  /** Seconds before expiry at which a token is refreshed (default 30; at most half its lifetime). */
  renewBeforeSeconds?: number;
  /** Where tokens are kept (default: in memory, for this credential). */
  store?: OAuth2TokenStore;
}

/** The grant type of the device flow's token request (RFC 8628 §3.4). */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Polling interval when the server sets none, and the step `slow_down` adds (RFC 8628 §3.2, §3.5). */
const DEFAULT_INTERVAL_SECONDS = 5;
const SLOW_DOWN_SECONDS = 5;
/** A code's life when the server does not say (it must: `expires_in` is REQUIRED). */
const DEFAULT_CODE_LIFETIME_SECONDS = 600;

/** True for the schemes a device login can satisfy. */
function fitsDeviceCode(scheme: SecurityScheme): boolean {
  if ('oauth2SecurityScheme' in scheme) return scheme.oauth2SecurityScheme.flows.deviceCode !== undefined;
  return 'openIdConnectSecurityScheme' in scheme;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Waits `seconds`, or fails as the call's signal says. */
async function pause(seconds: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(seconds * 1000, undefined, signal === undefined ? {} : { signal });
  } catch (error) {
    throw new A2ALocalError('ABORTED', 'The device login was aborted while waiting for approval', {
      cause: error,
    });
  }
}

/** Runs one device login (RFC 8628 §3.1–3.5) and resolves the tokens it grants. */
async function deviceLogin(
  context: CredentialContext,
  client: OAuth2Client,
  endpoints: OAuth2Endpoints,
  scopes: readonly string[],
  onPrompt: (prompt: DeviceLoginPrompt) => void | Promise<void>,
): Promise<OAuth2Tokens> {
  const request = new URLSearchParams();
  if (scopes.length > 0) request.set('scope', scopes.join(' '));
  const where = endpoints.deviceAuthorizationUrl;
  // EndpointFinder names one for the device flow, or fails first.
  if (where === undefined)
    throw new OAuthError('No device authorization endpoint is known', { error: 'invalid_endpoint' });
  const answer = await postToEndpoint(context, 'device authorization endpoint', where, request, client);
  const deviceCode = text(answer.device_code);
  const userCode = text(answer.user_code);
  // `verification_url` is the spelling of drafts some servers still send.
  const verificationUri = text(answer.verification_uri) ?? text(answer.verification_url);
  if (deviceCode === undefined || userCode === undefined || verificationUri === undefined)
    throw new OAuthError(
      `The device authorization endpoint ${where} answered without a device_code, user_code and verification_uri`,
      { error: 'invalid_response', url: where },
    );
  const expiresIn = secondsOf(answer.expires_in) ?? DEFAULT_CODE_LIFETIME_SECONDS;
  let interval = secondsOf(answer.interval) ?? DEFAULT_INTERVAL_SECONDS;
  const prompt: DeviceLoginPrompt = { verificationUri, userCode, expiresIn };
  const complete = text(answer.verification_uri_complete);
  if (complete !== undefined) prompt.verificationUriComplete = complete;
  await onPrompt(prompt);
  const expiresAt = Date.now() + expiresIn * 1000;
  const poll = new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: deviceCode });
  for (;;) {
    await pause(interval, context.signal);
    if (Date.now() >= expiresAt) break;
    try {
      const granted = await postToEndpoint(
        context,
        'token endpoint',
        endpoints.tokenUrl,
        new URLSearchParams(poll),
        client,
        [deviceCode],
      );
      return heldTokens(readGrant(granted, endpoints.tokenUrl), scopes, endpoints.refreshUrl);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.error === 'authorization_pending') continue;
      if (error.error === 'slow_down') {
        // "the interval MUST be increased by 5 seconds for this and all subsequent requests" (§3.5)
        interval += SLOW_DOWN_SECONDS;
        continue;
      }
      if (error.error === 'access_denied')
        throw new OAuthError('The login was refused: access was denied at the authorization server', {
          error: 'access_denied',
          url: endpoints.tokenUrl,
          cause: error,
          ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
        });
      if (error.error === 'expired_token') break;
      throw error;
    }
  }
  throw new OAuthError('The login was not completed in time: the device code expired', {
    error: 'expired_token',
    url: endpoints.tokenUrl,
  });
}

/** The device-code credential. */
export function oauth2DeviceCode(options: OAuth2DeviceCodeOptions): Credential {
  const keeper = new TokenKeeper(options.store ?? new Map(), options.renewBeforeSeconds ?? 30);
  const finder = new EndpointFinder();
  const client: OAuth2Client = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientAuthentication: options.clientAuthentication,
  };
  const onPrompt = options.onPrompt;

  async function login(
    context: CredentialContext,
    scopes: readonly string[],
    prompt: (prompt: DeviceLoginPrompt) => void | Promise<void>,
  ): Promise<OAuth2Tokens> {
    const endpoints = await finder.find(context.scheme, 'deviceCode', context);
    return deviceLogin(context, client, endpoints, scopes, prompt);
  }

  return {
    kind: 'OAuth 2.0 device login',
    fits: fitsDeviceCode,
    async apply(call, context) {
      const scopes = options.scopes ?? context.scopes;
      const key = tokenKey(context.card, context.schemeName, options.clientId, scopes);
      const token = await keeper.accessToken(key, {
        refresh: (held) => refreshTokens(context, client, held),
        // Only a person can log in: with no one to prompt, a refused refresh means "log in again".
        obtain: onPrompt === undefined ? undefined : () => login(context, scopes, onPrompt),
      });
      call.headers.authorization = `Bearer ${token}`;
    },
  };
}
