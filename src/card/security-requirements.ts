/**
 * Security requirements as written in definitions and host config (`{schemeName: [scopes]}`, the
 * OpenAPI / A2A 0.3 form) turned into the canonical proto form the card carries
 * (`{schemes: {schemeName: {list: [scopes]}}}`, A2A 1.0 §4.4.1; decision 0008).
 */
import type { SecurityRequirement, SecurityScheme } from '../protocol/index.js';
import type { SecurityRequirementInput } from './agent-definition.js';

/** Converts one requirement (AND of schemes) to the canonical form; scopes are copied. */
export function toSecurityRequirement(input: SecurityRequirementInput): SecurityRequirement {
  const schemes: Record<string, { list: string[] }> = {};
  for (const [name, scopes] of Object.entries(input)) {
    // defineProperty, not assignment: a scheme called `__proto__` must stay an own key.
    Object.defineProperty(schemes, name, {
      value: { list: [...scopes] },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { schemes };
}

/** Converts a list of alternatives (OR across entries) to the canonical form. */
export function toSecurityRequirements(inputs: readonly SecurityRequirementInput[]): SecurityRequirement[] {
  return inputs.map(toSecurityRequirement);
}

/**
 * Throws when a requirement names a scheme the card does not declare: a client could never
 * satisfy it (A2A 1.0 §4.4.1 says requirements refer to `securitySchemes` by name).
 * `where` says whose requirements these are, for the message.
 */
export function assertSchemesDeclared(
  requirements: readonly SecurityRequirement[],
  schemes: Readonly<Record<string, SecurityScheme>>,
  where: string,
): void {
  requirements.forEach((requirement, index) => {
    for (const name of Object.keys(requirement.schemes)) {
      if (Object.prototype.hasOwnProperty.call(schemes, name)) continue;
      const declared = Object.keys(schemes);
      const known = declared.length > 0 ? `declared: ${declared.join(', ')}` : 'none are declared';
      throw new Error(
        `${where}: security requirement ${index} names scheme "${name}", which is not in securitySchemes (${known})`,
      );
    }
  });
}
