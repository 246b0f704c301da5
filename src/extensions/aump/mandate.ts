/**
 * Loading and checking mandate documents (AUMP schemas/mandate.schema.json, Agentic-User-Mandate-Protocol/spec): the schema
 * first (the suite's `mandate.schema.json`), then the semantic rules the schema cannot express —
 * a mandate that is not `active`, one past its `expires_at`, and a `delegated` one without any
 * objective bound on what the agent may do.
 */
import { readFile } from 'node:fs/promises';
import type { Mandate } from './mandate-types.js';
import { validateAumpSchema, type SchemaProblem } from './schemas.js';

/** A mandate that failed to load; `problems` name every failing field. */
export class MandateError extends Error {
  override readonly name = 'MandateError';

  constructor(
    /** Where the document came from (a file path, or a caller's label). */
    readonly source: string,
    readonly problems: SchemaProblem[],
  ) {
    const shown = problems
      .slice(0, 5)
      .map((p) => `${p.path === '' ? '/' : p.path} ${p.message}`)
      .join('; ');
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    super(`${source}: not a valid AUMP mandate: ${shown}${more}`);
  }
}

/** The result of the semantic check: valid, or the reason codes with their paths. */
export interface MandateCheck {
  valid: boolean;
  reason_codes: string[];
  paths: string[];
}

/** Schema-validates `value` as a mandate and returns it typed; throws MandateError otherwise. */
export function parseMandate(value: unknown, source = 'mandate'): Mandate {
  const problems = validateAumpSchema('mandate', value);
  if (problems.length > 0) throw new MandateError(source, problems);
  return value as Mandate;
}

/** Reads, parses and schema-validates a mandate file. */
export async function loadMandateFile(path: string): Promise<Mandate> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new MandateError(path, [
      {
        path: '',
        keyword: 'file',
        message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MandateError(path, [
      { path: '', keyword: 'json', message: `is not JSON: ${(error as Error).message}` },
    ]);
  }
  return parseMandate(value, path);
}

/** The instant `value` names, or throws for a string that is no date-time. */
function instant(value: string, where: string): number {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new TypeError(`${where} is not a date-time: ${value}`);
  return time;
}

/** Whether the mandate puts any objective limit on a delegated agent (AUMP spec.md; decision 0055). */
function hasObjectiveBound(mandate: Mandate): boolean {
  const { authority, purpose } = mandate;
  return (
    authority.budget !== undefined ||
    authority.prohibited_actions.length > 0 ||
    (purpose.allowed_categories?.length ?? 0) > 0 ||
    (purpose.allowed_counterparties?.length ?? 0) > 0 ||
    (purpose.excluded_counterparties?.length ?? 0) > 0
  );
}

/**
 * The semantic rules at `now`: not active → `mandate_inactive` (`$.status`); `expires_at <= now`
 * → `mandate_expired` (`$.expires_at`); delegated without an objective bound → `scope_violation`
 * (`$.authority`). Deterministic for the same mandate and `now`.
 */
export function validateMandateSemantics(mandate: Mandate, options: { now: Date }): MandateCheck {
  const reason_codes: string[] = [];
  const paths: string[] = [];
  if (mandate.status !== 'active') {
    reason_codes.push('mandate_inactive');
    paths.push('$.status');
  }
  if (instant(mandate.expires_at, 'expires_at') <= options.now.getTime()) {
    reason_codes.push('mandate_expired');
    paths.push('$.expires_at');
  }
  if (mandate.authority.mode === 'delegated' && !hasObjectiveBound(mandate)) {
    reason_codes.push('scope_violation');
    paths.push('$.authority');
  }
  return { valid: reason_codes.length === 0, reason_codes, paths };
}
