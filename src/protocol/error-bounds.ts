/**
 * Bounds on what an error carries back: a message, an ErrorInfo metadata value or a
 * field violation can quote client input (a task id, a path, a method name), and a 70,000-character
 * task id echoed in a gRPC status overflowed the peer's header-list limit, so the call was never
 * answered. Every A2AError is cut to these sizes when it is made, whatever built it: long text
 * keeps its head and names its full length, so the answer stays useful and small.
 */

/** A field violation as errors.ts declares it (restated here so the two files do not import each other). */
interface FieldViolation {
  field: string;
  description: string;
}

/** The longest error message sent (characters). */
export const MESSAGE_MAX = 1024;
/** The longest ErrorInfo metadata value or violation field/description (characters): room for a deprecation warning (decision 0150). */
export const DETAIL_MAX = 1024;
/** The most field violations one error lists; the last entry says how many were left out. */
export const VIOLATIONS_MAX = 32;

/** `text` cut to `max` characters, naming the full length when cut. */
export function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** Metadata with every value bounded; the same object when nothing needed cutting. */
export function boundedMetadata(
  metadata: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (metadata === undefined) return undefined;
  let out: Record<string, string> | undefined;
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === 'string' && value.length <= DETAIL_MAX && key.length <= DETAIL_MAX) continue;
    out ??= { ...metadata };
    delete out[key];
    out[bounded(key, DETAIL_MAX)] = bounded(String(value), DETAIL_MAX);
  }
  return out ?? metadata;
}

/** At most VIOLATIONS_MAX violations, each bounded; the same list when nothing needed cutting. */
export function boundedViolations(violations: FieldViolation[] | undefined): FieldViolation[] | undefined {
  if (violations === undefined) return undefined;
  const long = (v: FieldViolation): boolean =>
    v.field.length > DETAIL_MAX || v.description.length > DETAIL_MAX;
  if (violations.length <= VIOLATIONS_MAX && !violations.some(long)) return violations;
  const kept = violations.slice(0, VIOLATIONS_MAX).map((v) => ({
    field: bounded(v.field, DETAIL_MAX),
    description: bounded(v.description, DETAIL_MAX),
  }));
  if (violations.length > VIOLATIONS_MAX) {
    kept[VIOLATIONS_MAX - 1] = {
      field: '/',
      description: `${violations.length - VIOLATIONS_MAX + 1} more violations left out`,
    };
  }
  return kept;
}
