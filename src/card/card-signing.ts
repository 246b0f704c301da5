/**
 * Signs AgentCards (A2A 1.0 §8.4): the payload is the RFC 8785 canonical form of the
 * card JSON without its `signatures` member; each signature is a detached JWS whose protected
 * header carries `alg`, `kid`, `typ: "JOSE"` and optionally `jku` (and `x5c`), stored as `{protected,
 * signature}` (the payload is left out: every verifier rebuilds it from the card it received).
 *
 * Signing works on wire JSON, not on the canonical model, because a signature must cover the exact
 * JSON a client receives: the host signs its 1.0 JSON and its 0.3 JSON separately
 * (docs/decisions/0011-card-signing.md).
 */
import { FlattenedSign, importPKCS8, type CryptoKey, type KeyObject } from 'jose';
import type { AgentCardSignature, ProtocolVersion } from '../protocol/index.js';
import { canonicalJson } from './canonical-json.js';
import { checkHttpUrl } from './http-url.js';
import { CARD_SIGNING_ALGORITHMS, type CardSigningAlgorithm } from './signing-algorithms.js';

/** A private key that signs cards. */
export interface SigningKey {
  /** Key id, written to the protected header so verifiers can find the public key. */
  kid: string;
  alg: CardSigningAlgorithm;
  /** A Web Crypto or node:crypto private key, or a PKCS#8 PEM string. */
  privateKey: CryptoKey | KeyObject | string;
  /** A JWKS URL advertised in the protected header (optional; A2A 1.0 §8.4). */
  jku?: string;
  /**
   * The key's certificate chain for the protected header's `x5c` (RFC 7515 §4.1.6: base64 DER,
   * this key's certificate first), for verifiers that anchor cards at a root certificate (decision 0166).
   */
  x5c?: readonly string[];
}

/** The card JSON without `signatures` (a shallow copy; the input is not changed). */
function unsigned(cardJson: Record<string, unknown>): Record<string, unknown> {
  const { signatures: _signatures, ...rest } = cardJson;
  return rest;
}

/**
 * The exact bytes signed for a card: the JCS (RFC 8785) form of `cardJson` without `signatures`,
 * as UTF-8 (A2A 1.0 §8.4). Throws `CanonicalJsonError` when the JSON is not plain JSON.
 * With `version` 1.0 the JSON is first taken through ProtoJSON presence (`presenceForm`).
 */
export function cardSigningPayload(cardJson: Record<string, unknown>, version?: ProtocolVersion): Uint8Array {
  const json = version === '1.0' ? presenceForm(cardJson) : cardJson;
  return new TextEncoder().encode(canonicalJson(unsigned(json)));
}

/**
 * A2A 1.0 §8.4.1 signs the card "after ProtoJSON presence rules": a member without tracked
 * presence is left out at its default. Concord's 1.0 encoder already writes nothing at a default
 * but AgentExtension `required: false` (a plain proto3 bool, written out because profiles check
 * for it: the AUMP binding), so that member is dropped here. The official SDKs' verifiers read
 * the card through the proto and rebuild exactly this (decision 0149). `cardJson` is not changed.
 */
export function presenceForm(cardJson: Record<string, unknown>): Record<string, unknown> {
  const capabilities = cardJson.capabilities as Record<string, unknown> | undefined;
  const extensions = capabilities?.extensions;
  if (!Array.isArray(extensions) || !extensions.some(requiredFalse)) return cardJson;
  const kept = extensions.map((entry: unknown) => {
    if (!requiredFalse(entry)) return entry;
    const { required: _default, ...rest } = entry as Record<string, unknown>;
    return rest;
  });
  return { ...cardJson, capabilities: { ...capabilities, extensions: kept } };
}

function requiredFalse(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && (entry as { required?: unknown }).required === false;
}

function describeKey(key: SigningKey, index: number): string {
  return `signing key ${index} (kid ${JSON.stringify(key.kid)}, ${String(key.alg)})`;
}

