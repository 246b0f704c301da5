/**
 * Security requirements as the host evaluates them: a list of alternatives (OR), each naming the
 * schemes that must all be satisfied (AND) with the scopes each needs (A2A 1.0 §4.4.1
 * SecurityRequirement; A2A 1.0 §4.4.1, an OR of ANDs). Pure functions over what the verifiers
 * established per scheme, so the same check serves the agent's requirements at call setup and a
 * skill's own requirements when a message invokes it (A2A 1.0 §7.5: authorization may consider the skill requested).
 */
import { A2AError } from '../../protocol/index.js';
import type { CallerIdentity } from '../../server/index.js';
import type { SecurityConfig } from '../host-config.js';

/** One requirement alternative: scheme name -> scopes it needs (the definitions' input form). */
export type SecurityRequirementInput = SecurityConfig['requirements'][number];

/** What one scheme's verifier established about the caller. */
export interface SchemeIdentity {
  principal: string;
  scopes: string[];
}

/**
 * The identity the host authenticator returns: a CallerIdentity (what the server keeps) that also
 * remembers every scheme the caller proved, so later checks (per-skill requirements) need not
 * see the request again.
 */
export interface HostIdentity extends CallerIdentity {
  scopes: string[];
  /** Scheme name -> what that scheme's credentials established. */
  schemes: Readonly<Record<string, SchemeIdentity>>;
}

/** Scopes one scheme of an alternative lacks. */
export interface ScopeShortfall {
  scheme: string;
  missing: string[];
}

/** The result of evaluating requirements against the schemes a caller proved. */
export type RequirementEvaluation =
  | { satisfied: true; identity: HostIdentity | undefined }
  | {
      satisfied: false;
      /** The first alternative whose schemes were all proved but lack scopes (a 403, not a 401). */
      shortfall: ScopeShortfall[] | undefined;
    };

/** True when the caller holds `scope` (space-free scope names, as in OAuth 2.0 RFC 6749 §3.3). */
export function hasScope(identity: CallerIdentity | undefined, scope: string): boolean {
  return identity?.scopes?.includes(scope) ?? false;
}

/**
 * Whether a caller may reach agents that are not exposed: only an authenticated caller holding
 * the host's internal scope (SecurityConfig.internalScope), so anonymous callers never learn
 * such agents exist.
 */
export function mayReachUnexposed(identity: CallerIdentity | undefined, config: SecurityConfig): boolean {
  return identity !== undefined && hasScope(identity, config.internalScope);
}

/** The schemes a caller proved: from a HostIdentity, or nothing for any other identity. */
export function provedSchemes(
  identity: CallerIdentity | undefined,
): Readonly<Record<string, SchemeIdentity>> {
  if (identity === undefined || !('schemes' in identity)) return {};
  const schemes = (identity as { schemes: unknown }).schemes;
  return typeof schemes === 'object' && schemes !== null
    ? (schemes as Readonly<Record<string, SchemeIdentity>>)
    : {};
}

function identityOf(
  schemes: Readonly<Record<string, SchemeIdentity>>,
  names: readonly string[],
): HostIdentity | undefined {
  const first = names[0] === undefined ? undefined : schemes[names[0]];
  if (first === undefined) return undefined;
  // The principal comes from the alternative's first scheme; the scopes are everything it proved.
  const scopes = new Set<string>();
  for (const name of names) for (const scope of schemes[name]?.scopes ?? []) scopes.add(scope);
  return { name: first.principal, scopes: [...scopes], schemes };
}

/**
 * Evaluates requirements against proved schemes: the first satisfied alternative wins. Empty
 * requirements are always satisfied, by the first proved scheme's identity or by nobody.
 */
export function evaluateRequirements(
  schemes: Readonly<Record<string, SchemeIdentity>>,
  requirements: readonly SecurityRequirementInput[],
): RequirementEvaluation {
  if (requirements.length === 0)
    return { satisfied: true, identity: identityOf(schemes, Object.keys(schemes)) };
  let shortfall: ScopeShortfall[] | undefined;
  for (const alternative of requirements) {
    const names = Object.keys(alternative);
    if (!names.every((name) => schemes[name] !== undefined)) continue;
    const lacking: ScopeShortfall[] = [];
    for (const name of names) {
      const held = schemes[name]!.scopes;
      const missing = (alternative[name] ?? []).filter((scope) => !held.includes(scope));
      if (missing.length > 0) lacking.push({ scheme: name, missing });
    }
    if (lacking.length === 0) return { satisfied: true, identity: identityOf(schemes, names) };
    shortfall ??= lacking;
  }
  return { satisfied: false, shortfall };
}

/** True when the proved schemes (or a HostIdentity's) satisfy at least one alternative. */
export function satisfies(
  proved: CallerIdentity | Readonly<Record<string, SchemeIdentity>> | undefined,
  requirements: readonly SecurityRequirementInput[],
): boolean {
  const schemes =
    proved !== undefined && 'name' in proved && typeof proved.name === 'string'
      ? provedSchemes(proved as CallerIdentity)
      : ((proved ?? {}) as Readonly<Record<string, SchemeIdentity>>);
  return evaluateRequirements(schemes, requirements).satisfied;
}

/** Names one scheme in messages; the default is its quoted name. */
export type SchemeDescriber = (name: string) => string;

const quoted: SchemeDescriber = (name) => `"${name}"`;

/** "a and b", for messages naming an alternative. */
export function describeAlternative(
  alternative: SecurityRequirementInput,
  describe: SchemeDescriber = quoted,
): string {
  return Object.keys(alternative).map(describe).join(' and ');
}

/** The 403 for a caller whose proved schemes lack scopes (A2A 1.0 §3.3.2: 403 for permission). */
export function permissionDenied(shortfall: readonly ScopeShortfall[]): A2AError {
  const parts = shortfall.map((s) => `scheme "${s.scheme}" lacks scope(s) ${s.missing.join(', ')}`);
  return new A2AError('PermissionDeniedError', `Permission denied: ${parts.join('; ')}`, {
    metadata: {
      schemes: shortfall.map((s) => s.scheme).join(','),
      missingScopes: shortfall.flatMap((s) => s.missing).join(' '),
    },
  });
}

/** The 401 for a caller who proved none of the alternatives' schemes. */
export function authenticationRequired(
  requirements: readonly SecurityRequirementInput[],
  describe: SchemeDescriber = quoted,
): A2AError {
  const accepted = requirements
    .map((alternative) => describeAlternative(alternative, describe))
    .join(', or ');
  return new A2AError(
    'UnauthenticatedError',
    `Authentication required: present credentials for ${accepted}`,
    {
      metadata: { acceptedSchemes: requirements.map((r) => Object.keys(r).join('+')).join(',') },
    },
  );
}

/**
 * Checks an already-authenticated caller against further requirements (a skill's, on top of the
 * agent's): returns the identity of the satisfied alternative, or throws 403 when the caller
 * proved the schemes but lacks scopes, 401 when it never proved them.
 */
export function authorize(
  identity: CallerIdentity | undefined,
  requirements: readonly SecurityRequirementInput[],
): HostIdentity | undefined {
  const evaluation = evaluateRequirements(provedSchemes(identity), requirements);
  if (evaluation.satisfied) return evaluation.identity;
  if (evaluation.shortfall !== undefined) throw permissionDenied(evaluation.shortfall);
  throw authenticationRequired(requirements);
}
