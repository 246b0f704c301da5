/**
 * Builds the CallContext of an HTTP request: negotiated version (A2A 1.0 §3.6), activated
 * extensions (A2A 1.0 §3.2.6, §4.6.1: requested in `A2A-Extensions`, or `X-A2A-Extensions` in 0.3, and
 * supported by the card), required-extension check (§3.3.4, §4.6.3, -32008), and the caller's identity.
 */
import {
  A2AError,
  negotiateVersion,
  type AgentCard,
  type AgentExtension,
  type ProtocolVersion,
} from '../../protocol/internal.js';
import type { CallContext, CallerIdentity } from '../call-context.js';
import type { HttpRequest } from './http-types.js';

/** Resolves the caller from request credentials; undefined means "no valid credentials". */
export type Authenticator = (
  request: HttpRequest,
) => Promise<CallerIdentity | undefined> | CallerIdentity | undefined;

/** The version a request asks for: header first, then (REST) the query parameter (A2A 1.0 §3.6.1). */
export function requestedVersion(request: HttpRequest, allowQuery: boolean): ProtocolVersion {
  const header = request.header('a2a-version');
  if (header !== undefined && header.trim() !== '') return negotiateVersion(header);
  return negotiateVersion(allowQuery ? request.query.get('A2A-Version') : undefined);
}

/** The extension header the client used, to echo activated URIs under the same name (decision 0136). */
export function extensionHeaderName(request: HttpRequest): string {
  return request.header('a2a-extensions') === undefined && request.header('x-a2a-extensions') !== undefined
    ? 'x-a2a-extensions'
    : 'a2a-extensions';
}

/**
 * The extensions a request activates: those it names in `A2A-Extensions` (or 0.3's
 * `X-A2A-Extensions`) that the card declares, plus the declared required ones it left out.
 * Agents declaring none skip the header parsing entirely.
 */
export function activateExtensions(
  request: HttpRequest,
  declared: readonly AgentExtension[],
): { activated: string[]; missing: string[] } {
  if (declared.length === 0) return { activated: [], missing: [] };
  const raw = `${request.header('a2a-extensions') ?? ''},${request.header('x-a2a-extensions') ?? ''}`;
  const requested = new Set(raw.split(',').map((uri) => uri.trim()));
  const activated = declared.filter((ext) => requested.has(ext.uri)).map((ext) => ext.uri);
  const missing = declared
    .filter((ext) => ext.required === true && !requested.has(ext.uri))
    .map((ext) => ext.uri);
  return { activated, missing };
}

/**
 * The call context of an HTTP request. `signal` is read lazily (only streams need it, and the
 * adapters make it on first use); as a class, its getter is shared instead of made per call.
 */
class HttpCallContext implements CallContext {
  user?: CallerIdentity;
  readonly #request: HttpRequest;

  constructor(
    readonly version: ProtocolVersion,
    public tenant: string,
    readonly activatedExtensions: string[],
    request: HttpRequest,
  ) {
    this.#request = request;
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }

  get remoteAddress(): string | undefined {
    return this.#request.remoteAddress;
  }

  get idempotencyKey(): string | undefined {
    return this.#request.header('idempotency-key');
  }
}

/** Settings for call setup. */
export interface CallSetupOptions {
  card: AgentCard;
  authenticate?: Authenticator | undefined;
}

/** Creates the call context, or throws the error the client must get. */
export async function setupCall(
  request: HttpRequest,
  version: ProtocolVersion,
  tenant: string,
  options: CallSetupOptions,
): Promise<CallContext> {
  const { activated, missing } = activateExtensions(request, options.card.capabilities.extensions ?? []);
  if (missing.length > 0) {
    throw new A2AError(
      'ExtensionSupportRequiredError',
      `This agent requires the extension(s): ${missing.join(', ')}`,
      {
        metadata: { extensions: missing.join(',') },
      },
    );
  }
  const call = new HttpCallContext(version, tenant, activated, request);
  if (options.authenticate !== undefined) {
    const user = await options.authenticate(request);
    if (user !== undefined) call.user = user;
  }
  if (call.user === undefined && (options.card.securityRequirements?.length ?? 0) > 0) {
    throw new A2AError(
      'UnauthenticatedError',
      'This agent requires authentication; see securitySchemes in its agent card',
    );
  }
  return call;
}

/**
 * The `WWW-Authenticate` value for a 401 (RFC 9110 §11.6.1): one challenge per scheme the card
 * declares, so the client learns every way in. HTTP schemes keep their registered spelling
 * (`Bearer`, RFC 6750 §3; `Basic`, RFC 7617); OAuth and OpenID Connect are bearer tokens; API keys
 * have no registered scheme, so Concord names where the key goes.
 */
export function authenticateChallenge(card: Pick<AgentCard, 'securitySchemes'>): string {
  const challenges = new Set<string>();
  for (const scheme of Object.values(card.securitySchemes ?? {})) {
    if ('httpAuthSecurityScheme' in scheme) {
      const name = scheme.httpAuthSecurityScheme.scheme;
      const spelled = REGISTERED_SPELLING[name.toLowerCase()] ?? name;
      challenges.add(`${spelled} realm="a2a"`);
    } else if ('oauth2SecurityScheme' in scheme || 'openIdConnectSecurityScheme' in scheme) {
      challenges.add('Bearer realm="a2a"');
    } else if ('apiKeySecurityScheme' in scheme) {
      const { location, name } = scheme.apiKeySecurityScheme;
      challenges.add(`ApiKey realm="a2a", in="${location}", name="${name.replace(/["\\]/g, '')}"`);
    }
  }
  return challenges.size === 0 ? 'Bearer realm="a2a"' : [...challenges].join(', ');
}

const REGISTERED_SPELLING: Record<string, string> = { bearer: 'Bearer', basic: 'Basic', digest: 'Digest' };
