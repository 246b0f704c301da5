/**
 * Who may use an agent's owner APIs — approvals (decision 0017), push deliveries and AUMP
 * evidence (decision 0159): callers the host authenticates holding the owner scope
 * (`agents:approve`), or, on a host without security, only the host's own tools on the internal
 * listener (the public one then answers 404, as if the route did not exist).
 */
import { A2AError, toA2AError, toRestErrorBody, type AgentCard } from '../protocol/internal.js';
import { authenticateChallenge, type HttpRequest, type HttpResponse } from '../server/internal.js';
import type { HostConfig } from './host-config.js';
import type { HostAuthenticator } from './security/index.js';

/** The scope that makes a caller an owner who may decide approvals and read the owner APIs. */
export const APPROVAL_SCOPE = 'agents:approve';

/** What deciding who is an owner needs. */
export interface OwnerAccess {
  config: HostConfig;
  auth: HostAuthenticator | undefined;
  /** True on the internal listener. */
  internal: boolean;
}

/** The owner's principal name (`internal` for the internal listener); refuses anyone else. */
export async function ownerOf(request: HttpRequest, access: OwnerAccess, what: string): Promise<string> {
  const { auth, config } = access;
  if (auth === undefined || config.security === undefined) {
    // No way to authenticate anyone: only the host's own tools, on the internal listener.
    if (access.internal) return 'internal';
    throw new A2AError('MethodNotFoundError', `${what} are served on the internal listener of this host`);
  }
  const alternatives = Object.keys(config.security.schemes).map((name) => ({ [name]: [APPROVAL_SCOPE] }));
  const identity = await auth.authenticate(request, alternatives);
  if (identity === undefined) throw new A2AError('UnauthenticatedError', `${what} require authentication`);
  return identity.name;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** An owner API's JSON answer. */
export function ownerJson(status: number, body: unknown): HttpResponse {
  return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

/** The refusal of a method an owner route does not take. */
export function notAllowed(method: string): A2AError {
  return new A2AError('MethodNotFoundError', `${method} is not allowed here`);
}

/**
 * What went wrong, in the HTTP+JSON error envelope with its status; a 401 says how to
 * authenticate (RFC 9110 §11.6.1), as the agent's own endpoints do with `card`.
 */
export function ownerRefusal(error: unknown, card: Pick<AgentCard, 'securitySchemes'>): HttpResponse {
  const a2a = toA2AError(error);
  const headers: Record<string, string> = { ...JSON_HEADERS };
  if (a2a.entry.httpStatus === 401) headers['www-authenticate'] = authenticateChallenge(card);
  return { status: a2a.entry.httpStatus, headers, body: JSON.stringify(toRestErrorBody(a2a)) };
}
