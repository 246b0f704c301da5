/**
 * Which IP addresses are not public (A2A 1.0 §13.2: "reject private ranges, localhost and link-local
 * addresses"), and allowlist rules (a host name, an IP literal or a CIDR block) that exempt some of
 * them. Pure: no I/O. Shared by the client's outbound guard and the server's webhook guard, so both
 * refuse the same targets for the same reasons.
 */
import { isIP } from 'node:net';

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
  // RFC 6598 carrier-grade NAT space; one cloud serves its metadata at 100.100.100.200.
  if (a === 100 && b >= 64 && b <= 127)
    return 'shared address space 100.64.0.0/10 (cloud metadata lives here)';
  if (a >= 224 && a <= 239) return 'multicast 224.0.0.0/4';
  if (a >= 240) return 'reserved 240.0.0.0/4';
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (with `::` expanded and a dotted tail converted). */
export function ipv6Groups(address: string): number[] {
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

function embeddedIpv4(g6: number, g7: number): string {
  return `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
}

/** Why an IPv6 address is not public, or undefined. */
function blockedIpv6(address: string): string | undefined {
  const g = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    // ::ffff:a.b.c.d (IPv4-mapped) and the deprecated ::a.b.c.d (IPv4-compatible) reach IPv4.
    if (g5 === 0xffff || (g5 === 0 && (g6 !== 0 || g7 > 1))) {
      const reason = blockedIpv4(embeddedIpv4(g6, g7));
      return reason === undefined ? undefined : `IPv4-mapped ${reason}`;
    }
    if (g5 === 0 && g6 === 0 && g7 === 1) return 'loopback ::1';
    if (g5 === 0 && g6 === 0 && g7 === 0) return 'the unspecified address ::';
  }
  // 64:ff9b::/96 (RFC 6052 NAT64) reaches the IPv4 address in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    const reason = blockedIpv4(embeddedIpv4(g6, g7));
    return reason === undefined ? undefined : `NAT64 ${reason}`;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local fc00::/7';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local fe80::/10';
  if ((g0 & 0xff00) === 0xff00) return 'multicast ff00::/8';
  return undefined;
}

/** Why `address` (an IP literal) is a non-public target, or undefined when it is public. */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return blockedIpv4(address);
  if (family === 6) return blockedIpv6(address);
  return 'not an IP address';
}

/** An allowlist entry: a host name (exact, case-insensitive) or a block of addresses. */
export type NetworkRule =
  | { kind: 'host'; host: string; text: string }
  | { kind: 'cidr'; family: 4 | 6; bits: bigint; prefix: number; text: string };

function addressBits(address: string, family: 4 | 6): bigint {
  if (family === 4) return ipv4Octets(address).reduce((acc, octet) => (acc << 8n) | BigInt(octet), 0n);
  return ipv6Groups(address).reduce((acc, group) => (acc << 16n) | BigInt(group), 0n);
}

/**
 * Parses `host`, `10.0.0.0/8`, `fd00::/8` or an IP literal (a block of one address). Throws a
 * TypeError naming the entry when it is neither a host name nor a valid CIDR block.
 */
export function parseNetworkRule(text: string): NetworkRule {
  const entry = text.trim();
  const slash = entry.indexOf('/');
  const address = (slash === -1 ? entry : entry.slice(0, slash)).replace(/^\[(.*)\]$/, '$1');
  const family = isIP(address);
  if (family === 0) {
    if (slash !== -1 || !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(entry)) {
      throw new TypeError(`${JSON.stringify(text)} is neither a host name nor an IP address or CIDR block`);
    }
    return { kind: 'host', host: entry.toLowerCase(), text: entry };
  }
  const width = family === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(width) : entry.slice(slash + 1);
  const prefix = Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText) || prefix > width) {
    throw new TypeError(`${JSON.stringify(text)}: the prefix length must be 0-${width}`);
  }
  const fam = family === 4 ? 4 : 6;
  const shift = BigInt(width - prefix);
  return {
    kind: 'cidr',
    family: fam,
    bits: (addressBits(address, fam) >> shift) << shift,
    prefix,
    text: entry,
  };
}

/** True when `address` (an IP literal) lies in the rule's block. Host rules match no address. */
export function ruleCoversAddress(rule: NetworkRule, address: string): boolean {
  if (rule.kind !== 'cidr') return false;
  const family = isIP(address);
  if (family !== rule.family) return false;
  const width = family === 4 ? 32 : 128;
  const shift = BigInt(width - rule.prefix);
  return (addressBits(address, rule.family) >> shift) << shift === rule.bits;
}

/** True when the rule names `host` (a host name or literal as written in a URL, without brackets). */
export function ruleNamesHost(rule: NetworkRule, host: string): boolean {
  return rule.kind === 'host' && rule.host === host.toLowerCase();
}
