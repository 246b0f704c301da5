/**
 * ProtoJSON reading rules of the 1.0 wire (A2A 1.0 §5.5) that the shared decode kit does not cover:
 * oneof members, required enum and message members, implicit-presence strings, `bytes`, string
 * lists and string maps, plus value-based readers for the hot request/task paths (see below).
 * Every reader throws InvalidParamsError naming the exact JSON Pointer of the bad value.
 */
import { invalidParams } from '../errors.js';
import {
  altSpelling,
  isSet,
  mapItems,
  pointer,
  protoNameOf,
  readEnum,
  readObject,
  requiredArray,
  spelling,
  tolerate,
  type JsonObject,
  quote,
} from '../decode-kit.js';

/** Largest proto `int32`; bounds every count and size field. */
export const INT32_MAX = 2147483647;

export { isSet };

/**
 * Returns a REQUIRED member's value, read by the caller as `value` from the object at `path`, or
 * throws "is required" at `path/key` (A2A 1.0 §5.7). `key` must be a literal member name.
 */
export function requiredValue(value: unknown, path: string, key: string): unknown {
  if (value === undefined || value === null) throw invalidParams(`${path}/${key}`, 'is required');
  return value;
}

/**
 * Returns the one member of a oneof that is set. Zero or several set members is an error naming the
 * enclosing object, since no single member is at fault (proto3 oneof semantics).
 */
export function readOneof<K extends string>(obj: JsonObject, path: string, keys: readonly K[]): K {
  let found: K | undefined;
  for (const key of keys) {
    if (!isSet(obj[key])) continue;
    if (found !== undefined) {
      throw invalidParams(
        path,
        `must set exactly one of ${keys.join(', ')}; both ${found} and ${key} are set`,
      );
    }
    found = key;
  }
  if (found === undefined) throw invalidParams(path, `must set exactly one of ${keys.join(', ')}`);
  return found;
}

/**
 * Like readOneof, for oneofs whose members may also come under their proto names (decision 0136):
 * returns the canonical member `key` and the `member` name it was sent under.
 */
export function readOneofMember<K extends string>(
  obj: JsonObject,
  path: string,
  keys: readonly K[],
): { key: K; member: string } {
  let found: { key: K; member: string } | undefined;
  for (const key of keys) {
    let member: string = key;
    if (!isSet(obj[key])) {
      member = protoNameOf(key);
      if (member === key || !isSet(obj[member])) continue;
    } else if (protoNameOf(key) !== key && isSet(obj[protoNameOf(key)])) {
      member = spelling(obj, key, protoNameOf(key), path);
    }
    if (found !== undefined) {
      throw invalidParams(
        path,
        `must set exactly one of ${keys.join(', ')}; both ${found.key} and ${key} are set`,
      );
    }
    found = { key, member };
  }
  if (found === undefined) throw invalidParams(path, `must set exactly one of ${keys.join(', ')}`);
  return found;
}

/** Reads a REQUIRED enum member by name (or proto number); a missing member is "is required". */
export function requiredEnumValue<T extends string>(
  value: unknown,
  path: string,
  key: string,
  names: Readonly<Record<string, T>>,
  numbers?: readonly (T | undefined)[],
): T {
  return readEnum(requiredValue(value, path, key), `${path}/${key}`, names, numbers);
}

export { optionalProtoString } from '../decode-kit.js';

/** Reads one string element of a list. */
export function readString(value: unknown, path: string): string {
  if (typeof value !== 'string') {
    throw invalidParams(path, `expected a string, got ${kindOf(value)}`);
  }
  return value;
}

/** Reads a REQUIRED `repeated string`: present, and non-empty (A2A 1.0 §5.7). */
export function requiredStringList(obj: JsonObject, key: string, path: string, alt?: unknown): string[] {
  return requiredArray(obj, key, path, readString, true, alt);
}

/**
 * Reads a `map<string, string>` member. ProtoJSON omits an empty map, so absence reads as `{}`.
 * The object is returned as parsed (JSON.parse makes own data properties, `__proto__` included).
 */
export function readStringMap(obj: JsonObject, key: string, path: string): Record<string, string> {
  const value = obj[key];
  if (!isSet(value)) return {};
  const at = `${path}/${key}`;
  const map = readObject(value, at);
  for (const name of Object.keys(map)) {
    if (typeof map[name] !== 'string') readString(map[name], pointer(at, name));
  }
  return map as Record<string, string>;
}

// Standard and URL-safe alphabets, optional padding: ProtoJSON parsers accept both (proto3 JSON spec).
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Reads a proto `bytes` value: a base64 or base64url string, kept encoded. */
export function readBase64(value: unknown, path: string): string {
  if (typeof value !== 'string') {
    throw invalidParams(path, `expected a base64 string, got ${kindOf(value)}`);
  }
  const padded = value.endsWith('=');
  // One leftover character can never encode a byte; padded input must fill whole quanta.
  if (!BASE64.test(value) || (padded ? value.length % 4 !== 0 : value.length % 4 === 1)) {
    throw invalidParams(path, 'expected base64 (RFC 4648 §4 or §5) content');
  }
  return value;
}

