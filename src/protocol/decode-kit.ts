/**
 * Strict, non-coercive readers for inbound wire JSON. Each takes the value and its JSON Pointer
 * path (RFC 6901) and either returns the typed value or throws InvalidParamsError naming the path.
 * A2A 1.0 §5.7: unknown fields are ignored, REQUIRED fields must be present, REQUIRED repeated
 * fields must hold at least one element. Nothing here coerces: "1" is not a number.
 *
 * Two rules of decision 0136 live here so every codec shares them:
 * - Spelling: ProtoJSON lets a field come under its json name (lowerCamelCase) or its proto name
 *   (snake_case). Readers of multi-word fields also take the value found under the proto name
 *   (`alt`, loaded by name at the call site); a field sent under both names is a duplicate,
 *   refused at the proto-name pointer. Struct content (`metadata`, `data`, extension params) is
 *   user data and is never renamed.
 * - Liberal reading: inside `readLiberally` (the client reading answers) an unknown enum string is
 *   kept as it came, a missing REQUIRED string reads as `""`, an empty REQUIRED list is kept
 *   empty, an unreadable list item is skipped, a duplicate spelling reads the json name, and each
 *   of these is reported as a ReadWarning. Outside it (servers reading requests) every reader
 *   stays strict.
 */
import { bounded } from './error-bounds.js';
import { A2AError, invalidParams } from './errors.js';

/** The longest quotation of a client's value an error message carries. */
const QUOTE_MAX = 64;

/**
 * A client's value as an error message quotes it: its JSON, cut to QUOTE_MAX characters with the
 * full length named, so a megabyte of bad input never comes back in the answer.
 */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // JSON.stringify recurses: a value nested thousands of levels (an answer the client reads;
    // requests are bounded first, decision 0144) overflows the stack rather than quoting.
    if (typeof value !== 'object' || value === null) return String(value).slice(0, QUOTE_MAX);
    return `${Array.isArray(value) ? 'an array' : 'an object'} nested too deeply to quote`;
  }
  return bounded(text, QUOTE_MAX);
}

/** A JSON object as decoded by JSON.parse. */
export type JsonObject = Record<string, unknown>;

/** Appends a member to a JSON Pointer, escaping `~` and `/` (RFC 6901 §3). */
export function pointer(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}/${key}`;
  // Escaping is rare; skip the regexes on the hot path.
  const token = key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
  return `${base}/${token}`;
}

/** Something an answer held that a strict reader refuses and the liberal reader let pass. */
export interface ReadWarning {
  /** JSON Pointer of the odd value within the answer. */
  path: string;
  /** What was odd and what the reader did about it. */
  message: string;
}

// The warning sink of the liberal reading in progress. Decoders are synchronous and pure, so a
// module-level mode scoped by `readLiberally` cannot leak into another reading (decision 0136).
let liberal: ((warning: ReadWarning) => void) | undefined;

/** Runs `read` in liberal mode: what strict reading would refuse is reported to `warn` instead. */
export function readLiberally<T>(read: () => T, warn: (warning: ReadWarning) => void): T {
  const outer = liberal;
  liberal = warn;
  try {
    return read();
  } finally {
    liberal = outer;
  }
}

/** In liberal mode reports `message` at `path` and returns true; in strict mode returns false. */
export function tolerate(path: string, message: string): boolean {
  if (liberal === undefined) return false;
  liberal({ path, message });
  return true;
}

const protoNames = new Map<string, string>();

/** The proto (snake_case) name of a json (lowerCamelCase) field name, derived once per name. */
export function protoNameOf(json: string): string {
  let name = protoNames.get(json);
  if (name === undefined) {
    name = json.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    protoNames.set(json, name);
  }
  return name;
}

function duplicate(path: string, json: string, proto: string): void {
  const at = pointer(path, proto);
  const why = `duplicates ${json}: a field may be sent under one of its two ProtoJSON names, not both`;
  if (!tolerate(at, `${why}; ${json} was read`)) throw invalidParams(at, why);
}

/**
 * The member name to read a field under: `json`, or `proto` when only the proto name is set.
 * Both set is a duplicate (decision 0136). Costs one member load when the proto name is absent.
 */
export function spelling(obj: JsonObject, json: string, proto: string, path: string): string {
  const alt = obj[proto];
  if (alt === undefined || alt === null) return json;
  const value = obj[json];
  if (value === undefined || value === null) return proto;
  duplicate(path, json, proto);
  return json;
}

/**
 * For keyed readers given the proto-name value `alt` (set): the member name to read the field
 * under. Callers load `alt` by name (`obj.message_id`), an inline-cached load, so the common case
 * (no proto name) costs one load and one compare (decision 0136).
 */
export function altKey(obj: JsonObject, key: string, path: string): string {
  return altSpelling(obj[key], path, key) ?? key;
}

/**
 * For value-based readers: given the json-name value and that the proto-name value `alt` is set,
 * returns the proto name when the field is to be read from it, or undefined to keep the json name.
 */
export function altSpelling(json: unknown, path: string, key: string): string | undefined {
  const proto = protoNameOf(key);
  if (json === undefined || json === null) return proto;
  duplicate(path, key, proto);
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${quote(value)}`;
}

