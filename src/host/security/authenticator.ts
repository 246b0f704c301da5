/**
 * The host authenticator: verifies every credential a request carries for the declared schemes,
 * then evaluates the requirement alternatives (an OR of ANDs, A2A 1.0 §4.4.1 `securityRequirements`). It answers as
 * A2A 1.0 §7.4 asks: no identity for anonymous calls when nothing is required; 401
 * (UnauthenticatedError) for missing or invalid credentials, saying why but never echoing them;
 * 403 (PermissionDeniedError) for a proved caller without the required scopes. It runs in call
 * setup, before any lookup, so refusals reveal nothing about tasks or agents (A2A 1.0 §13.1).
 */
import { A2AError } from '../../protocol/index.js';
import type { Authenticator, CallerIdentity, HttpRequest } from '../../server/index.js';
import type { SecurityConfig } from '../host-config.js';
import { createApiKeyVerifier } from './api-key-verifier.js';
import { createBearerVerifier, type BearerVerifierOptions } from './bearer-verifier.js';
import { checkRequirements } from './card-security.js';
import { credentialSource, describeLocation, readCredentials, type CredentialCheck } from './credentials.js';
import {
  authenticationRequired,
  evaluateRequirements,
  permissionDenied,
  type HostIdentity,
  type SchemeIdentity,
  type SecurityRequirementInput,
} from './requirements.js';

/** Options of `createAuthenticator`. */
export type AuthenticatorOptions = BearerVerifierOptions;

/** Authenticates requests against the host's schemes, for given requirement alternatives. */
export interface HostAuthenticator {
  /**
   * The caller, undefined for an anonymous call when `requirements` is empty; throws
   * UnauthenticatedError (401) or PermissionDeniedError (403) otherwise.
   */
  authenticate(
    request: HttpRequest,
    requirements: readonly SecurityRequirementInput[],
  ): Promise<HostIdentity | undefined>;
  /** Throws a TypeError naming `where` when requirements name unknown schemes or are malformed. */
  validate(requirements: readonly SecurityRequirementInput[], where: string): void;
}

type Verify = (credential: string) => CredentialCheck | Promise<CredentialCheck>;

/** What verifying one request's credentials produced. */
interface Verified {
  proved: Record<string, SchemeIdentity>;
  /** Credentials no scheme reading them accepted, with the rejecting scheme's reason. */
  rejected: { scheme: string; reason: string; detail: string }[];
  unavailable: unknown[];
}

function invalidCredentials(rejected: Verified['rejected']): A2AError {
  const parts = rejected.map((r) => `scheme "${r.scheme}": ${r.detail}`);
  return new A2AError('UnauthenticatedError', `Invalid credentials (${parts.join('; ')})`, {
    metadata: { schemes: rejected.map((r) => r.scheme).join(','), reason: rejected[0]!.reason },
  });
}

/** Creates the authenticator of a host's security configuration; bad configuration throws here. */
export function createAuthenticator(
  config: SecurityConfig,
  options: AuthenticatorOptions = {},
): HostAuthenticator {
  if (typeof config.schemes !== 'object' || config.schemes === null) {
    throw new TypeError('security.schemes: expected an object of named schemes');
  }
  checkRequirements(config.requirements, config.schemes, 'security.requirements');
  const verifiers = new Map<string, Verify>();
  for (const [name, scheme] of Object.entries(config.schemes)) {
    const where = `security.schemes.${name}`;
    if (scheme.type === 'http' && scheme.scheme === 'bearer') {
      verifiers.set(name, createBearerVerifier(scheme, where, options));
    } else if (scheme.type === 'apiKey') {
      if (
        !['header', 'query', 'cookie'].includes(scheme.in) ||
        typeof scheme.name !== 'string' ||
        scheme.name === ''
      ) {
        throw new TypeError(`${where}: an apiKey scheme needs "in" (header, query or cookie) and a "name"`);
      }
      verifiers.set(name, createApiKeyVerifier(scheme, where));
    } else {
      throw new TypeError(`${where}: unsupported scheme (Concord enforces http bearer and apiKey schemes)`);
    }
  }
  // Requirement lists come from definitions and are reused for every call: check each once.
  const checked = new WeakSet<readonly SecurityRequirementInput[]>();
  const sources = new Map(Object.entries(config.schemes).map(([name, s]) => [name, credentialSource(s)]));

  async function verify(request: HttpRequest): Promise<Verified> {
    const credentials = readCredentials(request, config.schemes);
    const names = [...credentials.keys()];
    const checks = await Promise.all(names.map((name) => verifiers.get(name)!(credentials.get(name)!)));
    // No prototype: scheme names are configuration, and `__proto__` must be an ordinary key.
    const proved: Record<string, SchemeIdentity> = Object.create(null) as Record<string, SchemeIdentity>;
    const acceptedSources = new Set<string>();
    names.forEach((name, i) => {
      const check = checks[i]!;
      if (check.kind === 'valid') {
        proved[name] = check.identity;
        acceptedSources.add(sources.get(name)!);
      }
    });
    const rejected: Verified['rejected'] = [];
    const reported = new Set<string>();
    const unavailable: unknown[] = [];
    names.forEach((name, i) => {
      const check = checks[i]!;
      const source = sources.get(name)!;
      // A credential some scheme accepted is not invalid just because another scheme (say a
      // second bearer scheme with other keys) rejected it.
      if (check.kind === 'valid' || acceptedSources.has(source)) return;
      if (check.kind === 'unavailable') unavailable.push(check.error);
      else if (!reported.has(source)) {
        reported.add(source);
        rejected.push({ scheme: name, reason: check.reason, detail: check.detail });
      }
    });
    return { proved, rejected, unavailable };
  }

  const validate = (requirements: readonly SecurityRequirementInput[], where: string): void => {
    if (checked.has(requirements)) return;
    checkRequirements(requirements, config.schemes, where);
    checked.add(requirements);
  };
  const describe = (name: string): string => `"${name}" (${describeLocation(config.schemes[name]!)})`;

  return {
    validate,
    async authenticate(request, requirements) {
      validate(requirements, 'security requirements');
      const { proved, rejected, unavailable } = await verify(request);
      const evaluation = evaluateRequirements(proved, requirements);
      // Non-empty requirements are only satisfied by a proved caller; empty ones by anybody.
      if (evaluation.satisfied && evaluation.identity !== undefined) return evaluation.identity;
      // A bad credential is refused even where none is required: the caller meant to be someone.
      if (rejected.length > 0) throw invalidCredentials(rejected);
      if (unavailable.length > 0) {
        // The host's fault, not the caller's: an internal error (500) whose message stays here.
        throw new Error('A bearer token could not be verified: its key set is unavailable', {
          cause: unavailable[0],
        });
      }
      if (evaluation.satisfied) return undefined;
      if (evaluation.shortfall !== undefined) throw permissionDenied(evaluation.shortfall);
      throw authenticationRequired(requirements, describe);
    },
  };
}

/**
 * Fixes the requirements of one agent (or of the host), giving the server's `Authenticator`
 * (A2AServerOptions.authenticate). Bad requirements throw here, at startup, not on a call.
 */
export function bindRequirements(
  auth: HostAuthenticator,
  requirements: readonly SecurityRequirementInput[],
): Authenticator {
  const fixed = requirements.map((alternative) => ({ ...alternative }));
  auth.validate(fixed, 'security requirements');
  return (request: HttpRequest): Promise<CallerIdentity | undefined> => auth.authenticate(request, fixed);
}
