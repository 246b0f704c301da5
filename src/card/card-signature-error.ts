/**
 * The error `verifyAgentCard` throws: why no signature of a card verified, per signature, so a
 * client (or `concord card verify`) can say exactly what is wrong with a card it fetched.
 */

/**
 * Why a card is not accepted (decision 0166), from the most telling:
 * - `bad-signature`: a key was found (an anchored one, or the key of the signature's own
 *   certificate) and the signature does not match the card: altered card, or not the signer's key;
 * - `untrusted-chain`: the signature matches the key of its `x5c` certificate, but the chain does
 *   not lead to a configured root (other root, expired or not yet valid, a broken link, not a CA);
 * - `anchor-unavailable`: a configured key set could not be read, and no other anchor holds the key;
 * - `no-key`: the key is not anchored: no pinned key or configured key set holds the kid (a `jku`
 *   is a hint and is not followed), so the signature could not be checked at all;
 * - `algorithm-refused`: `none`, HMAC, or an algorithm outside `options.algorithms`;
 * - `malformed`: the signature or the card is not well-formed;
 * - `unsigned`: the card has no signatures.
 */
export type CardSignatureReason =
  | 'unsigned'
  | 'no-key'
  | 'anchor-unavailable'
  | 'untrusted-chain'
  | 'bad-signature'
  | 'algorithm-refused'
  | 'malformed';

/** What went wrong with one signature of the card. */
export interface CardSignatureFailure {
  /** Position in the card's `signatures` array. */
  index: number;
  kid?: string;
  alg?: string;
  reason: Exclude<CardSignatureReason, 'unsigned'>;
  /** One sentence, naming the signature. */
  message: string;
}

// Reported reason when signatures fail differently: the most telling one (a key was found and
// the signature still failed says more than an unanchored chain or key, which says more than bad
// syntax).
const RANK: Record<CardSignatureFailure['reason'], number> = {
  'bad-signature': 6,
  'untrusted-chain': 5,
  'anchor-unavailable': 4,
  'no-key': 3,
  'algorithm-refused': 2,
  malformed: 1,
};

/** No signature of a card verified; `failures` says why for each one. */
export class CardSignatureError extends Error {
  override readonly name = 'CardSignatureError';

  constructor(
    readonly reason: CardSignatureReason,
    message: string,
    readonly failures: readonly CardSignatureFailure[] = [],
  ) {
    super(message);
  }

  /** The error for a card whose every signature failed (at least one failure). */
  static fromFailures(failures: readonly CardSignatureFailure[]): CardSignatureError {
    let worst = failures[0] as CardSignatureFailure;
    for (const failure of failures) if (RANK[failure.reason] > RANK[worst.reason]) worst = failure;
    const message =
      failures.length === 1
        ? `the card signature does not verify: ${worst.message}`
        : `none of the card's ${failures.length} signatures verifies: ${failures.map((f) => f.message).join('; ')}`;
    return new CardSignatureError(worst.reason, message, failures);
  }
}

/** Names a signature in messages: `signature 0 (kid ec-1, ES256)`. */
export function describeSignature(index: number, kid?: string, alg?: string): string {
  const details = [kid !== undefined ? `kid ${kid}` : undefined, alg].filter((d) => d !== undefined);
  return details.length > 0 ? `signature ${index} (${details.join(', ')})` : `signature ${index}`;
}
