/**
 * A card's signature checked in the browser against the host's published keys
 * (`/.well-known/jwks.json`, A2A 1.0 §8.4), with the same verification Concord's client runs:
 * the card module is bundled into the page (it needs only WebCrypto, through jose).
 */
import { verifyAgentCard } from '../../../src/card/card-verify';
import { call } from '../api/http';

export type SignatureStatus =
  { kind: 'verified'; kid: string; alg: string } | { kind: 'unsigned' } | { kind: 'failed'; reason: string };

let hostKeys: Promise<unknown> | undefined;

/** The host's key set, fetched once per page load; undefined when the host publishes none. */
function keys(): Promise<unknown> {
  hostKeys ??= call('../.well-known/jwks.json').then(
    (response) => response.json(),
    () => undefined,
  );
  return hostKeys;
}

export async function signatureStatus(card: Record<string, unknown>): Promise<SignatureStatus> {
  const signatures = card.signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) return { kind: 'unsigned' };
  const jwks = await keys();
  if (jwks === undefined) return { kind: 'failed', reason: 'the host publishes no keys to check it with' };
  try {
    const verified = await verifyAgentCard(card, { jwks: jwks as never });
    return { kind: 'verified', kid: verified.kid, alg: verified.alg };
  } catch (error) {
    return { kind: 'failed', reason: (error as Error).message };
  }
}
