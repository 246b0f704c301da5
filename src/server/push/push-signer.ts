/**
 * Signs webhook deliveries (docs/decisions/0089-push-signatures.md). Each delivery carries a JWT
 * in `X-A2A-Signature` following the JWT + JWKS pattern of the A2A guide on push security
 * ("Streaming and asynchronous operations": `iss`, `aud`, `iat`, `exp`, `jti`, `taskId`, key
 * found by `kid` in the server's JWKS), plus the delivery's event id and `request_body_sha256`,
 * the hex SHA-256 of the exact body bytes, which binds the signature to the payload as the A2A
 * samples do. Receivers verify with any JOSE library against `<agent>/.well-known/jwks.json`.
 */
import { createHash, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { exportJWK, importPKCS8, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { SigningKey } from '../../card/index.js';

/** How long a delivery's JWT is valid: long enough for clock skew, short enough against replay. */
export const DELIVERY_TOKEN_LIFETIME_SECONDS = 300;

/** What one signature is about. */
export interface DeliveryClaims {
  /** The agent's base URL. */
  issuer: string;
  /** The webhook URL. */
  audience: string;
  taskId: string;
  /** The sequence number of the event (as in SSE `id:`), or the task version for a 0.3 Task. */
  eventId: number;
  /** The exact body bytes. */
  body: string;
  /** The JWKS URL, advertised in the header (`jku`). */
  jwksUrl?: string;
}

/** Signs deliveries with one key and publishes its public half; see the file comment. */
export class PushSigner {
  private key: Promise<CryptoKey | KeyObject> | undefined;
  private jwksBody: Promise<string> | undefined;

  constructor(readonly signingKey: SigningKey) {}

  /** The key id receivers look up in the JWKS. */
  get kid(): string {
    return this.signingKey.kid;
  }

  /** The compact JWT for one delivery. */
  async sign(claims: DeliveryClaims): Promise<string> {
    const { alg, kid } = this.signingKey;
    const header: { alg: string; kid: string; typ: string; jku?: string } = { alg, kid, typ: 'JWT' };
    if (claims.jwksUrl !== undefined) header.jku = claims.jwksUrl;
    const now = Math.floor(Date.now() / 1000);
    return (
      new SignJWT({
        taskId: claims.taskId,
        eventId: claims.eventId,
        request_body_sha256: createHash('sha256').update(claims.body, 'utf8').digest('hex'),
      })
        .setProtectedHeader(header)
        .setIssuer(claims.issuer)
        .setAudience(claims.audience)
        .setIssuedAt(now)
        .setExpirationTime(now + DELIVERY_TOKEN_LIFETIME_SECONDS)
        // Unique per attempt: a receiver may reject a replayed jti; retries are told apart by it.
        .setJti(randomUUID())
        .sign(await this.privateKey())
    );
  }

  /** The public key as a JWK with `kid`, `alg` and `use: sig`. */
  async publicJwk(): Promise<JWK> {
    const jwk = await exportJWK(createPublicKey(await pemOf(await this.privateKey())));
    return Object.assign({}, jwk, { kid: this.kid, alg: this.signingKey.alg, use: 'sig' });
  }

  /** The JWKS document (RFC 7517 §5) served at `.well-known/jwks.json`, built once. */
  jwksJson(): Promise<string> {
    this.jwksBody ??= this.publicJwk().then((jwk) => JSON.stringify({ keys: [jwk] }));
    return this.jwksBody;
  }

  private privateKey(): Promise<CryptoKey | KeyObject> {
    const { privateKey, alg } = this.signingKey;
    this.key ??=
      typeof privateKey === 'string'
        ? importPKCS8(privateKey, alg, { extractable: true })
        : Promise.resolve(privateKey as CryptoKey | KeyObject);
    return this.key;
  }
}

async function pemOf(key: CryptoKey | KeyObject): Promise<string> {
  if (!('algorithm' in key)) return (key as KeyObject).export({ type: 'pkcs8', format: 'pem' }) as string;
  const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', key as CryptoKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`;
}
