/**
 * Public entry `concord-a2a/extensions/aump` (decision 0055): AUMP user mandates as an A2A extension.
 * The plain functions of the protocol — load and check mandates, `mandateHash`, `evaluateAction`,
 * `a2aMessage`, `validateA2aMessage`, evidence events and their hash chain, the profile — and
 * their wiring into Concord through the public extension interfaces only: a `ServerExtension` for
 * servers, a client interceptor for clients, a runtime that holds mandates and evidence and runs
 * the seed's send pattern, and a host extension for agent definitions. This list is the
 * deliberate public surface (house style rule 11).
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

// The A2A binding and the other bridges of the conformance suite.
export {
  type A2aProblem,
  a2aMessage,
  aumpAgentExtension,
  mandateReference,
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
  type EventPlacement,
  buildEvidenceEvent,
  checkEvidencePolicy,
  eventHash,
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
export { aumpProfile, type AumpBinding, type AumpProfile, type AumpProfileOptions } from './profile.js';
export {
  aumpHostExtension,
  type AumpHostAgent,
  type AumpHostExtension,
  type AumpHostOptions,
} from './host-extension.js';
export type { SchemaProblem } from './schemas.js';
