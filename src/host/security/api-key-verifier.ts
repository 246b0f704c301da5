/**
 * API key verification (A2A 1.0 §4.5 APIKeySecurityScheme): the presented key is compared with
 * every configured key in constant time. Both sides are hashed first, so the comparison always
 * runs over equal-length digests and neither the key's length nor the position of the first
 * differing byte leaks through timing (A2A 1.0 §13.4: treat credentials as secrets).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeySchemeConfig } from '../host-config.js';
import type { CredentialCheck } from './credentials.js';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Compares two secrets without leaking, through timing, where or whether their lengths differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** Checks a presented API key against one scheme's configured keys. */
export type ApiKeyVerifier = (presented: string) => CredentialCheck;

/** Builds the verifier of one apiKey scheme; `where` names the scheme in configuration errors. */
export function createApiKeyVerifier(scheme: ApiKeySchemeConfig, where: string): ApiKeyVerifier {
  if (!Array.isArray(scheme.keys)) throw new TypeError(`${where}.keys: expected a list of keys`);
  const entries = scheme.keys.map((entry, index) => {
    const at = `${where}.keys[${index}]`;
    if (typeof entry.key !== 'string' || entry.key === '')
      throw new TypeError(`${at}.key: expected a non-empty key`);
    if (typeof entry.principal !== 'string' || entry.principal === '') {
      throw new TypeError(`${at}.principal: expected a non-empty principal name`);
    }
    if (!Array.isArray(entry.scopes) || !entry.scopes.every((s) => typeof s === 'string')) {
      throw new TypeError(`${at}.scopes: expected a list of scope names`);
    }
    return { hash: digest(entry.key), identity: { principal: entry.principal, scopes: [...entry.scopes] } };
  });
  const distinct = new Set(entries.map((e) => e.hash.toString('hex')));
  if (distinct.size !== entries.length) throw new TypeError(`${where}.keys: the same key is listed twice`);
  return (presented) => {
    if (presented === '') return { kind: 'invalid', reason: 'empty_api_key', detail: 'the API key is empty' };
    const hash = digest(presented);
    // Visit every entry, so the time taken does not tell which entry (if any) matched.
    let match: (typeof entries)[number] | undefined;
    for (const entry of entries) if (timingSafeEqual(hash, entry.hash) && match === undefined) match = entry;
    if (match === undefined) {
      return { kind: 'invalid', reason: 'unknown_api_key', detail: 'the API key is not recognised' };
    }
    return {
      kind: 'valid',
      identity: { principal: match.identity.principal, scopes: [...match.identity.scopes] },
    };
  };
}
