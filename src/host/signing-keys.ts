/**
 * The host's card-signing keys: imported once from the PEM files the config names, and published
 * as a JWKS at `/.well-known/jwks.json` so clients can verify the cards they fetch (A2A 1.0 §8.4:
 * "keys come from jku/kid or a trusted key store").
 */
import { createPublicKey } from 'node:crypto';
import { exportJWK, importPKCS8, type JWK } from 'jose';
import type { SigningKey } from '../card/index.js';
import type { SigningKeyConfig } from './host-config.js';

/** Imports the configured private keys; a key that does not match its `alg` fails here. */
export async function importSigningKeys(configs: SigningKeyConfig[]): Promise<SigningKey[]> {
  const keys: SigningKey[] = [];
  for (const config of configs) {
    let privateKey: CryptoKey;
    try {
      privateKey = (await importPKCS8(config.privateKeyPem, config.alg, { extractable: true })) as CryptoKey;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`signing key "${config.kid}": not a PKCS#8 private key for ${config.alg} (${why})`);
    }
    keys.push({
      kid: config.kid,
      alg: config.alg,
      privateKey,
      ...(config.jku === undefined ? {} : { jku: config.jku }),
    });
  }
  return keys;
}

/** The public halves of the keys, as a JWKS (RFC 7517 §5). */
export async function publicJwks(keys: SigningKey[]): Promise<{ keys: JWK[] }> {
  const out: JWK[] = [];
  for (const key of keys) {
    const pem =
      typeof key.privateKey === 'string'
        ? createPublicKey(key.privateKey)
        : createPublicKey(await toPem(key.privateKey as CryptoKey));
    const jwk = await exportJWK(pem);
    out.push({ ...jwk, kid: key.kid, alg: key.alg, use: 'sig' });
  }
  return { keys: out };
}

async function toPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`;
}
