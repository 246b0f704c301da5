/**
 * JSON Canonicalization Scheme (RFC 8785), the form A2A 1.0 §8.4.1 signs an AgentCard in.
 *
 * The serialisation itself is the `canonicalize` package (keys sorted by UTF-16 code units,
 * ECMAScript number formatting, JSON.stringify string escaping: exactly RFC 8785 §3.2). What it
 * does not do is refuse input that is not JSON: it silently drops `undefined` members, turns
 * `undefined` array items into `null` and calls `toJSON`. Two parties that canonicalize "the same"
 * object could then disagree, and a signature would fail for no visible reason. So the value is
 * checked first, and anything that is not plain I-JSON (RFC 7493, which RFC 8785 §3.1 requires)
 * is rejected with the JSON Pointer of the offending member.
 */
import canonicalizeExport from 'canonicalize';

type Serialize = (input: unknown) => string | undefined;

// The package is CommonJS (`module.exports = fn`) but typed as `export default fn`, which NodeNext
// reads as `exports.default`. Node hands an ESM importer the function itself; accept either shape.
const exported = canonicalizeExport as unknown as Serialize | { default: Serialize };
const canonicalize: Serialize = typeof exported === 'function' ? exported : exported.default;

/** Thrown when a value cannot be canonicalized; `path` is the JSON Pointer of the culprit. */
export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';

  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`cannot canonicalize ${path === '' ? 'the value' : path}: ${problem}`);
  }
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function token(key: string | number): string {
  return typeof key === 'number' ? String(key) : key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function checkString(value: string, path: string, what: string): void {
  // RFC 8785 §3.1: I-JSON forbids lone surrogates; they have no UTF-8 encoding to sign.
  if (LONE_SURROGATE.test(value))
    throw new CanonicalJsonError(path, `${what} contains a lone UTF-16 surrogate`);
}

function check(value: unknown, path: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      checkString(value, path, 'the string');
      return;
    case 'boolean':
      return;
    case 'number':
      // RFC 8785 §3.2.2.3: NaN and Infinity have no JSON form.
      if (!Number.isFinite(value)) throw new CanonicalJsonError(path, `${value} is not a JSON number`);
      return;
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(path, `${typeof value} is not a JSON value`);
  }
  if (value === null) return;
  if (seen.has(value)) throw new CanonicalJsonError(path, 'the value contains a cycle');
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      // A hole reads as undefined; JSON has no such thing.
      check(value[i], `${path}/${i}`, seen);
    }
  } else {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      const kind = (value as object).constructor?.name ?? 'exotic';
      throw new CanonicalJsonError(path, `a ${kind} object is not plain JSON (convert it first)`);
    }
    for (const key of Object.keys(value)) {
      const at = `${path}/${token(key)}`;
      checkString(key, at, 'the member name');
      check((value as Record<string, unknown>)[key], at, seen);
    }
  }
  seen.delete(value);
}

/**
 * The RFC 8785 canonical form of a JSON value. Throws `CanonicalJsonError` (naming the member)
 * for anything that is not plain JSON: undefined, functions, symbols, bigints, NaN/Infinity,
 * class instances (Date, Map, ...), cycles and lone surrogates.
 */
export function canonicalJson(value: unknown): string {
  check(value, '', new Set());
  const text = canonicalize(value);
  // Unreachable after check(); kept so a change in the package cannot yield a silent undefined.
  if (text === undefined) throw new CanonicalJsonError('', 'the value has no JSON form');
  return text;
}