function checkKey(key: SigningKey, index: number, kids: Set<string>): void {
  if (typeof key.kid !== 'string' || key.kid === '') {
    throw new Error(`signing key ${index} has no kid; A2A 1.0 §8.4 requires one in the protected header`);
  }
  if (!(CARD_SIGNING_ALGORITHMS as readonly string[]).includes(key.alg)) {
    throw new Error(`${describeKey(key, index)}: alg must be one of ${CARD_SIGNING_ALGORITHMS.join(', ')}`);
  }
  if (kids.has(key.kid)) {
    throw new Error(
      `${describeKey(key, index)}: another key has the same kid; verifiers could not tell them apart`,
    );
  }
  kids.add(key.kid);
  if (key.jku !== undefined) {
    const check = checkHttpUrl(key.jku);
    // A2A 1.0 §8.4: verifiers fetch jku over HTTPS; plain http only for a key server on this machine.
    if (!check.ok || (check.url.protocol !== 'https:' && !check.loopback)) {
      throw new Error(`${describeKey(key, index)}: jku "${key.jku}" must be an absolute https URL`);
    }
  }
  if (key.x5c !== undefined) {
    const base64 = /^[A-Za-z0-9+/]+={0,2}$/;
    if (key.x5c.length === 0 || !key.x5c.every((c) => typeof c === 'string' && base64.test(c))) {
      throw new Error(
        `${describeKey(key, index)}: x5c must list base64 DER certificates, the key's own first`,
      );
    }
  }
}

async function privateKeyOf(key: SigningKey, index: number): Promise<CryptoKey | KeyObject> {
  if (typeof key.privateKey !== 'string') return key.privateKey;
  try {
    return await importPKCS8(key.privateKey, key.alg);
  } catch (error) {
    throw new Error(
      `${describeKey(key, index)}: privateKey is not a PKCS#8 PEM ${key.alg} key (${(error as Error).message})`,
      { cause: error },
    );
  }
}

async function signOne(payload: Uint8Array, key: SigningKey, index: number): Promise<AgentCardSignature> {
  const header: { alg: string; kid: string; typ: string; jku?: string; x5c?: string[] } = {
    alg: key.alg,
    kid: key.kid,
    typ: 'JOSE',
  };
  if (key.jku !== undefined) header.jku = key.jku;
  if (key.x5c !== undefined) header.x5c = [...key.x5c];
  const privateKey = await privateKeyOf(key, index);
  let jws;
  try {
    jws = await new FlattenedSign(payload).setProtectedHeader(header).sign(privateKey);
  } catch (error) {
    throw new Error(
      `${describeKey(key, index)}: signing failed, is it a private ${key.alg} key? (${(error as Error).message})`,
      { cause: error },
    );
  }
  // Detached: the payload is the card itself, rebuilt by the verifier (A2A 1.0 §8.4).
  return { protected: jws.protected ?? '', signature: jws.signature };
}

/**
 * Signs a card's wire JSON with every key, in order: several signatures allow key rotation (A2A
 * 1.0 §8.4). Existing `signatures` are ignored, not signed over. `version` is the card's protocol
 * version: a 1.0 card is signed after ProtoJSON presence (`presenceForm`); a 0.3 card, whose
 * spec defines no canonical form, as it is (decision 0011).
 */
export async function signAgentCard(
  cardJson: Record<string, unknown>,
  keys: readonly SigningKey[],
  version?: ProtocolVersion,
): Promise<AgentCardSignature[]> {
  if (keys.length === 0) throw new Error('signAgentCard needs at least one signing key');
  const kids = new Set<string>();
  keys.forEach((key, index) => checkKey(key, index, kids));
  const payload = cardSigningPayload(cardJson, version);
  return Promise.all(keys.map((key, index) => signOne(payload, key, index)));
}

/** A copy of `cardJson` carrying `signatures` (replacing any it had; none when the list is empty). */
export function withSignatures(
  cardJson: Record<string, unknown>,
  signatures: readonly AgentCardSignature[],
): Record<string, unknown> {
  const out = unsigned(cardJson);
  if (signatures.length > 0) out.signatures = signatures.map((s) => ({ ...s }));
  return out;
}
