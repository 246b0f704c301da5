/**
 * Verifies AgentCard signatures (A2A 1.0 §8.4): rebuild the canonical payload from
 * the card as received (JCS of the JSON without `signatures`), then check the signatures in order
 * until one verifies. Keys come from the caller: a key map by `kid`, a JWKS (document, URL or
 * resolver), or a `jku` the caller lists as trusted (verification-keys.ts).
 */
import { base64url, errors, flattenedVerify, type FlattenedJWSInput, type JWSHeaderParameters } from 'jose';
import { CanonicalJsonError } from './canonical-json.js';
import { CardSignatureError, describeSignature, type CardSignatureFailure } from './card-signature-error.js';
import { cardSigningPayload } from './card-signing.js';
import { CARD_VERIFY_ALGORITHMS, forbiddenAlgorithmReason } from './signing-algorithms.js';
import {
  CardKeyFinder,
  type JwksFetcher,
  type JwksSource,
  type VerificationKey,
} from './verification-keys.js';

/** Where `verifyAgentCard` takes keys from, and which algorithms it accepts. */
export interface VerifyCardOptions {
  /** A JWKS document, its URL (fetched once per call), or a resolver such as `createRemoteJWKSet(url)`. */
  jwks?: JwksSource;
  /** Public keys by `kid`; consulted before `jwks`. */
  keys?: Record<string, VerificationKey>;
  /** `jku` URLs the caller trusts; a signature naming one of them has its key fetched from it. */
  trustedJkus?: readonly string[];
  /** Fetches remote key sets (jwks URL, trusted jku); default jose's fetch. The client passes its guarded HTTP. */
  fetchJwks?: JwksFetcher;
  /** Accepted algorithms (default: every asymmetric JWS algorithm); `none` and HS* are refused. */
  algorithms?: readonly string[];
}

/** The signature that verified. */
export interface CardVerification {
  kid: string;
  alg: string;
  /** Its position in the card's `signatures`. */
  index: number;
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

function readHeader(encoded: string): Record<string, unknown> | undefined {
  try {
    const header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(encoded)),
    ) as unknown;
    return typeof header === 'object' && header !== null && !Array.isArray(header)
      ? (header as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

interface Context {
  payload: string;
  algorithms: string[];
  finder: CardKeyFinder;
}

async function checkOne(value: unknown, index: number, ctx: Context): Promise<CardVerification | Failure> {
  const fail = (reason: Failure['reason'], message: string, kid?: string, alg?: string): Failure => ({
    index,
    reason,
    message,
    ...(kid !== undefined ? { kid } : {}),
    ...(alg !== undefined ? { alg } : {}),
  });
  const sig = value as Record<string, unknown> | null;
  if (
    typeof sig !== 'object' ||
    sig === null ||
    typeof sig.protected !== 'string' ||
    typeof sig.signature !== 'string'
  ) {
    return fail('malformed', `signature ${index} is not an object with string "protected" and "signature"`);
  }
  const header = readHeader(sig.protected);
  if (header === undefined) {
    return fail('malformed', `signature ${index}: "protected" is not a base64url-encoded JSON object`);
  }
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const alg = typeof header.alg === 'string' ? header.alg : undefined;
  const name = describeSignature(index, kid, alg);
  // A2A 1.0 §8.4: the protected header MUST carry alg and kid.
  if (alg === undefined || kid === undefined) {
    return fail(
      'malformed',
      `${name}: the protected header lacks ${alg === undefined ? 'alg' : 'kid'}`,
      kid,
      alg,
    );
  }
  const forbidden = forbiddenAlgorithmReason(alg);
  if (forbidden !== undefined) return fail('malformed', `${name}: ${forbidden}`, kid, alg);
  if (!ctx.algorithms.includes(alg)) {
    return fail(
      'malformed',
      `${name}: alg ${alg} is not accepted (accepted: ${ctx.algorithms.join(', ')})`,
      kid,
      alg,
    );
  }
  // The signing input is BASE64URL(payload) (A2A 1.0 §8.4); RFC 7797 unencoded payloads differ.
  if (header.b64 === false)
    return fail('malformed', `${name}: b64:false payloads are not used for cards`, kid, alg);
  if (
    sig.header !== undefined &&
    (typeof sig.header !== 'object' || sig.header === null || Array.isArray(sig.header))
  ) {
    return fail('malformed', `${name}: "header" is not an object`, kid, alg);
  }
  const token: FlattenedJWSInput = {
    payload: ctx.payload,
    protected: sig.protected,
    signature: sig.signature,
  };
  if (sig.header !== undefined) token.header = sig.header as JWSHeaderParameters;
  const found = await ctx.finder.find({ ...(header as JWSHeaderParameters), kid, alg }, token, name);
  if ('missing' in found) return fail('no-key', found.missing, kid, alg);
  try {
    await flattenedVerify(token, found.key, { algorithms: ctx.algorithms });
    return { kid, alg, index };
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      const message = `${name} does not match the card: the card was altered after signing or the key is wrong`;
      return fail('bad-signature', message, kid, alg);
    }
    if (error instanceof errors.JWSInvalid || error instanceof errors.JOSENotSupported) {
      return fail('malformed', `${name}: ${(error as Error).message}`, kid, alg);
    }
    // Typically a key of the wrong type for alg (an RSA key for ES256): the key is wrong.
    return fail(
      'bad-signature',
      `${name}: the key for kid ${kid} cannot verify it (${(error as Error).message})`,
      kid,
      alg,
    );
  }
}

/**
 * Verifies the signatures of a card's wire JSON (any version) and returns the first that holds.
 * Throws `CardSignatureError` (reason 'unsigned' | 'no-key' | 'bad-signature' | 'malformed') with
 * a message naming each failed signature; throws a plain Error for unusable options.
 */
export async function verifyAgentCard(
  cardJson: unknown,
  options: VerifyCardOptions,
): Promise<CardVerification> {
  const algorithms = acceptedAlgorithms(options.algorithms);
  const finder = new CardKeyFinder(options.keys, options.jwks, options.trustedJkus, options.fetchJwks);
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
  let payload: string;
  let presence: string;
  try {
    payload = base64url.encode(cardSigningPayload(card));
    // A 1.0 card is signed after ProtoJSON presence (A2A 1.0 §8.4.1): where that drops a member
    // the card carries at its default, the signature covers the card without it (decision 0149).
    presence = base64url.encode(cardSigningPayload(card, '1.0'));
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    throw new CardSignatureError('malformed', `the card has no canonical form: ${error.message}`);
  }
  const ctx: Context = { payload, algorithms, finder };
  const failures: Failure[] = [];
  for (let index = 0; index < signatures.length; index++) {
    let result = await checkOne(signatures[index], index, ctx);
    if ('reason' in result && result.reason === 'bad-signature' && presence !== payload) {
      const again = await checkOne(signatures[index], index, { ...ctx, payload: presence });
      if (!('reason' in again)) result = again;
    }
    if (!('reason' in result)) return result;
    failures.push(result);
  }
  throw CardSignatureError.fromFailures(failures);
}
