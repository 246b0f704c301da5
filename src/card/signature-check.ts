/**
 * Checks one signature of a card against the configured trust anchors (decision 0166): its header
 * (alg and kid present, alg accepted), then each key an anchor holds for its kid (pinned, key
 * sets), then its `x5c` chain. Says why it fails, keeping apart a signature that matches a key no
 * anchor vouches for (`untrusted-chain`), one that matches no key (`bad-signature`), and one whose
 * key is nowhere to be found (`no-key`: a `jku` is a hint and is not followed).
 */
import { base64url, errors, flattenedVerify, type FlattenedJWSInput, type JWSHeaderParameters } from 'jose';
import { describeSignature, type CardSignatureFailure } from './card-signature-error.js';
import { chainToRoot, readX5c, subjectOf, type X509, type x509Class } from './certificate-chain.js';
import { forbiddenAlgorithmReason } from './signing-algorithms.js';
import { safeUrl, type CardTrustAnchor } from './trust-anchors.js';
import type { CardKeyFinder, VerificationKey } from './verification-keys.js';

type Failure = CardSignatureFailure;

/** The signature that verified, and the anchor its key was taken from. */
export interface CardVerification {
  kid: string;
  alg: string;
  /** Its position in the card's `signatures`. */
  index: number;
  /** The trust anchor that vouched for the key (`description` says which in one phrase). */
  anchor: CardTrustAnchor;
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

/** What every signature of one verification is checked with. */
export interface Context {
  /** The payloads a signature may cover: the card as received, and its 1.0 presence form when it differs. */
  payloads: string[];
  algorithms: string[];
  finder: CardKeyFinder;
  roots: X509[];
  X509Certificate: ReturnType<typeof x509Class>;
  at: Date;
}

/** Whether `key` verifies the signature over one of the payloads. */
type Match = 'match' | 'mismatch' | { unusable: string } | { malformed: string };

async function matches(
  token: Omit<FlattenedJWSInput, 'payload'>,
  key: VerificationKey,
  ctx: Context,
): Promise<Match> {
  for (const payload of ctx.payloads) {
    try {
      await flattenedVerify({ ...token, payload }, key, { algorithms: ctx.algorithms });
      return 'match';
    } catch (error) {
      if (error instanceof errors.JWSSignatureVerificationFailed) continue;
      if (error instanceof errors.JWSInvalid) return { malformed: (error as Error).message };
      // Typically a key of the wrong type for alg (an RSA key for ES256): the key cannot verify it.
      return { unusable: (error as Error).message };
    }
  }
  return 'mismatch';
}

type Fail = (reason: Failure['reason'], message: string) => Failure;

/** The outcome of a signature's `x5c` chain: verified under a configured root, or why not. */
async function chainOutcome(
  x5c: unknown,
  token: Omit<FlattenedJWSInput, 'payload'>,
  signature: { kid: string; alg: string; index: number; name: string },
  ctx: Context,
  fail: Fail,
): Promise<CardVerification | Failure | undefined> {
  const X509Certificate = ctx.X509Certificate;
  if (X509Certificate === undefined) return undefined;
  const { kid, alg, index, name } = signature;
  const chain = readX5c(x5c, X509Certificate);
  if ('malformed' in chain) return fail('malformed', `${name}: ${chain.malformed}`);
  const leaf = chain[0] as X509;
  const subject = subjectOf(leaf);
  const match = await matches(token, leaf.publicKey, ctx);
  if (typeof match === 'object' && 'malformed' in match)
    return fail('malformed', `${name}: ${match.malformed}`);
  if (typeof match === 'object') {
    return fail(
      'bad-signature',
      `${name}: the key of its certificate ${subject} cannot verify it (${match.unusable})`,
    );
  }
  if (match === 'mismatch') {
    return fail(
      'bad-signature',
      `${name} does not match the card under the key of its certificate ${subject}: the card was altered after signing`,
    );
  }
  const trusted = chainToRoot(chain, ctx.roots, ctx.at);
  if ('problem' in trusted) {
    return fail(
      'untrusted-chain',
      `${name} matches the key of its certificate ${subject}, but the key is not anchored: ${trusted.problem}`,
    );
  }
  const root = subjectOf(trusted.root);
  const path = trusted.path.map(subjectOf);
  const anchor: CardTrustAnchor = {
    kind: 'root',
    subject: root,
    fingerprint256: trusted.root.fingerprint256,
    chain: path,
    description: `root certificate ${root} (chain ${path.join(' → ')})`,
  };
  return { kid, alg, index, anchor };
}

/** Why no anchor holds the key of a signature that carries no usable chain. */
function notAnchored(header: Record<string, unknown>, kid: string, name: string, ctx: Context): string {
  const jku = typeof header.jku === 'string' && URL.canParse(header.jku) ? header.jku : undefined;
  const anyAnchor = ctx.finder.configured || ctx.roots.length > 0;
  const parts = [
    anyAnchor
      ? `no pinned key or configured key set holds kid ${kid}`
      : 'no trust anchor is configured (pinned keys, key sets or root certificates)',
  ];
  if (jku !== undefined && !ctx.finder.hasKeySet(jku)) {
    parts.push(
      `its jku ${safeUrl(jku)} is a hint, not an anchor: pin the key or configure that key set to trust it`,
    );
  }
  if (header.x5c !== undefined && ctx.X509Certificate === undefined) {
    parts.push('its x5c chain cannot be checked without node:crypto');
  }
  return `${name}: the key is not anchored: ${parts.join('; ')}`;
}

/** The signature at `index` verified under an anchor, or why not. */
export async function checkOne(
  value: unknown,
  index: number,
  ctx: Context,
): Promise<CardVerification | Failure> {
  // What the failures name, once the header is read.
  const ids: { kid?: string; alg?: string } = {};
  const fail: Fail = (reason, message) => ({ index, reason, message, ...ids });
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
  if (kid !== undefined) ids.kid = kid;
  if (alg !== undefined) ids.alg = alg;
  const name = describeSignature(index, kid, alg);
  // A2A 1.0 §8.4: the protected header MUST carry alg and kid.
  if (alg === undefined || kid === undefined) {
    return fail('malformed', `${name}: the protected header lacks ${alg === undefined ? 'alg' : 'kid'}`);
  }
  const forbidden = forbiddenAlgorithmReason(alg);
  if (forbidden !== undefined) return fail('algorithm-refused', `${name}: ${forbidden}`);
  if (!ctx.algorithms.includes(alg)) {
    return fail(
      'algorithm-refused',
      `${name}: alg ${alg} is not accepted (accepted: ${ctx.algorithms.join(', ')})`,
    );
  }
  // The signing input is BASE64URL(payload) (A2A 1.0 §8.4); RFC 7797 unencoded payloads differ.
  if (header.b64 === false) return fail('malformed', `${name}: b64:false payloads are not used for cards`);
  if (
    sig.header !== undefined &&
    (typeof sig.header !== 'object' || sig.header === null || Array.isArray(sig.header))
  ) {
    return fail('malformed', `${name}: "header" is not an object`);
  }
  const token: Omit<FlattenedJWSInput, 'payload'> = { protected: sig.protected, signature: sig.signature };
  if (sig.header !== undefined) token.header = sig.header as JWSHeaderParameters;
  const lookup = { ...(header as JWSHeaderParameters), kid, alg };
  // The anchors that hold a key for this kid: pinned, then configured key sets.
  const mismatched: string[] = [];
  const unavailable: string[] = [];
  for await (const found of ctx.finder.keysFor(lookup, { ...token, payload: ctx.payloads[0] as string })) {
    if ('unavailable' in found) {
      unavailable.push(found.unavailable);
      continue;
    }
    if ('unusable' in found) {
      mismatched.push(`${found.anchor.description} (${found.unusable})`);
      continue;
    }
    const match = await matches(token, found.key, ctx);
    if (match === 'match') return { kid, alg, index, anchor: found.anchor };
    if (typeof match === 'object' && 'malformed' in match)
      return fail('malformed', `${name}: ${match.malformed}`);
    mismatched.push(
      match === 'mismatch' ? found.anchor.description : `${found.anchor.description} (${match.unusable})`,
    );
  }
  // Only the protected header's x5c counts: the unprotected header is not signed.
  const chain =
    header.x5c === undefined
      ? undefined
      : await chainOutcome(header.x5c, token, { kid, alg, index, name }, ctx, fail);
  if (chain !== undefined && !('reason' in chain)) return chain;
  if (mismatched.length > 0) {
    const message =
      `${name} does not match the card under ${mismatched.join(', ')}: ` +
      "the card was altered after signing, or the key is not the signer's";
    return fail('bad-signature', chain === undefined ? message : `${message}; ${chain.message}`);
  }
  if (chain !== undefined) return chain;
  if (unavailable.length > 0) {
    return fail('anchor-unavailable', `${name}: no key for kid ${kid}: ${unavailable.join('; ')}`);
  }
  return fail('no-key', notAnchored(header, kid, name, ctx));
}
