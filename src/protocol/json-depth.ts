/**
 * The one bound on how deeply a request may nest (decision 0144): objects and arrays count one
 * level each, the request document itself being level 1 (a JSON-RPC body, an HTTP+JSON body, or
 * the ProtoJSON form of a gRPC request message). Past the bound the request is refused with
 * InvalidParamsError naming the bound and the JSON Pointer (RFC 6901) of the first object or
 * array past it, before any codec reads a field, so no decoder, store or encoder ever sees a
 * value deeper than the bound. Without it, a request nested ~4,100 levels overflowed the stack
 * in the store commit and one nested ~50 levels could not be encoded by gRPC.
 */
import { A2AError } from './errors.js';
import { pointer } from './decode-kit.js';

/**
 * The default bound: 32 levels. It leaves a free-form value (data, metadata) at most 31 levels,
 * well inside the 48 that Concord's gRPC server can encode back out (protobuf's 100-message
 * recursion limit at two messages per JSON level; measured in decision 0144).
 */
export const DEFAULT_MAX_JSON_DEPTH = 32;

/**
 * The largest bound a server takes: JSON.stringify, structuredClone and the recursive encoders
 * overflow V8's default stack near 4,000 levels, so bounds stay far below that.
 */
export const MAX_JSON_DEPTH_CEILING = 1000;

/**
 * The deepest `maxJsonDepth` a gRPC listener serves with. protobufjs encodes and decodes at most
 * 100 nested messages (`util.recursionLimit`), and each JSON level of a Struct or ListValue costs
 * two (the Struct or ListValue and its Value): Concord's gRPC server was measured to encode a
 * stored value at most 48 levels deep (in `Part.data`; 49 in message metadata), past which every
 * reader, Concord's and the official SDKs', got INTERNAL. A request nested 40 levels holds values
 * at most 39 deep, leaving room for the deepest response envelope (decision 0144).
 */
export const GRPC_MAX_JSON_DEPTH = 40;

/** Keys longer than this are shortened in the pointer an error names, as `quote` shortens values. */
const SEGMENT_MAX = 64;

/** Checks a configured bound; the message names the option. */
export function checkMaxJsonDepth(value: number, option = 'maxJsonDepth'): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_JSON_DEPTH_CEILING) {
    throw new TypeError(`${option}: expected an integer from 1 to ${MAX_JSON_DEPTH_CEILING}, got ${value}`);
  }
  return value;
}

/**
 * A pointer from segments (outermost first), keys longer than SEGMENT_MAX shortened: a
 * megabyte-long key must not come back twice in the answer (as with `quote`).
 */
export function depthPointer(base: string, segments: readonly (string | number)[]): string {
  let path = base;
  for (const segment of segments) {
    path = pointer(
      path,
      typeof segment === 'string' && segment.length > SEGMENT_MAX
        ? `${segment.slice(0, SEGMENT_MAX)}…`
        : segment,
    );
  }
  return path;
}

/** The error for a request nested past `max` levels, at the first object or array past it. */
export function nestedTooDeep(path: string, max: number): A2AError {
  const field = path === '' ? '/' : path;
  const description = `is nested ${max + 1} levels deep; requests may nest objects and arrays at most ${max} levels`;
  return new A2AError('InvalidParamsError', `Invalid parameters: ${field}: ${description}`, {
    violations: [{ field, description }],
    metadata: { maxJsonDepth: String(max) },
  });
}

/**
 * Throws `nestedTooDeep` when `value` (a parsed request document, level 1) nests objects or
 * arrays deeper than `max`; `base` is the pointer of `value` within what the client sent.
 */
export function checkJsonDepth(value: unknown, max: number, base = ''): void {
  const path = pathPastDepth(value, max, base);
  if (path !== undefined) throw nestedTooDeep(path, max);
}

/** The pointer of the first object or array of `value` past `max` levels, or undefined. */
export function pathPastDepth(value: unknown, max: number, base = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const segments = pastDepth(value, 1, max);
  return segments === undefined ? undefined : depthPointer(base, segments.reverse());
}

/**
 * The segments (innermost first) of the first object or array, in document order, past `max`;
 * `value` is at `level`. Recursion stops one level past `max`, so the walk is stack-safe
 * whatever the input (JSON.parse itself builds deep values without recursion in V8).
 */
function pastDepth(value: object, level: number, max: number): (string | number)[] | undefined {
  if (level > max) return [];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      const below = pastDepth(item, level + 1, max);
      if (below !== undefined) {
        below.push(i);
        return below;
      }
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  // JSON.parse makes own data properties only (`__proto__` included), so for-in sees exactly them.
  for (const key in record) {
    const item = record[key];
    if (typeof item !== 'object' || item === null) continue;
    const below = pastDepth(item, level + 1, max);
    if (below !== undefined) {
      below.push(key);
      return below;
    }
  }
  return undefined;
}
