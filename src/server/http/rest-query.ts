/**
 * Strict reading of REST query parameters (A2A 1.0 §11.5): camelCase names, integers as digits,
 * booleans as `true`/`false`, enums by name. A malformed value is an InvalidParamsError naming
 * the parameter, never silently dropped or coerced. Each parameter is the ProtoJSON form of a
 * request field, so it may also come under its proto name (`history_length`); both at once is a
 * duplicate (decision 0136).
 */
import { invalidParams, protoNameOf } from '../../protocol/internal.js';

/** The raw value of a parameter and the name it came under, or undefined when absent. */
function queryRaw(query: URLSearchParams, name: string): { raw: string; at: string } | undefined {
  const raw = query.get(name);
  const proto = protoNameOf(name);
  const alt = proto === name ? null : query.get(proto);
  if (alt === null) return raw === null ? undefined : { raw, at: `/${name}` };
  if (raw !== null) {
    throw invalidParams(
      `/${proto}`,
      `duplicates ${name}: a field may be sent under one of its two ProtoJSON names, not both`,
    );
  }
  return { raw: alt, at: `/${proto}` };
}

/** Reads an optional integer query parameter. */
export function queryInteger(query: URLSearchParams, name: string): number | undefined {
  const value = queryRaw(query, name);
  if (value === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(value.raw))
    throw invalidParams(value.at, `expected an integer, got ${JSON.stringify(value.raw)}`);
  return Number(value.raw);
}

/** Reads an optional boolean query parameter. */
export function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const value = queryRaw(query, name);
  if (value === undefined) return undefined;
  if (value.raw !== 'true' && value.raw !== 'false')
    throw invalidParams(value.at, `expected true or false, got ${JSON.stringify(value.raw)}`);
  return value.raw === 'true';
}

/** Reads an optional string query parameter. */
export function queryString(query: URLSearchParams, name: string): string | undefined {
  return queryRaw(query, name)?.raw;
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
