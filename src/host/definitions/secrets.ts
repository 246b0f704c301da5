/**
 * Secret values in the host config: an inline string, or `{ env: "NAME" }` read from the
 * environment at load so the file itself can be committed. A missing variable is reported by
 * name; a secret's value never appears in a problem.
 */
import type { ProblemSink } from './definition-error.js';

/** A secret as written in the config file. */
export type SecretInput = string | { env: string };

/** Resolves `value`; reports a problem at `field` and returns undefined when the variable is unset. */
export function resolveSecret(
  value: SecretInput,
  field: string,
  sink: ProblemSink,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (typeof value === 'string') return value;
  const resolved = env[value.env];
  if (resolved === undefined || resolved === '') {
    sink.add(field, `environment variable ${value.env} is not set`);
    return undefined;
  }
  return resolved;
}
