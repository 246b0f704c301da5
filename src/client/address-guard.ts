/**
 * The SSRF guard (digest §7.5; issue 5 item 1): a card URL, an interface URL or a token endpoint
 * comes from someone else, so the client refuses to connect to private, loopback, link-local or
 * unspecified addresses unless the caller allows it. The check runs on every address a hostname
 * resolves to (a name with one private answer is refused), and the connection then goes to the
 * checked address (pinned-http.ts), so a second DNS answer cannot swap in another target.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { A2ALocalError } from './client-errors.js';

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every address it has (default: `dns.lookup` with `all: true`). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Which targets the client may connect to. */
export interface NetworkPolicy {
  /** Allow private, loopback and link-local targets everywhere (local development, tests). */
  allowPrivateNetworks?: boolean;
  /** Hostnames or IP literals exempt from the private-address check (exact, case-insensitive). */
  allowedHosts?: readonly string[];
  /** How hostnames are resolved; replace it to route through another resolver. */
  resolve?: HostResolver;
}

const defaultResolver: HostResolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function ipv4Octets(address: string): number[] {
  return address.split('.').map(Number);
}

/** Why an IPv4 address is not public, or undefined. */
function blockedIpv4(address: string): string | undefined {
  const [a = 0, b = 0] = ipv4Octets(address);
  if (a === 0) return 'the unspecified network 0.0.0.0/8';
  if (a === 127) return 'loopback 127.0.0.0/8';
  if (a === 10) return 'private 10.0.0.0/8';
  if (a === 172 && b >= 16 && b <= 31) return 'private 172.16.0.0/12';
  if (a === 192 && b === 168) return 'private 192.168.0.0/16';
  if (a === 169 && b === 254) return 'link-local 169.254.0.0/16 (cloud metadata lives here)';
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (with `::` expanded and a dotted tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Octets(dotted[1] ?? '');
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
}

/** Why an IPv6 address is not public, or undefined. */
function blockedIpv6(address: string): string | undefined {
  const g = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    // ::ffff:a.b.c.d (IPv4-mapped) and the deprecated ::a.b.c.d (IPv4-compatible) reach IPv4.
    if (g5 === 0xffff || (g5 === 0 && (g6 !== 0 || g7 > 1))) {
      const v4 = `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
      const reason = blockedIpv4(v4);
      return reason === undefined ? undefined : `IPv4-mapped ${reason}`;
    }
    if (g5 === 0 && g6 === 0 && g7 === 1) return 'loopback ::1';
    if (g5 === 0 && g6 === 0 && g7 === 0) return 'the unspecified address ::';
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local fc00::/7';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local fe80::/10';
  return undefined;
}

/** Why `address` (an IP literal) is a non-public target, or undefined when it is public. */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return blockedIpv4(address);
  if (family === 6) return blockedIpv6(address);
  return 'not an IP address';
}

/** The hostname of a URL without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves the URL's host and checks every answer against the policy. Returns the address to
 * connect to (the first answer); throws SSRF_BLOCKED naming the host, the address and why.
 */
export async function checkTarget(url: URL, policy: NetworkPolicy): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new A2ALocalError('SSRF_BLOCKED', `Refusing ${url.href}: only http and https URLs are fetched`, {
      url: url.href,
    });
  }
  const host = bareHostname(url);
  const literal = isIP(host);
  let answers: ResolvedAddress[];
  if (literal !== 0) answers = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      answers = await (policy.resolve ?? defaultResolver)(host);
    } catch (error) {
      throw new A2ALocalError('NETWORK', `Cannot resolve ${host}: ${(error as Error).message}`, {
        cause: error,
        url: url.href,
      });
    }
    if (answers.length === 0) {
      throw new A2ALocalError('NETWORK', `Cannot resolve ${host}: no addresses`, { url: url.href });
    }
  }
  const exempt =
    policy.allowPrivateNetworks === true ||
    (policy.allowedHosts ?? []).some(
      (h) => h.toLowerCase().replace(/^\[(.*)\]$/, '$1') === host.toLowerCase(),
    );
  if (!exempt) {
    for (const answer of answers) {
      const reason = blockedAddressReason(answer.address);
      if (reason !== undefined) {
        throw new A2ALocalError(
          'SSRF_BLOCKED',
          `Refusing ${url.href}: ${host} resolves to ${answer.address}, ${reason}; ` +
            'pass allowPrivateNetworks: true or list the host in allowedHosts to allow it',
          { url: url.href },
        );
      }
    }
  }
  return answers[0] as ResolvedAddress;
}
