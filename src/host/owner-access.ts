/**
 * Who may use an agent's owner APIs — approvals (decision 0017), push deliveries and AUMP
 * evidence (decision 0159): callers the host authenticates holding the owner scope
 * (`agents:approve`), or, on a host without security, only the host's own tools on the internal
 * listener (the public one then answers 404, as if the route did not exist).
 */
import { A2AError } from '../protocol/internal.js';
import type { HttpRequest } from '../server/internal.js';
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
