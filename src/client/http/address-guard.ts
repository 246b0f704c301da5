/**
 * The SSRF guard (A2A 1.0 §13.2): a card URL, an interface URL or a token endpoint
 * comes from someone else, so the client refuses to connect to private, loopback, link-local or
 * unspecified addresses unless the caller allows it. The check itself is the net layer's (shared
 * with the server's webhook guard): every address a hostname resolves to is checked (a name with
 * one private answer is refused), and the connection then goes to the checked address
 * (pinned-http.ts), so a second DNS answer cannot swap in another target.
 */
import { inspectTarget, type HostResolver, type ResolvedAddress } from '../../net/index.js';
import { A2ALocalError } from '../client-errors.js';

export {
  bareHostname,
  blockedAddressReason,
  type HostResolver,
  type ResolvedAddress,
} from '../../net/index.js';

/** Which targets the client may connect to. */
export interface NetworkPolicy {
  /** Allow private, loopback and link-local targets everywhere (local development, tests). */
  allowPrivateNetworks?: boolean;
  /** Hostnames or IP literals exempt from the private-address check (exact, case-insensitive). */
  allowedHosts?: readonly string[];
  /** How hostnames are resolved; replace it to route through another resolver. */
  resolve?: HostResolver;
}

/** Just the policy's own members of a larger options object (the rest is not the pipeline's). */
export function networkPolicyOf(options: NetworkPolicy): NetworkPolicy {
  return Object.assign(
    {},
    options.allowPrivateNetworks === undefined ? {} : { allowPrivateNetworks: options.allowPrivateNetworks },
    options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts },
    options.resolve === undefined ? {} : { resolve: options.resolve },
  );
}

/**
 * Resolves the URL's host and checks every answer against the policy. Returns the address to
 * connect to (the first answer); throws SSRF_BLOCKED naming the host, the address and why.
 */
export async function checkTarget(url: URL, policy: NetworkPolicy): Promise<ResolvedAddress> {
  const verdict = await inspectTarget(url, policy);
  if (verdict.ok) return verdict.address;
  const { host } = verdict;
  switch (verdict.problem) {
    case 'scheme':
      throw new A2ALocalError('SSRF_BLOCKED', `Refusing ${url.href}: only http and https URLs are fetched`, {
        url: url.href,
      });
    case 'unresolvable':
      throw new A2ALocalError(
        'NETWORK',
        `Cannot resolve ${host}: ${verdict.reason}`,
        Object.assign({}, verdict.cause === undefined ? {} : { cause: verdict.cause }, { url: url.href }),
      );
    case 'blocked':
      throw new A2ALocalError(
        'SSRF_BLOCKED',
        `Refusing ${url.href}: ${host} resolves to ${verdict.address}, ${verdict.reason}; ` +
          'pass allowPrivateNetworks: true or list the host in allowedHosts to allow it',
        { url: url.href },
      );
  }
}
