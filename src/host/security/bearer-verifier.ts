/**
 * Bearer token verification: the token is a JWT (RFC 7519) checked with `jose` against the
 * scheme's JWKS (a remote URL, or a local file the loader resolved) or its shared HMAC secret.
 * Signature, `exp` (required: a token that never expires is a standing liability) and `nbf` are
 * always checked; `iss` and `aud` when configured. Failures become short reasons that never
 * include the token (A2A 1.0 §13.4: treat credentials as secrets, keep them out of logs).
 */
import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  jwtVerify,
  type FetchImplementation,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
} from 'jose';
import { ASYMMETRIC_JWS_ALGORITHMS } from '../../card/internal.js';
import type { BearerSchemeConfig } from '../host-config.js';
import type { CredentialCheck } from './credentials.js';
import type { SchemeIdentity } from './requirements.js';

/** Settings shared by every bearer scheme of an authenticator. */
export interface BearerVerifierOptions {
  /** Fetches remote key sets (default: global fetch). */
  fetch?: FetchImplementation;
  /** The clock, in milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** Allowed clock skew for `exp` and `nbf`, in seconds (default 30). */
  clockToleranceSeconds?: number;
}

/** Checks a presented bearer token for one scheme. */
export type BearerVerifier = (token: string) => Promise<CredentialCheck>;

const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'];
// Only asymmetric algorithms with a key set: a JWKS is public, so an HMAC key in it would let
// anyone who can read it mint tokens.
const KEY_SET_ALGORITHMS = [...ASYMMETRIC_JWS_ALGORITHMS];

function keySetFromFile(path: string, where: string): JWTVerifyGetKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'it is not valid JSON' : (error as Error).message;
    throw new TypeError(`${where}.jwks: cannot read the key set file ${path}: ${why}`);
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new TypeError(
      `${where}.jwks: ${path} is not a JWKS (expected {"keys": [...]} with at least one key)`,
    );
  }
  return createLocalJWKSet(parsed as { keys: [] });
}

function keyFor(
  scheme: BearerSchemeConfig,
  where: string,
  options: BearerVerifierOptions,
): { key: JWTVerifyGetKey | Uint8Array; algorithms: string[] } {
  const hasJwks = typeof scheme.jwks === 'string' && scheme.jwks !== '';
  const hasSecret = typeof scheme.secret === 'string' && scheme.secret !== '';
  if (hasJwks === hasSecret) {
    throw new TypeError(`${where}: a bearer scheme needs exactly one of "jwks" (a URL or file) or "secret"`);
  }
  if (hasSecret) return { key: new TextEncoder().encode(scheme.secret), algorithms: HMAC_ALGORITHMS };
  const jwks = scheme.jwks!;
  if (/^https?:\/\//i.test(jwks)) {
    return {
      key: createRemoteJWKSet(
        new URL(jwks),
        options.fetch === undefined ? {} : { [customFetch]: options.fetch },
      ),
      algorithms: KEY_SET_ALGORITHMS,
    };
  }
  return { key: keySetFromFile(jwks, where), algorithms: KEY_SET_ALGORITHMS };
}

/** A jose failure as a reason code and a sentence, or undefined when it is not the token's fault. */
function explain(error: unknown): { reason: string; detail: string } | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const claim = (error as { claim?: unknown } | null)?.claim;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return { reason: 'token_expired', detail: 'the token has expired' };
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if ((error as { reason?: unknown }).reason === 'missing') {
        return { reason: 'missing_claim', detail: `the token has no "${String(claim)}" claim` };
      }
      if (claim === 'nbf')
        return { reason: 'token_not_yet_valid', detail: 'the token is not valid yet (nbf)' };
      if (claim === 'iss')
        return { reason: 'wrong_issuer', detail: 'the token was issued by an untrusted issuer' };
      if (claim === 'aud')
        return { reason: 'wrong_audience', detail: 'the token is meant for another audience' };
      return { reason: 'invalid_claims', detail: `the token's "${String(claim)}" claim is invalid` };
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return { reason: 'bad_signature', detail: 'the token signature does not verify' };
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return {
        reason: 'algorithm_not_allowed',
        detail: 'the token is signed with an algorithm this scheme does not accept',
      };
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return { reason: 'unknown_key', detail: 'no key of the key set matches the token (kid/alg)' };
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return { reason: 'malformed_token', detail: 'the token is not a well-formed signed JWT' };
    default:
      return undefined;
  }
}

function scopesOf(payload: JWTPayload): string[] {
  // OAuth 2.0 puts a space-separated `scope` string (RFC 8693 §4.2); some issuers use `scp`.
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === 'string') return raw.split(' ').filter((s) => s !== '');
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === 'string' && s !== '');
  return [];
}

/** Builds the verifier of one bearer scheme; `where` names the scheme in configuration errors. */
export function createBearerVerifier(
  scheme: BearerSchemeConfig,
  where: string,
  options: BearerVerifierOptions = {},
): BearerVerifier {
  const { key, algorithms } = keyFor(scheme, where, options);
  const principalClaim = scheme.principalClaim ?? 'sub';
  const now = options.now;
  const base: JWTVerifyOptions = {
    algorithms,
    requiredClaims: ['exp'],
    clockTolerance: options.clockToleranceSeconds ?? 30,
    ...(scheme.issuer === undefined ? {} : { issuer: scheme.issuer }),
    ...(scheme.audience === undefined ? {} : { audience: scheme.audience }),
  };
  return async (token) => {
    if (token === '')
      return { kind: 'invalid', reason: 'malformed_token', detail: 'the bearer token is empty' };
    let payload: JWTPayload;
    try {
      const verifyOptions = now === undefined ? base : { ...base, currentDate: new Date(now()) };
      // Two overloads (key vs key resolver) share one runtime; the union needs picking by hand.
      payload =
        key instanceof Uint8Array
          ? (await jwtVerify(token, key, verifyOptions)).payload
          : (await jwtVerify(token, key, verifyOptions)).payload;
    } catch (error) {
      const why = explain(error);
      return why === undefined ? { kind: 'unavailable', error } : { kind: 'invalid', ...why };
    }
    const principal = payload[principalClaim];
    if (typeof principal !== 'string' || principal === '') {
      return {
        kind: 'invalid',
        reason: 'missing_claim',
        detail: `the token has no "${principalClaim}" claim naming the caller`,
      };
    }
    const identity: SchemeIdentity = { principal, scopes: scopesOf(payload) };
    return { kind: 'valid', identity };
  };
}
