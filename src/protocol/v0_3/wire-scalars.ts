/**
 * Readers for the 0.3 wire values the shared decode kit does not cover: `kind` discriminators,
 * base64 file bytes, status timestamps, ProtoJSON integers and oneofs, and the 0.3 meaning of
 * `historyLength`. Each throws InvalidParamsError naming the JSON Pointer of the bad value.
 */
import { invalidParams } from '../errors.js';
import { optionalInteger, pointer, readTimestamp, altKey, type JsonObject, quote } from '../decode-kit.js';

const INT32_MAX = 2147483647;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${quote(value)}`;
}

/**
 * Reads the REQUIRED `kind` discriminator of a 0.3 JSON-RPC object (`types.ts`; A2A 0.3
 * §6) and checks it is one of `allowed`.
 */
export function readKind<K extends string>(obj: JsonObject, path: string, allowed: readonly K[]): K {
  const value = obj.kind;
  const at = pointer(path, 'kind');
  if (value === undefined || value === null) throw invalidParams(at, 'is required');
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidParams(at, `unknown kind ${describe(value)}; expected ${allowed.join(' or ')}`);
  }
  return value as K;
}

// Standard and URL-safe alphabets with optional padding; ProtoJSON parsers accept both.
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Reads file bytes: a base64 string (RFC 4648 §4 or §5), kept encoded as the canonical `raw`. */
export function readBase64(value: unknown, path: string): string {
  if (typeof value !== 'string')
    throw invalidParams(path, `expected a base64 string, got ${describe(value)}`);
  const padded = value.endsWith('=');
  // One leftover character never encodes a byte; padded input must fill whole 4-character quanta.
  if (!BASE64.test(value) || (padded ? value.length % 4 !== 0 : value.length % 4 === 1)) {
    throw invalidParams(path, 'expected base64 (RFC 4648 §4 or §5) content');
  }
  return value;
}

/**
 * Reads a status timestamp. 0.3 only says "ISO 8601" (peers send `+00:00` offsets), while the
 * canonical model holds UTC with `Z` (A2A 1.0 §5.6.1), so offset forms are normalised to UTC.
 */
export function readStatusTimestamp(value: unknown, path: string): string {
  const text = readTimestamp(value, path);
  const last = text[text.length - 1];
  return last === 'Z' ? text : new Date(text).toISOString();
}

/**
 * Reads an optional integer. On the REST wire (ProtoJSON) an int32 may also arrive as a decimal
 * string, which the proto3 JSON mapping defines as equivalent; JSON-RPC takes numbers only.
 */
export function optionalWireInteger(
  obj: JsonObject,
  key: string,
  path: string,
  proto: boolean,
  min = 0,
  alt?: unknown,
): number | undefined {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
  const value = obj[key];
  if (proto && typeof value === 'string') {
    if (!/^-?\d{1,10}$/.test(value)) {
      throw invalidParams(pointer(path, key), `expected an integer, got ${describe(value)}`);
    }
    return optionalInteger({ [key]: Number(value) }, key, path, min, INT32_MAX);
  }
  return optionalInteger(obj, key, path, min, INT32_MAX);
}

/**
 * Reads `historyLength` with its 0.3 meaning: 0 (and, in ProtoJSON, absence) means "unlimited"
 * (0.3 proto comment; decision 0005), which the canonical model spells as absent. Negative
 * values are rejected.
 */
export function readHistoryLength(
  obj: JsonObject,
  key: string,
  path: string,
  proto: boolean,
  alt?: unknown,
): number | undefined {
  const value = optionalWireInteger(obj, key, path, proto, 0, alt);
  return value === 0 ? undefined : value;
}

/**
 * Returns which member of a oneof is set (`null` counts as unset, proto3 JSON). `aliases` maps a
 * proto field name to its json_name (`msg` -> `message`): ProtoJSON parsers accept both spellings.
 * Zero or several members is an error at the enclosing object, since no single member is at fault.
 */
export function readOneof(
  obj: JsonObject,
  path: string,
  keys: readonly string[],
  aliases?: Readonly<Record<string, string>>,
): { key: string; member: string } {
  let found: { key: string; member: string } | undefined;
  const check = (key: string, member: string): void => {
    const value = obj[key];
    if (value === undefined || value === null) return;
    if (found !== undefined) {
      throw invalidParams(
        path,
        `must set exactly one of ${keys.join(', ')}; both ${found.key} and ${key} are set`,
      );
    }
    found = { key, member };
  };
  for (const key of keys) check(key, key);
  if (aliases !== undefined) for (const alias of Object.keys(aliases)) check(alias, aliases[alias] as string);
  if (found === undefined) throw invalidParams(path, `must set exactly one of ${keys.join(', ')}`);
  return found;
}

export { optionalProtoString } from '../decode-kit.js';

/** Returns a REQUIRED member's value, or throws "is required" at its pointer. */
export function requiredValue(obj: JsonObject, key: string, path: string): unknown {
  const value = obj[key];
  if (value === undefined || value === null) throw invalidParams(pointer(path, key), 'is required');
  return value;
}

/** Reads one string element of a list. */
export function readString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalidParams(path, `expected a string, got ${describe(value)}`);
  return value;
}
