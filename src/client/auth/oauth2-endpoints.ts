/**
 * Where an OAuth 2.0 flow's requests go (decision 0168): the card's flow names its token URL
 * (and the device authorization URL of a device flow); what it leaves out comes from the
 * authorization server's metadata (`oauth2MetadataUrl`, RFC 8414) or the OpenID Connect
 * discovery document (`openIdConnectUrl`, OpenID Connect Discovery 1.0 §4). Documents are fetched
 * through the client's guarded HTTP (`CredentialContext.getDocument`) and kept per finder. Every
 * endpoint a secret is sent to must be https, or http on a loopback host (RFC 6749 §3.2 requires
 * TLS; loopback is for development and tests).
 */
import { isIP } from 'node:net';
import type { SecurityScheme } from '../../protocol/index.js';
import type { CredentialContext } from './auth.js';
import { OAuthError } from './oauth2-error.js';

/** The flows Concord runs itself. */
export type OAuth2FlowName = 'clientCredentials' | 'deviceCode';

/** The endpoints of one flow. */
export interface OAuth2Endpoints {
  tokenUrl: string;
  /** Where refresh tokens are redeemed: the flow's `refreshUrl`, else the token URL. */
  refreshUrl: string;
  /** The device flow's device authorization endpoint (RFC 8628 §3.1). */
  deviceAuthorizationUrl?: string;
}

/** The fields of a server metadata or discovery document Concord uses. */
interface ServerMetadata {
  tokenEndpoint?: string;
  deviceAuthorizationEndpoint?: string;
}

const RFC8414_PREFIX = '/.well-known/oauth-authorization-server';
const OIDC_SUFFIX = '/.well-known/openid-configuration';

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** `url` as a URL Concord may send secrets to, or an OAuthError saying why not. */
export function endpointUrl(url: string, what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OAuthError(`The ${what} ${JSON.stringify(url)} is not a URL`, { error: 'invalid_endpoint' });
  }
  const secure = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed.hostname));
  if (!secure)
    throw new OAuthError(
      `Refusing the ${what} ${parsed.href}: OAuth endpoints must use https (RFC 6749 §3.2; plain http only on a loopback host)`,
      { error: 'invalid_endpoint', url: parsed.href },
    );
  return parsed;
}

/**
 * The issuer a metadata URL of a well-known form implies (RFC 8414 §3.1: the well-known segment
 * sits between host and path; OpenID Connect Discovery §4: it is appended); undefined for a URL
 * of any other form, whose issuer cannot be checked.
 */
function impliedIssuer(url: URL): string | undefined {
  if (url.pathname.startsWith(RFC8414_PREFIX))
    return `${url.origin}${url.pathname.slice(RFC8414_PREFIX.length)}`;
  if (url.pathname.endsWith(OIDC_SUFFIX)) return `${url.origin}${url.pathname.slice(0, -OIDC_SUFFIX.length)}`;
  return undefined;
}

const withoutSlash = (issuer: string): string => issuer.replace(/\/+$/, '');

/** Reads a metadata document, checking the issuer it names against its URL (RFC 8414 §3.3). */
function readMetadata(url: URL, status: number, text: string): ServerMetadata {
  const bad = (why: string): OAuthError =>
    new OAuthError(`The authorization server metadata at ${url.href} ${why}`, {
      error: 'invalid_response',
      url: url.href,
      httpStatus: status,
    });
  if (status !== 200) throw bad(`answered HTTP ${status}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bad('is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('is not a JSON object');
  const document = body as Record<string, unknown>;
  if (typeof document.issuer !== 'string') throw bad('names no issuer');
  const implied = impliedIssuer(url);
  // A document naming another issuer may be an attacker's (mix-up attacks, RFC 8414 §6.2).
  if (implied !== undefined && withoutSlash(document.issuer) !== withoutSlash(implied))
    throw bad(`names the issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(implied)}`);
  const field = (name: string): string | undefined =>
    typeof document[name] === 'string' ? present(document[name]) : undefined;
  const metadata: ServerMetadata = {};
  const tokenEndpoint = field('token_endpoint');
  if (tokenEndpoint !== undefined) metadata.tokenEndpoint = tokenEndpoint;
  const deviceEndpoint = field('device_authorization_endpoint');
  if (deviceEndpoint !== undefined) metadata.deviceAuthorizationEndpoint = deviceEndpoint;
  return metadata;
}

/** Finds a flow's endpoints; one per credential, so discovery documents are fetched once. */
export class EndpointFinder {
  private readonly documents = new Map<string, Promise<ServerMetadata>>();

  /** The endpoints of `flow` under `scheme`, with `tokenUrl` in place of the card's when given. */
  async find(
    scheme: SecurityScheme | undefined,
    flow: OAuth2FlowName,
    context: CredentialContext,
    tokenUrl?: string,
  ): Promise<OAuth2Endpoints> {
    let token = present(tokenUrl);
    let refresh: string | undefined;
    let device: string | undefined;
    let metadataUrl: string | undefined;
    if (scheme !== undefined && 'oauth2SecurityScheme' in scheme) {
      const declared = scheme.oauth2SecurityScheme.flows[flow] as
        { tokenUrl?: string; refreshUrl?: string; deviceAuthorizationUrl?: string } | undefined;
      token ??= present(declared?.tokenUrl);
      refresh = present(declared?.refreshUrl);
      device = present(declared?.deviceAuthorizationUrl);
      metadataUrl = present(scheme.oauth2SecurityScheme.oauth2MetadataUrl);
    } else if (scheme !== undefined && 'openIdConnectSecurityScheme' in scheme) {
      metadataUrl = present(scheme.openIdConnectSecurityScheme.openIdConnectUrl);
    }
    const missing = token === undefined || (flow === 'deviceCode' && device === undefined);
    if (missing && metadataUrl !== undefined) {
      const metadata = await this.metadata(metadataUrl, context);
      token ??= metadata.tokenEndpoint;
      if (flow === 'deviceCode') device ??= metadata.deviceAuthorizationEndpoint;
    }
    const where = metadataUrl === undefined ? 'the card' : `the card or ${metadataUrl}`;
    if (token === undefined)
      throw new OAuthError(`No token endpoint: ${where} names none`, { error: 'invalid_endpoint' });
    if (flow === 'deviceCode' && device === undefined)
      throw new OAuthError(
        `No device authorization endpoint: ${where} names none (the authorization server may not offer the device flow)`,
        { error: 'invalid_endpoint' },
      );
    const endpoints: OAuth2Endpoints = {
      tokenUrl: endpointUrl(token, 'token endpoint').href,
      refreshUrl: endpointUrl(refresh ?? token, 'refresh endpoint').href,
    };
    if (device !== undefined)
      endpoints.deviceAuthorizationUrl = endpointUrl(device, 'device authorization endpoint').href;
    return endpoints;
  }

  private metadata(url: string, context: CredentialContext): Promise<ServerMetadata> {
    let pending = this.documents.get(url);
    if (pending === undefined) {
      const parsed = endpointUrl(url, 'authorization server metadata URL');
      pending = context
        .getDocument(parsed, context.signal)
        .then((answer) => readMetadata(parsed, answer.status, answer.text));
      this.documents.set(url, pending);
      // A failed fetch is not kept: the next request asks again.
      pending.catch(() => this.documents.delete(url));
    }
    return pending;
  }
}
