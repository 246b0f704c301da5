/**
 * `A2A-Version` negotiation (A2A 1.0 §3.6): read from the header or, over REST, the
 * query parameter; empty or missing means 0.3; patch numbers are ignored; anything else this
 * server does not speak is VersionNotSupportedError (-32009).
 */
import { quote } from './decode-kit.js';
import { A2AError } from './errors.js';
import type { ProtocolVersion } from './codec.js';

/** The versions a Concord server speaks. */
export const SUPPORTED_VERSIONS: readonly ProtocolVersion[] = ['0.3', '1.0'];

/** Maps a requested version string to a supported version, or throws -32009. */
export function negotiateVersion(requested: string | null | undefined): ProtocolVersion {
  const raw = (requested ?? '').trim();
  if (raw === '') return '0.3';
  // Several values may arrive comma-separated (A2A 1.0 §3.2.6); take the highest we speak.
  let best: ProtocolVersion | undefined;
  for (const candidate of raw.split(',')) {
    const match = /^\s*(\d+)\.(\d+)(?:\.\d+)?\s*$/.exec(candidate);
    if (match === null) continue;
    const majorMinor = `${Number(match[1])}.${Number(match[2])}`;
    if (majorMinor === '1.0') best = '1.0';
    else if (majorMinor === '0.3' && best === undefined) best = '0.3';
  }
  if (best === undefined) {
    throw new A2AError(
      'VersionNotSupportedError',
      `A2A-Version ${quote(raw)} is not supported; supported versions: ${SUPPORTED_VERSIONS.join(', ')}`,
      { metadata: { requestedVersion: raw, supportedVersions: SUPPORTED_VERSIONS.join(',') } },
    );
  }
  return best;
}
