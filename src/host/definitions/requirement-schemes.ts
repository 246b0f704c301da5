/**
 * Security requirements (agent-level, skill-level and the host's own) may only name schemes the
 * host config declares: a requirement on an unknown scheme could never be met, and A2A 1.0
 * §4.4.3 requires requirement names to be keys of the card's `securitySchemes`.
 */
import type { SecurityRequirementInput } from '../../card/index.js';
import { childPointer, type ProblemSink } from './definition-error.js';

/** Reports, at its field, each scheme name in `requirements` that is not in `declared`. */
export function checkRequirementSchemes(
  requirements: SecurityRequirementInput[] | undefined,
  field: string,
  declared: string[],
  sink: ProblemSink,
): void {
  for (const [index, requirement] of (requirements ?? []).entries()) {
    for (const name of Object.keys(requirement)) {
      if (declared.includes(name)) continue;
      const known =
        declared.length > 0 ? `declared: ${declared.join(', ')}` : 'the host config declares none';
      sink.add(childPointer(`${field}/${index}`, name), `unknown security scheme "${name}" (${known})`);
    }
  }
}
