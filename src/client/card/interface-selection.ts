/**
 * Chooses the interface to talk to (A2A 1.0 §8.3.2). The card's order is the agent's preference
 * (1.0 `supportedInterfaces`, first preferred; 0.3 `url` + `preferredTransport`, then
 * `additionalInterfaces`, which the 0.3 codec rebuilds into the same list). The caller may
 * restrict and reorder: `versions` (default `['1.0', '0.3']`: the newer version wins when the
 * agent offers both) ranks first, `bindings` (when given) second, the card's order last.
 */
import type { AgentCard, AgentInterface, ProtocolVersion } from '../../protocol/index.js';
import { A2ALocalError } from '../client-errors.js';
import type { ClientBinding, TransportInfo } from '../transports/transport.js';

/** The caller's preference. */
export interface TransportPreference {
  /** Bindings allowed, most preferred first (default: all three, in the card's order). */
  bindings?: readonly ClientBinding[];
  /** Protocol versions allowed, most preferred first (default `['1.0', '0.3']`). */
  versions?: readonly ProtocolVersion[];
}

const SPOKEN: readonly ClientBinding[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

/** `Major.Minor` of a card's protocol version (patch numbers never matter, A2A 1.0 §3.6). */
export function majorMinor(version: string): ProtocolVersion | undefined {
  const match = /^\s*(\d+)\.(\d+)/.exec(version);
  if (match === null) return undefined;
  const value = `${Number(match[1])}.${Number(match[2])}`;
  return value === '1.0' || value === '0.3' ? value : undefined;
}

/** The chosen interface, or NO_COMPATIBLE_INTERFACE listing what the card offers. */
export function selectInterface(card: AgentCard, preference: TransportPreference = {}): TransportInfo {
  const versions = preference.versions ?? ['1.0', '0.3'];
  const bindings = preference.bindings ?? SPOKEN;
  const candidates: { info: TransportInfo; rank: number[] }[] = [];
  card.supportedInterfaces.forEach((iface: AgentInterface, index) => {
    const version = majorMinor(iface.protocolVersion);
    const binding = iface.protocolBinding as ClientBinding;
    if (version === undefined || !versions.includes(version) || !bindings.includes(binding)) return;
    const info: TransportInfo = { url: iface.url, protocolBinding: binding, protocolVersion: version };
    if (iface.tenant !== undefined && iface.tenant !== '') info.tenant = iface.tenant;
    const bindingRank = preference.bindings === undefined ? 0 : bindings.indexOf(binding);
    candidates.push({ info, rank: [versions.indexOf(version), bindingRank, index] });
  });
  candidates.sort((a, b) => {
    for (let i = 0; i < a.rank.length; i++) {
      const d = (a.rank[i] ?? 0) - (b.rank[i] ?? 0);
      if (d !== 0) return d;
    }
    return 0;
  });
  const chosen = candidates[0];
  if (chosen === undefined) {
    const offered = card.supportedInterfaces
      .map((i) => `${i.protocolBinding} ${i.protocolVersion} at ${i.url}`)
      .join('; ');
    throw new A2ALocalError(
      'NO_COMPATIBLE_INTERFACE',
      `The card of "${card.name}" offers no interface with binding ${bindings.join('/')} and version ${versions.join('/')}` +
        ` (it offers: ${offered || 'nothing'})`,
    );
  }
  return chosen.info;
}
