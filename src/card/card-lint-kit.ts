/**
 * Shared pieces of the card linter: the problem list, JSON Pointer building and the field checks
 * every lint rule uses. Nothing here knows a card field by name.
 */
import { checkHttpUrl } from './http-url.js';

/** One finding of `lintAgentCard`. */
export interface CardProblem {
  /** JSON Pointer (RFC 6901) of the member at fault; '' is the card itself. */
  path: string;
  message: string;
  /** An error makes the card invalid for its version; a warning is a likely mistake. */
  severity: 'error' | 'warning';
}

/** A JSON object as parsed. */
export type Json = Record<string, unknown>;

/** Which card form is linted. */
export type CardVersion = '0.3' | '1.0';

/** Collects problems in the order found. */
export class ProblemList {
  readonly problems: CardProblem[] = [];

  /** Records an error at `path`. */
  error(path: string, message: string): void {
    this.problems.push({ path, message, severity: 'error' });
  }

  /** Records a warning at `path`. */
  warn(path: string, message: string): void {
    this.problems.push({ path, message, severity: 'warning' });
  }
}

/** `base` extended by one RFC 6901 reference token. */
export function at(base: string, key: string | number): string {
  return typeof key === 'number'
    ? `${base}/${key}`
    : `${base}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a JSON value's kind, for "expected X, got Y" messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Reads a REQUIRED string member; records an error when it is missing, not a string, or blank. */
export function requiredString(obj: Json, key: string, path: string, out: ProblemList): string | undefined {
  const value = obj[key];
  const where = at(path, key);
  if (value === undefined || value === null) {
    out.error(where, `${key} is required`);
    return undefined;
  }
  if (typeof value !== 'string') {
    out.error(where, `${key} must be a string, got ${kindOf(value)}`);
    return undefined;
  }
  if (value.trim() === '') out.error(where, `${key} must not be empty`);
  return value;
}

/** Reads an optional string member; records an error when it is present but not a string. */
export function optionalString(obj: Json, key: string, path: string, out: ProblemList): string | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    out.error(at(path, key), `${key} must be a string, got ${kindOf(value)}`);
    return undefined;
  }
  return value;
}

/** Reads an optional boolean member; records an error when it is present but not a boolean. */
export function optionalBoolean(obj: Json, key: string, path: string, out: ProblemList): void {
  const value = obj[key];
  if (value !== undefined && typeof value !== 'boolean') {
    out.error(at(path, key), `${key} must be a boolean, got ${kindOf(value)}`);
  }
}

/**
 * Reads an array member. `need` says what happens when it is missing or empty: 'optional' (fine),
 * 'required' (missing is an error, empty fine), 'non-empty' (missing or empty is an error), or
 * 'should-fill' (missing is an error, empty a warning).
 */
export function readArray(
  obj: Json,
  key: string,
  path: string,
  out: ProblemList,
  need: 'optional' | 'required' | 'non-empty' | 'should-fill',
): unknown[] | undefined {
  const value = obj[key];
  const where = at(path, key);
  if (value === undefined || value === null) {
    if (need !== 'optional') out.error(where, `${key} is required`);
    return undefined;
  }
  if (!Array.isArray(value)) {
    out.error(where, `${key} must be an array, got ${kindOf(value)}`);
    return undefined;
  }
  if (value.length === 0 && need === 'non-empty') out.error(where, `${key} must list at least one entry`);
  if (value.length === 0 && need === 'should-fill') out.warn(where, `${key} is empty`);
  return value;
}

/** Checks that every entry of a list is a string; returns the strings. */
export function stringEntries(list: unknown[], path: string, out: ProblemList): string[] {
  const strings: string[] = [];
  list.forEach((entry, index) => {
    if (typeof entry === 'string') strings.push(entry);
    else out.error(at(path, index), `expected a string, got ${kindOf(entry)}`);
  });
  return strings;
}

/**
 * Checks that `value` is an absolute http(s) URL; plain http is a warning unless it names this
 * machine (A2A 1.0 §7.1: production A2A traffic runs over HTTPS).
 */
export function checkUrl(value: string, path: string, out: ProblemList): void {
  const check = checkHttpUrl(value);
  if (!check.ok) out.error(path, check.problem);
  else if (check.url.protocol === 'http:' && !check.loopback) {
    out.warn(path, `"${value}" uses plain http; A2A expects HTTPS outside local development (A2A 1.0 §7.1)`);
  }
}

/** Checks an optional URL member of `obj`. */
export function optionalUrl(obj: Json, key: string, path: string, out: ProblemList): void {
  const value = optionalString(obj, key, path, out);
  if (value !== undefined) checkUrl(value, at(path, key), out);
}
