/**
 * Strict, non-coercive readers for inbound wire JSON. Each takes the value and its JSON Pointer
 * path (RFC 6901) and either returns the typed value or throws InvalidParamsError naming the path.
 * A2A 1.0 §5.7: unknown fields are ignored, REQUIRED fields must be present, REQUIRED repeated
 * fields must hold at least one element. Nothing here coerces: "1" is not a number.
 */
import { invalidParams } from './errors.js';

/** A JSON object as decoded by JSON.parse. */
export type JsonObject = Record<string, unknown>;

/** Appends a member to a JSON Pointer, escaping `~` and `/` (RFC 6901 §3). */
export function pointer(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}/${key}`;
  // Escaping is rare; skip the regexes on the hot path.
  const token = key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
  return `${base}/${token}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

/** Reads a JSON object (not null, not an array). */
export function readObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(path, `expected an object, got ${describe(value)}`);
  }
  return value as JsonObject;
}

/** Reads a required string member. */
export function requiredString(obj: JsonObject, key: string, path: string): string {
  const value = obj[key];
  if (value === undefined || value === null) throw invalidParams(pointer(path, key), 'is required');
  if (typeof value !== 'string')
    throw invalidParams(pointer(path, key), `expected a string, got ${describe(value)}`);
  return value;
}

/** Reads a required, non-empty string member (ids, URLs). */
export function requiredNonEmptyString(obj: JsonObject, key: string, path: string): string {
  const value = requiredString(obj, key, path);
  if (value.length === 0) throw invalidParams(pointer(path, key), 'must not be empty');
  return value;
}

/** Reads an optional string member; null counts as absent (ProtoJSON). */
export function optionalString(obj: JsonObject, key: string, path: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw invalidParams(pointer(path, key), `expected a string, got ${describe(value)}`);
  return value;
}

/** Reads an optional boolean member. */
export function optionalBoolean(obj: JsonObject, key: string, path: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean')
    throw invalidParams(pointer(path, key), `expected a boolean, got ${describe(value)}`);
  return value;
}

/** Reads an optional integer member within [min, max]. */
export function optionalInteger(
  obj: JsonObject,
  key: string,
  path: string,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalidParams(pointer(path, key), `expected an integer, got ${describe(value)}`);
  }
  if (value < min || value > max) {
    throw invalidParams(pointer(path, key), `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

/** Reads an optional JSON object member (metadata, Struct). */
export function optionalObject(obj: JsonObject, key: string, path: string): JsonObject | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  return readObject(value, pointer(path, key));
}

/** Reads an optional array of strings. */
export function optionalStringArray(obj: JsonObject, key: string, path: string): string[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  const at = pointer(path, key);
  if (!Array.isArray(value)) throw invalidParams(at, `expected an array of strings, got ${describe(value)}`);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') {
      throw invalidParams(pointer(at, i), `expected a string, got ${describe(value[i])}`);
    }
  }
  return value as string[];
}

/** Reads a required array and maps each element; `nonEmpty` enforces A2A 1.0 §5.7. */
export function requiredArray<T>(
  obj: JsonObject,
  key: string,
  path: string,
  item: (value: unknown, path: string) => T,
  nonEmpty = true,
): T[] {
  const value = obj[key];
  const at = pointer(path, key);
  if (value === undefined || value === null) throw invalidParams(at, 'is required');
  if (!Array.isArray(value)) throw invalidParams(at, `expected an array, got ${describe(value)}`);
  if (nonEmpty && value.length === 0) throw invalidParams(at, 'must contain at least one element');
  const out = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) out[i] = item(value[i], pointer(at, i));
  return out;
}

/** Reads an optional array and maps each element. */
export function optionalArray<T>(
  obj: JsonObject,
  key: string,
  path: string,
  item: (value: unknown, path: string) => T,
): T[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  return requiredArray(obj, key, path, item, false);
}

/**
 * Reads an enum member by name through a lookup table. ProtoJSON parsers should also accept the
 * enum's number, so `numbers` (index -> name) may be given.
 */
export function readEnum<T extends string>(
  value: unknown,
  path: string,
  names: Readonly<Record<string, T>>,
  numbers?: readonly (T | undefined)[],
): T {
  if (typeof value === 'string') {
    const hit = Object.prototype.hasOwnProperty.call(names, value) ? names[value] : undefined;
    if (hit !== undefined) return hit;
  } else if (typeof value === 'number' && numbers !== undefined && Number.isInteger(value)) {
    const hit = numbers[value];
    if (hit !== undefined) return hit;
  }
  throw invalidParams(
    path,
    `unknown value ${JSON.stringify(value)}; expected one of ${Object.keys(names).join(', ')}`,
  );
}

/** Copies `value` into `target[key]` only when defined, keeping objects free of undefined members. */
export function setIf<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/** Checks an RFC 3339 timestamp string (used by filters such as statusTimestampAfter). */
export function readTimestamp(value: unknown, path: string): string {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value)
  ) {
    throw invalidParams(path, `expected an RFC 3339 timestamp, got ${describe(value)}`);
  }
  if (Number.isNaN(Date.parse(value))) throw invalidParams(path, `not a valid date: ${value}`);
  return value;
}
