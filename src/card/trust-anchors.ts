/**
 * Trust anchors for card signatures (decision 0166): what the verifier's caller trusts, never what
 * the card points at. A2A 1.0 §8.4.3 lets a verifier take the key "using the kid and jku (or from a
 * trusted key store)"; a `jku` is in the signer's own header, so following it alone proves only
 * that whoever signed the card also serves a key set (a2aproject/A2A issue #2096). Concord's
 * verifier accepts a signature only under a key the caller pinned, a key set the caller
 * configured, or an `x5c` certificate chain ending at a root certificate the caller configured
 * (the rule proposed by A2A pull request #2099 at 867fe682, with X.509 roots added).
 */
import { importSPKI, importX509, type CryptoKey, type JWK, type KeyObject } from 'jose';

/**
 * The anchor a verified signature's key was taken from: a key pinned by `kid`, a configured key set
 * (its position in `options.jwks`, and its URL when it was given as one), or a configured root
 * certificate that the signature's `x5c` chain leads to. `description` says it in one phrase.
 */
export type CardTrustAnchor =
  | { kind: 'key'; kid: string; description: string }
  | { kind: 'jwks'; index: number; url?: string; description: string }
  | {
      kind: 'root';
      /** The root certificate's subject, e.g. `CN=Example Root CA, O=Example`. */
      subject: string;
      /** SHA-256 fingerprint of the root certificate (colon-separated hex, as node:crypto gives it). */
      fingerprint256: string;
      /** Subjects from the signing certificate to the root. */
      chain: string[];
      description: string;
    };

/** A pinned key: a key object or JWK, or a PEM public key (SPKI) or certificate, whose key is used. */
export type PinnedKey = CryptoKey | KeyObject | JWK | string;

/** A URL fit for messages: no user name or password, and no query (either may carry a secret). */
export function safeUrl(url: URL | string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}${parsed.search === '' ? '' : '?…'}`;
}

/**
 * `text` (an error message about `url`, which may quote it) without the URL's user name, password
 * or query: the URL is written as `safeUrl` writes it, and each secret part left is replaced.
 */
export function withoutUrlSecrets(text: string, url: URL): string {
  let out = text.split(url.href).join(safeUrl(url));
  const secrets = [url.password, url.username, url.search.slice(1)].filter((part) => part.length >= 3);
  for (const secret of secrets) {
    out = out.split(secret).join('…');
    const decoded = safeDecode(secret);
    if (decoded !== secret) out = out.split(decoded).join('…');
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const PRIVATE_PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/**
 * Checks the pinned keys before any signature is read, so a mistake is named once and up front:
 * a private key where a public one belongs (never echoed), or a string that is no PEM.
 */
export function checkPinnedKeys(keys: Record<string, PinnedKey> | undefined): void {
  if (keys === undefined) return;
  for (const [kid, key] of Object.entries(keys)) {
    const where = `verifyAgentCard: options.keys[${JSON.stringify(kid)}]`;
    if (typeof key === 'string') {
      if (PRIVATE_PEM.test(key)) throw new Error(`${where} is a private key; pin the public key`);
      if (!/-----BEGIN (PUBLIC KEY|CERTIFICATE)-----/.test(key)) {
        throw new Error(`${where} is a string but not a PEM public key or certificate`);
      }
    } else if (isJwk(key) && typeof key.d === 'string') {
      throw new Error(`${where} is a private JWK (it has "d"); pin the public key`);
    }
  }
}

function isJwk(key: PinnedKey): key is JWK {
  return typeof key === 'object' && key !== null && 'kty' in key;
}

/**
 * The pinned key as jose verifies with it: a PEM is imported for the signature's `alg` (a PEM
 * carries no algorithm); a key of the wrong type for `alg` is an Error naming both.
 */
export async function usablePinnedKey(key: PinnedKey, alg: string): Promise<CryptoKey | KeyObject | JWK> {
  if (typeof key !== 'string') return key;
  const certificate = key.includes('-----BEGIN CERTIFICATE-----');
  try {
    return certificate ? await importX509(key, alg) : await importSPKI(key, alg);
  } catch (error) {
    throw new Error(
      `it is not a ${alg} ${certificate ? 'certificate' : 'public key'} (${(error as Error).message})`,
      { cause: error },
    );
  }
}

/** The anchor of a pinned key. */
export function pinnedAnchor(kid: string): CardTrustAnchor {
  return { kind: 'key', kid, description: `pinned key ${kid}` };
}

/** The anchor of the configured key set at `index` of `options.jwks`. */
export function keySetAnchor(index: number, url: URL | undefined): CardTrustAnchor {
  if (url === undefined) return { kind: 'jwks', index, description: `key set jwks[${index}]` };
  const shown = safeUrl(url);
  return { kind: 'jwks', index, url: shown, description: `key set ${shown}` };
}
