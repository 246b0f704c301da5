/**
 * The host a listener names in the URLs it advertises (decision 0149). A listener bound to one
 * address names it. One bound to every address (`0.0.0.0`, `::`) names the machine: its host
 * name, which other machines can resolve, else its first address that is not a loopback one.
 * Never `localhost` or `127.0.0.1`: from anywhere but this machine those reach the caller itself.
 * Behind a proxy or NAT neither is what clients use: that is what a public URL is for.
 */
import { hostname, networkInterfaces } from 'node:os';

const DNS_NAME =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** `address` as the host part of a URL; the machine's name for a wildcard bind. */
export function advertisedHost(address: string): string {
  const host = address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
  return host === '0.0.0.0' || host === '[::]' ? machineHost() : host;
}

/** This machine as other machines may reach it; see the file comment. */
export function machineHost(): string {
  const name = hostname().trim().toLowerCase();
  if (DNS_NAME.test(name) && name.length <= 253 && name !== 'localhost' && !name.endsWith('.localhost')) {
    return name;
  }
  const addresses = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((each) => !each.internal);
  const v4 = addresses.find((each) => each.family === 'IPv4');
  if (v4 !== undefined) return v4.address;
  const v6 = addresses.find((each) => each.family === 'IPv6' && !each.address.startsWith('fe80'));
  // A machine with no other address: its name, whatever it is, still says which machine.
  return v6 !== undefined ? `[${v6.address}]` : name || 'localhost';
}
