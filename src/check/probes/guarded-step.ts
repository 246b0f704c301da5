/**
 * One step of a check run, guarded: a checker records a FAIL and goes on, it never dies on a bad
 * answer. Every rule reads the agent's answers leniently, but an answer can always be
 * malformed in a way no rule foresaw (a member of the wrong type, a list that is missing); a
 * throw inside a step becomes a failure of the rule the step is about, with the reason, and the
 * run goes on with the next step. The thrown message is the evidence: no stack trace.
 */
import type { CheckRecorder } from '../check-report.js';

/** What a guarded step is about: the rule a throw is filed under, and where it ran. */
export interface StepLabel {
  /** The §11 rule the step judges first (the one its failure is recorded against). */
  rule: number;
  /** The interface label (`JSONRPC 1.0 http://...`), `card`, or `all interfaces`. */
  where: string;
  /** What the step checks, for the evidence (`ListTasks`, `streams`...). */
  what: string;
}

/** The message of anything thrown, one line. */
export function thrownMessage(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0]!;
}

/** Runs `step`; a throw is recorded as a failure of `label.rule` and swallowed. */
export async function guarded(
  recorder: CheckRecorder,
  label: StepLabel,
  step: () => Promise<unknown> | unknown,
): Promise<void> {
  try {
    await step();
  } catch (error) {
    recorder.fail(label.rule, {
      where: label.where,
      expected: `answers the check can read: the ${label.what} checks stopped on one`,
      received: thrownMessage(error),
    });
  }
}
