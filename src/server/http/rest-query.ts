/**
 * Strict reading of REST query parameters (A2A 1.0 §11.5): camelCase names, integers as digits,
 * booleans as `true`/`false`, enums by name. A malformed value is an InvalidParamsError naming
 * the parameter, never silently dropped or coerced.
 */
import { invalidParams } from '../../protocol/index.js';

/** Reads an optional integer query parameter. */
export function queryInteger(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^-?\d{1,15}$/.test(raw))
    throw invalidParams(`/${name}`, `expected an integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** Reads an optional boolean query parameter. */
export function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (raw !== 'true' && raw !== 'false')
    throw invalidParams(`/${name}`, `expected true or false, got ${JSON.stringify(raw)}`);
  return raw === 'true';
}

/** Reads an optional string query parameter. */
export function queryString(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}

/** Builds a JSON object from the named query parameters, typed as the codecs expect. */
export function queryObject(
  query: URLSearchParams,
  fields: { integers?: string[]; booleans?: string[]; strings?: string[] },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of fields.integers ?? []) {
    const v = queryInteger(query, name);
    if (v !== undefined) out[name] = v;
  }
  for (const name of fields.booleans ?? []) {
    const v = queryBoolean(query, name);
    if (v !== undefined) out[name] = v;
  }
  for (const name of fields.strings ?? []) {
    const v = queryString(query, name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}
