/**
 * The error `verifyAgentCard` throws: why no signature of a card verified, per signature, so a
 * client (or `concord card verify`) can say exactly what is wrong with a card it fetched.
 */

/**
 * Why a card is not accepted: it has no signatures; no key was found for any of them; a key was
 * found but the signature does not match the card (altered card or wrong key); or a signature
 * (or the card) is not well-formed, including a forbidden or unaccepted algorithm.
 */
export type CardSignatureReason = 'unsigned' | 'no-key' | 'bad-signature' | 'malformed';

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
// the signature still failed says more than a missing key, which says more than bad syntax).
const RANK: Record<CardSignatureFailure['reason'], number> = {
  'bad-signature': 3,
  'no-key': 2,
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
