/**
 * Security of the host: the card's declaration of the organisation's schemes, the authenticator
 * that enforces them (401 / 403, A2A 1.0 §7.4), and the requirement checks the host reuses for
 * unexposed agents and per-skill requirements (docs/decisions/0014-host-security.md).
 */
export {
  toCardSecurity,
  toCardRequirements,
  toCardScheme,
  checkRequirements,
  type CardSecurity,
} from './card-security.js';
export {
  createAuthenticator,
  bindRequirements,
  type HostAuthenticator,
  type AuthenticatorOptions,
} from './authenticator.js';
export {
  hasScope,
  satisfies,
  authorize,
  evaluateRequirements,
  mayReachUnexposed,
  provedSchemes,
  type SecurityRequirementInput,
  type SchemeIdentity,
  type HostIdentity,
  type ScopeShortfall,
  type RequirementEvaluation,
} from './requirements.js';
export { constantTimeEqual } from './api-key-verifier.js';
export { parseCookies } from './credentials.js';