/** True when a member is present: ProtoJSON treats `null` like absence (outside `Value`). */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** Reads a JSON object (not null, not an array). */
export function readObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(path, `expected an object, got ${describe(value)}`);
  }
  return value as JsonObject;
}

/** Reads a required string member. */
export function requiredString(obj: JsonObject, key: string, path: string, alt?: unknown): string {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
  const value = obj[key];
  if (value === undefined || value === null) {
    if (tolerate(pointer(path, key), 'is required; read as ""')) return '';
    throw invalidParams(pointer(path, key), 'is required');
  }
  if (typeof value !== 'string')
    throw invalidParams(pointer(path, key), `expected a string, got ${describe(value)}`);
  return value;
}

/** Reads a required, non-empty string member (ids, URLs). */
export function requiredNonEmptyString(obj: JsonObject, key: string, path: string, alt?: unknown): string {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
  const value = requiredString(obj, key, path);
  // A missing member was already reported by requiredString; only a sent "" is reported here.
  if (value.length === 0 && obj[key] === '' && !tolerate(pointer(path, key), 'is empty; kept'))
    throw invalidParams(pointer(path, key), 'must not be empty');
  return value;
}

/** Reads an optional string member; null counts as absent (ProtoJSON). */
export function optionalString(
  obj: JsonObject,
  key: string,
  path: string,
  alt?: unknown,
): string | undefined {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw invalidParams(pointer(path, key), `expected a string, got ${describe(value)}`);
  return value;
}

/**
 * Reads an implicit-presence proto3 `string` of a ProtoJSON wire (0.3 REST and gRPC, every 1.0
 * binding): not REQUIRED, not `optional`, not in a oneof. Its default `""` cannot be told apart
 * from unset in proto3, so it reads as absent; encoders omit it.
 */
export function optionalProtoString(
  obj: JsonObject,
  key: string,
  path: string,
  alt?: unknown,
): string | undefined {
  const value = optionalString(obj, key, path, alt);
  return value === '' ? undefined : value;
}

/** Reads an optional boolean member. */
export function optionalBoolean(
  obj: JsonObject,
  key: string,
  path: string,
  alt?: unknown,
): boolean | undefined {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
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
  alt?: unknown,
): number | undefined {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
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
export function optionalStringArray(
  obj: JsonObject,
  key: string,
  path: string,
  alt?: unknown,
): string[] | undefined {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
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
  alt?: unknown,
): T[] {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
  const value = obj[key];
  const at = pointer(path, key);
  if (value === undefined || value === null) throw invalidParams(at, 'is required');
  if (!Array.isArray(value)) throw invalidParams(at, `expected an array, got ${describe(value)}`);
  if (nonEmpty && value.length === 0 && !tolerate(at, 'is empty; at least one element is required'))
    throw invalidParams(at, 'must contain at least one element');
  return mapItems(value, at, item);
}

/**
 * Maps each element of a list at `at`. In liberal mode an element its reader refuses is skipped
 * with a warning, so one odd item never costs the rest of the answer (decision 0136).
 */
export function mapItems<T>(
  value: readonly unknown[],
  at: string,
  item: (value: unknown, path: string) => T,
): T[] {
  if (liberal !== undefined) return mapLiberally(value, at, item);
  const out = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) out[i] = item(value[i], pointer(at, i));
  return out;
}

function mapLiberally<T>(
  value: readonly unknown[],
  at: string,
  item: (value: unknown, path: string) => T,
): T[] {
  const out: T[] = [];
  for (let i = 0; i < value.length; i++) {
    try {
      out.push(item(value[i], pointer(at, i)));
    } catch (error) {
      if (!(error instanceof A2AError)) throw error;
      tolerate(pointer(at, i), `item skipped: ${error.message}`);
    }
  }
  return out;
}

/** Reads an optional array and maps each element. */
export function optionalArray<T>(
  obj: JsonObject,
  key: string,
  path: string,
  item: (value: unknown, path: string) => T,
  alt?: unknown,
): T[] | undefined {
  if (alt !== undefined && alt !== null) key = altKey(obj, key, path);
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
  // A value from a newer peer is kept as it came (a number as its decimal string, so the model
  // holds strings only); callers tell it apart with the `isKnown*` guards (decision 0136).
  if (typeof value === 'string' && tolerate(path, `unknown value ${quote(value)} kept as it came`))
    return value as T;
  if (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    tolerate(path, `unknown value ${value} kept as "${value}"`)
  )
    return String(value) as T;
  throw invalidParams(
    path,
    `unknown value ${quote(value)}; expected one of ${Object.keys(names).join(', ')}`,
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
