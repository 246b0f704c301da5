/**
 * Public entry `concord-a2a/extensions/aump` (decision 0055): AUMP user mandates as an A2A extension.
 * The plain functions of the protocol — load and check mandates, `mandateHash`, `evaluateAction`,
 * `a2aMessage`, `validateA2aMessage`, evidence events and their hash chain, the profile — and
 * their wiring into Concord through the public extension interfaces only: a `ServerExtension` for
 * servers, a client interceptor for clients, a runtime that holds mandates and evidence and runs
 * the seed's send pattern, and a host extension for agent definitions. This list is the
 * deliberate public surface (house style rule 11): what the AUMP section of
 * docs/guides/aump-and-aap.md and a server, client or host built in code use. The pieces the
 * extension assembles itself (the card's declaration, the served profile, mandate references,
 * building and hashing evidence events) are in internal.ts (decision 0155).
 */

// Identifiers.
export { AUMP_A2A_EXTENSION_URI, AUMP_VERSION } from './constants.js';

// Documents, schemas and hashes.
export type * from './mandate-types.js';

export { mandateHash } from './canonical-hash.js';
export {
  loadMandateFile,
  MandateError,
  parseMandate,
  validateMandateSemantics,
  type MandateCheck,
} from './mandate.js';

// Action evaluation.
export { evaluateAction, type EvaluateOptions } from './evaluate-action.js';

// The A2A binding.
export {
  type A2aProblem,
  a2aMessage,
  validateA2aMessage,
  type A2aMandateMessage,
  type A2aMandateReference,
  type A2aMessageInput,
  type A2aValidation,
  type A2aValidationOptions,
} from './a2a-binding.js';

// Evidence.
export {
  type EvidenceCheck,
  EvidencePolicyError,
  validateEvidenceEvent,
  type EvidenceInput,
} from './evidence.js';
export { type ChainProblem, verifyEvidenceChain, type ChainVerification } from './evidence-chain.js';
export { EvidenceLog, type EvidenceLogOptions } from './evidence-log.js';

// Runtime, client, server, host.
export {
  AumpEvidenceError,
  AumpMessageError,
  AumpRuntime,
  createAumpRuntime,
  type AumpRuntimeOptions,
  type MandatedSend,
  type MandatedSendResult,
  type MessageSender,
} from './runtime.js';
export { aumpInterceptor, type AumpInterceptorOptions, type AumpResponseInfo } from './client-interceptor.js';
export { aumpServerExtension, type AumpServerOptions } from './server-extension.js';
export {
  aumpHostExtension,
  type AumpHostAgent,
  type AumpHostExtension,
  type AumpHostOptions,
} from './host-extension.js';
export type { SchemaProblem } from './schemas.js';
