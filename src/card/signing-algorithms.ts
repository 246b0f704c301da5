/**
 * Which JWS algorithms a card signature may use (A2A 1.0 §8.4 names asymmetric algorithms such as
 * ES256 or RS256). `none` proves nothing, and HMAC (HS*) would need the verifier to hold the
 * signing secret, so anyone able to verify could also forge: neither is acceptable for a card
 * that many parties fetch (docs/decisions/0011-card-signing.md).
 */

/** Algorithms Concord signs cards with (the host config's `signing[].alg`). */
export const CARD_SIGNING_ALGORITHMS = ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'] as const;

/** An algorithm Concord signs cards with. */
export type CardSigningAlgorithm = (typeof CARD_SIGNING_ALGORITHMS)[number];

/**
 * The asymmetric JWS algorithms (RFC 7518 §3.1, RFC 8037): the only ones whose verification key
 * can be published. Cards are verified with these, and so are JWTs checked against a JWKS.
 */
export const ASYMMETRIC_JWS_ALGORITHMS: readonly string[] = Object.freeze([
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
]);

/** Algorithms accepted when verifying a card signed elsewhere. */
export const CARD_VERIFY_ALGORITHMS: readonly string[] = ASYMMETRIC_JWS_ALGORITHMS;

/** Why `alg` may never sign a card, or undefined when it is not one of the forbidden kinds. */
export function forbiddenAlgorithmReason(alg: string): string | undefined {
  if (alg.toLowerCase() === 'none') return 'alg "none" is an unsigned JWS and proves nothing';
  if (/^HS\d+$/i.test(alg)) {
    return `alg "${alg}" is an HMAC: whoever can verify it can forge it, so it cannot sign a public card`;
  }
  return undefined;
}
