/**
 * Checking an outbound URL before connecting (A2A 1.0 §13.2): the host is resolved once, every answer
 * is checked (a name with one private answer is refused), and the connection then goes to the
 * checked address through `pinnedLookup`, so a second DNS answer cannot swap in another target
 * (DNS rebinding). The verdict is data: each caller (the client, the webhook sender) words its own
 * refusal, with its own way to lift it.
 */
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import {
  blockedAddressReason,
  ruleCoversAddress,
  ruleNamesHost,
  type NetworkRule,
} from './address-classes.js';

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every address it has (default: `dns.lookup` with `all: true`). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver: `dns.lookup` with every answer, in the order the system gives them. */
export const systemResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** What is exempt from the private-address check, and how names are resolved. */
export interface TargetRules {
  /** Allow every private, loopback and link-local target. */
  allowPrivateNetworks?: boolean;
  /** Host names or IP literals exempt (exact, case-insensitive). */
  allowedHosts?: readonly string[];
  /** Host names and CIDR blocks exempt (`parseNetworkRule`). */
  allowedNetworks?: readonly NetworkRule[];
  resolve?: HostResolver;
}

/** A target that may be connected to, at `address`. */
export interface TargetAccepted {
  ok: true;
  host: string;
  address: ResolvedAddress;
}

/** A target refused: not http(s), not resolvable, or resolving to a non-public address. */
export interface TargetRefused {
  ok: false;
  problem: 'scheme' | 'unresolvable' | 'blocked';
  host: string;
  /** The offending answer, for `blocked`. */
  address?: string;
  /** Why, in words (`loopback 127.0.0.0/8`, the resolver's error...). */
  reason: string;
  cause?: unknown;
}

/** The hostname of a URL without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function exempt(rules: TargetRules, host: string, address: string): boolean {
  if (rules.allowPrivateNetworks === true) return true;
  const lower = host.toLowerCase();
  if ((rules.allowedHosts ?? []).some((h) => h.toLowerCase().replace(/^\[(.*)\]$/, '$1') === lower))
    return true;
  return (rules.allowedNetworks ?? []).some(
    (rule) => ruleNamesHost(rule, host) || ruleCoversAddress(rule, address),
  );
}

/** Resolves the URL's host and checks every answer against the rules; see the file comment. */
export async function inspectTarget(url: URL, rules: TargetRules): Promise<TargetAccepted | TargetRefused> {
  const host = bareHostname(url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: 'scheme', host, reason: `${url.protocol} is not http or https` };
  }
  const literal = isIP(host);
  let answers: ResolvedAddress[];
  if (literal !== 0) answers = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      answers = await (rules.resolve ?? systemResolver)(host);
    } catch (error) {
      return { ok: false, problem: 'unresolvable', host, reason: (error as Error).message, cause: error };
    }
    if (answers.length === 0) return { ok: false, problem: 'unresolvable', host, reason: 'no addresses' };
  }
  for (const answer of answers) {
    const reason = blockedAddressReason(answer.address);
    if (reason !== undefined && !exempt(rules, host, answer.address)) {
      return { ok: false, problem: 'blocked', host, address: answer.address, reason };
    }
  }
  return { ok: true, host, address: answers[0] as ResolvedAddress };
}

/** A `lookup` for node:http / node:https that answers with the checked address only. */
export function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
