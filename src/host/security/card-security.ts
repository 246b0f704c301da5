/**
 * The public half of the host's security configuration: the schemes and requirements a card
 * declares (A2A 1.0 §4.5.1 SecurityScheme, §4.4.1 `securityRequirements`), built from the same
 * SecurityConfig the authenticator enforces, so the card never promises what is not checked
 * (Shaman's agent-card.md: cards are "enhanced with organization-specific security schemes").
 * Only declarations leave this file: secrets, API keys and JWKS locations never do.
 */
import type { SecurityRequirement, SecurityScheme } from '../../protocol/index.js';
import type { SecurityConfig, SecuritySchemeConfig } from '../host-config.js';
import type { SecurityRequirementInput } from './requirements.js';

/** What a card declares about security. */
export interface CardSecurity {
  securitySchemes: Record<string, SecurityScheme>;
  securityRequirements: SecurityRequirement[];
}

/** The card form of one scheme: its public declaration only. */
export function toCardScheme(scheme: SecuritySchemeConfig): SecurityScheme {
  if (scheme.type === 'http') {
    // Concord verifies bearer tokens as JWTs, so that is the honest default format hint.
    return {
      httpAuthSecurityScheme: {
        scheme: 'bearer',
        bearerFormat: scheme.bearerFormat ?? 'JWT',
        ...(scheme.description === undefined ? {} : { description: scheme.description }),
      },
    };
  }
  return {
    apiKeySecurityScheme: {
      location: scheme.in,
      name: scheme.name,
      ...(scheme.description === undefined ? {} : { description: scheme.description }),
    },
  };
}

/** Requirement alternatives in the card's proto form (`{schemes: {name: {list: scopes}}}`). */
export function toCardRequirements(inputs: readonly SecurityRequirementInput[]): SecurityRequirement[] {
  return inputs.map((alternative) => ({
    schemes: Object.fromEntries(
      Object.entries(alternative).map(([name, scopes]) => [name, { list: [...scopes] }]),
    ),
  }));
}

/**
 * Checks requirement alternatives against the declared schemes: every named scheme must exist,
 * scopes must be strings, and no alternative may be empty (an empty one would silently admit
 * anonymous callers; leave the whole list empty for that). `where` names the place in messages.
 */
export function checkRequirements(
  requirements: readonly SecurityRequirementInput[],
  schemes: Readonly<Record<string, SecuritySchemeConfig>>,
  where: string,
): void {
  if (!Array.isArray(requirements))
    throw new TypeError(`${where}: expected a list of requirement alternatives`);
  requirements.forEach((alternative, index) => {
    const at = `${where}[${index}]`;
    if (typeof alternative !== 'object' || alternative === null || Array.isArray(alternative)) {
      throw new TypeError(`${at}: expected an object mapping scheme names to scope lists`);
    }
    const names = Object.keys(alternative);
    if (names.length === 0) {
      throw new TypeError(
        `${at}: an empty alternative would admit anonymous callers; use an empty requirements list instead`,
      );
    }
    for (const name of names) {
      if (!Object.hasOwn(schemes, name)) {
        const known = Object.keys(schemes);
        throw new TypeError(
          `${at}: unknown security scheme "${name}" (declared: ${known.length > 0 ? known.join(', ') : 'none'})`,
        );
      }
      const scopes = alternative[name];
      if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && s !== '')) {
        throw new TypeError(`${at}.${name}: expected a list of non-empty scope names`);
      }
    }
  });
}

/** The card's securitySchemes and securityRequirements for the host's organisation-wide config. */
export function toCardSecurity(config: SecurityConfig): CardSecurity {
  checkRequirements(config.requirements, config.schemes, 'security.requirements');
  // fromEntries defines own keys, so even a scheme called `__proto__` stays a plain entry.
  const securitySchemes: Record<string, SecurityScheme> = Object.fromEntries(
    Object.entries(config.schemes).map(([name, scheme]) => [name, toCardScheme(scheme)]),
  );
  return { securitySchemes, securityRequirements: toCardRequirements(config.requirements) };
}