// Value-based readers for hot paths. Callers read members by name (`obj.text`), which V8 serves
// from inline caches, where the key-based decode-kit readers pay a megamorphic keyed load per
// member (measured ~2x slower on absent members). `key` must be a literal member name: it is
// appended to the pointer unescaped, and only when reporting an error. A multi-word field also
// passes its proto-name value as `alt` (`obj.context_id`), read when the json name is absent and
// refused as a duplicate when both are set (decision 0136); its pointer then names the proto name.

/** Checks an optional string member already read as `value` from the object at `path`. */
export function stringValue(value: unknown, path: string, key: string, alt?: unknown): string | undefined {
  if (alt !== undefined && alt !== null) {
    const name = altSpelling(value, path, key);
    if (name !== undefined) {
      value = alt;
      key = name;
    }
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw invalidParams(`${path}/${key}`, `expected a string, got ${kindOf(value)}`);
  return value;
}

/** Checks an optional implicit-presence string member: `""` reads as absent (see optionalProtoString). */
export function protoStringValue(
  value: unknown,
  path: string,
  key: string,
  alt?: unknown,
): string | undefined {
  if (alt !== undefined && alt !== null) {
    const name = altSpelling(value, path, key);
    if (name !== undefined) {
      value = alt;
      key = name;
    }
  }
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw invalidParams(`${path}/${key}`, `expected a string, got ${kindOf(value)}`);
  return value;
}

/** Checks an optional boolean member. */
export function booleanValue(value: unknown, path: string, key: string, alt?: unknown): boolean | undefined {
  if (alt !== undefined && alt !== null) {
    const name = altSpelling(value, path, key);
    if (name !== undefined) {
      value = alt;
      key = name;
    }
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw invalidParams(`${path}/${key}`, `expected a boolean, got ${kindOf(value)}`);
  return value;
}

/** Checks an optional integer member within [min, max]; "1" is not a number (no coercion). */
export function integerValue(
  value: unknown,
  path: string,
  key: string,
  min: number,
  max: number,
  alt?: unknown,
): number | undefined {
  if (alt !== undefined && alt !== null) {
    const name = altSpelling(value, path, key);
    if (name !== undefined) {
      value = alt;
      key = name;
    }
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalidParams(`${path}/${key}`, `expected an integer, got ${kindOf(value)}`);
  }
  if (value < min || value > max)
    throw invalidParams(`${path}/${key}`, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** Checks an optional object member (metadata, Struct). */
export function objectValue(
  value: unknown,
  path: string,
  key: string,
  alt?: unknown,
): JsonObject | undefined {
  if (alt !== undefined && alt !== null) {
    const name = altSpelling(value, path, key);
    if (name !== undefined) {
      value = alt;
      key = name;
    }
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParams(`${path}/${key}`, `expected an object, got ${kindOf(value)}`);
  }
  return value as JsonObject;
}

/** Checks an optional array-of-strings member. */
export function stringListValue(
  value: unknown,
  path: string,
  key: string,
  alt?: unknown,
): string[] | undefined {
  if (alt !== undefined && alt !== null) {
    const name = altSpelling(value, path, key);
    if (name !== undefined) {
      value = alt;
      key = name;
    }
  }
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidParams(`${path}/${key}`, `expected an array, got ${kindOf(value)}`);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') readString(value[i], `${path}/${key}/${i}`);
  }
  return value as string[];
}

/** Maps a REQUIRED repeated member: absent or empty is an error (A2A 1.0 §5.7). */
export function requiredListValue<T>(
  value: unknown,
  path: string,
  key: string,
  item: (value: unknown, path: string) => T,
): T[] {
  const at = `${path}/${key}`;
  if (value === undefined || value === null) throw invalidParams(at, 'is required');
  if (!Array.isArray(value)) throw invalidParams(at, `expected an array, got ${kindOf(value)}`);
  if (value.length === 0 && !tolerate(at, 'is empty; at least one element is required'))
    throw invalidParams(at, 'must contain at least one element');
  return mapItems(value, at, item);
}

/** Maps an optional repeated member. */
export function optionalListValue<T>(
  value: unknown,
  path: string,
  key: string,
  item: (value: unknown, path: string) => T,
  alt?: unknown,
): T[] | undefined {
  if (alt !== undefined && alt !== null) {
    const name = altSpelling(value, path, key);
    if (name !== undefined) {
      value = alt;
      key = name;
    }
  }
  if (value === undefined || value === null) return undefined;
  const at = `${path}/${key}`;
  if (!Array.isArray(value)) throw invalidParams(at, `expected an array, got ${kindOf(value)}`);
  return mapItems(value, at, item);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${quote(value)}`;
}
