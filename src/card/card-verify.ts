/**
 * Verifies AgentCard signatures (A2A 1.0 §8.4): rebuild the canonical payload from the card as
 * received (JCS of the JSON without `signatures`), then check the signatures in order until one
 * verifies under a trust anchor the caller configured (decision 0166): a key pinned by `kid`, a
 * configured key set (verification-keys.ts), or an `x5c` chain to a configured root certificate
 * (certificate-chain.ts). A `jku` alone never anchors. The result names the anchor; a failure says
 * per signature why, keeping "valid but not anchored" apart from "does not match".
 */
import { base64url } from 'jose';
import { CanonicalJsonError } from './canonical-json.js';
import { CardSignatureError, type CardSignatureFailure } from './card-signature-error.js';
import { cardSigningPayload } from './card-signing.js';
import { parseRoots, x509Class } from './certificate-chain.js';
import { checkOne, type CardVerification, type Context } from './signature-check.js';
import { CARD_VERIFY_ALGORITHMS, forbiddenAlgorithmReason } from './signing-algorithms.js';
import {
  CardKeyFinder,
  type JwksFetcher,
  type JwksSource,
  type VerificationKey,
} from './verification-keys.js';

export type { CardVerification } from './signature-check.js';

/**
 * The trust anchors `verifyAgentCard` accepts signatures under (each the caller's choice, never the
 * card's), and how it checks them.
 */
export interface VerifyCardOptions {
  /**
   * Pinned public keys by `kid`: a JWK, a CryptoKey or KeyObject, or a PEM public key (SPKI) or
   * certificate whose key is pinned. Consulted first.
   */
  keys?: Record<string, VerificationKey | string>;
  /**
   * Key sets the caller trusts: a JWKS document, its URL (fetched once per call, through
   * `fetchJwks`), or a resolver such as `createRemoteJWKSet(url)`; or a list of them. A signature's
   * `jku` equal to a configured URL only makes that set be searched first.
   */
  jwks?: JwksSource | readonly JwksSource[];
  /**
   * Root certificates (PEM; one string may hold several): a signature whose protected header
   * carries an `x5c` chain leading to one of them verifies with the chain's first certificate.
   * Needs node:crypto (Node.js).
   */
  roots?: readonly string[];
  /** Fetches remote key sets; default jose's fetch. The client passes its guarded HTTP (decision 0039). */
  fetchJwks?: JwksFetcher;
  /** Accepted algorithms (default: every asymmetric JWS algorithm); `none` and HS* are refused. */
  algorithms?: readonly string[];
  /** The time certificates must be valid at (default: now). */
  currentDate?: Date;
}

type Failure = CardSignatureFailure;

function acceptedAlgorithms(requested: readonly string[] | undefined): string[] {
  if (requested === undefined) return [...CARD_VERIFY_ALGORITHMS];
  for (const alg of requested) {
    const forbidden = forbiddenAlgorithmReason(alg);
    if (forbidden !== undefined) throw new Error(`verifyAgentCard: options.algorithms: ${forbidden}`);
  }
  if (requested.length === 0) throw new Error('verifyAgentCard: options.algorithms is empty');
  return [...requested];
}

/**
 * Verifies the signatures of a card's wire JSON (any version) and returns the first that holds
 * under a configured trust anchor, naming the anchor. Throws `CardSignatureError` (its `reason`
 * and `failures` say why, per signature) when none does; throws a plain Error for unusable options.
 */
export async function verifyAgentCard(
  cardJson: unknown,
  options: VerifyCardOptions,
): Promise<CardVerification> {
  const algorithms = acceptedAlgorithms(options.algorithms);
  const finder = new CardKeyFinder(options.keys, options.jwks, options.fetchJwks);
  const roots = options.roots === undefined || options.roots.length === 0 ? [] : parseRoots(options.roots);
  const at = options.currentDate ?? new Date();
  if (Number.isNaN(at.getTime())) throw new Error('verifyAgentCard: options.currentDate is not a valid date');
  if (typeof cardJson !== 'object' || cardJson === null || Array.isArray(cardJson)) {
    throw new CardSignatureError('malformed', 'the card is not a JSON object');
  }
  const card = cardJson as Record<string, unknown>;
  const signatures = card.signatures;
  if (
    signatures === undefined ||
    signatures === null ||
    (Array.isArray(signatures) && signatures.length === 0)
  ) {
    throw new CardSignatureError('unsigned', 'the card has no signatures');
  }
  if (!Array.isArray(signatures))
    throw new CardSignatureError('malformed', 'the card\'s "signatures" is not an array');
  let payloads: string[];
  try {
    const payload = base64url.encode(cardSigningPayload(card));
    // A 1.0 card is signed after ProtoJSON presence (A2A 1.0 §8.4.1): where that drops a member
    // the card carries at its default, the signature covers the card without it (decision 0149).
    const presence = base64url.encode(cardSigningPayload(card, '1.0'));
    payloads = presence === payload ? [payload] : [payload, presence];
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    throw new CardSignatureError('malformed', `the card has no canonical form: ${error.message}`);
  }
  const ctx: Context = { payloads, algorithms, finder, roots, X509Certificate: x509Class(), at };
  const failures: Failure[] = [];
  for (let index = 0; index < signatures.length; index++) {
    const result = await checkOne(signatures[index], index, ctx);
    if (!('reason' in result)) return result;
    failures.push(result);
  }
  throw CardSignatureError.fromFailures(failures);
}
