/**
 * `mandate_hash` and every other AUMP hash: `sha256-` + lowercase hex of SHA-256 over the UTF-8
 * bytes of the value's canonical JSON (aump-js `stableStringify`, Agentic-User-Mandate-Protocol/aump-js; decision 0055).
 *
 * The canonical form is RFC 8785 (the card layer's `canonicalJson`): keys sorted by UTF-16 code
 * units, no whitespace, strings as JSON.stringify writes them (non-ASCII as raw UTF-8, never
 * `\uXXXX`), numbers in ECMAScript form (`1.0` in a file is the number 1 and hashes as `1`). For
 * every JSON value that is byte for byte what the reference JavaScript SDK's `stableStringify`
 * produces, so the hashes equal the conformance fixtures'. Values that are not plain JSON
 * (undefined, NaN, class instances, lone surrogates) are refused with their JSON Pointer instead of
 * being hashed in some SDK-specific way.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../card/index.js';

/** The form of an AUMP hash. */
export const AUMP_HASH_PATTERN = /^sha256-[0-9a-f]{64}$/;

/** `sha256-<hex>` of the canonical JSON of `value`; throws CanonicalJsonError for non-JSON values. */
export function sha256Of(value: unknown): string {
  return `sha256-${createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex')}`;
}

/** The `mandate_hash` of a mandate document: the hash of the whole document, signatures included. */
export function mandateHash(mandate: object): string {
  return sha256Of(mandate);
}
