/**
 * Public entry of the card layer: build a canonical AgentCard from an agent definition,
 * canonicalize (RFC 8785), sign and verify card JSON (A2A 1.0 §8.4), and lint cards of either
 * protocol version. Also the agent-definition types the host loader produces.
 */
export {
  type JsonSchema,
  type ContractDefinition,
  type RemoteAgentDefinition,
  type A2ASection,
  type SecurityRequirementInput,
  type SkillDefinition,
  type McpToolUse,
  type McpServerUse,
  type CardOverrides,
  type AgentDefinition,
} from './agent-definition.js';
export { buildAgentCard, type BuildCardOptions, type ServedCapabilities } from './build-card.js';

export { canonicalJson } from './canonical-json.js';
export { signAgentCard, type SigningKey } from './card-signing.js';
export { verifyAgentCard, type CardVerification, type VerifyCardOptions } from './card-verify.js';
export { type CardTrustAnchor } from './trust-anchors.js';
export {
  type JwksResolver,
  type VerificationKey,
  type JwksSource,
  type JwksFetcher,
} from './verification-keys.js';
export {
  CardSignatureError,
  type CardSignatureFailure,
  type CardSignatureReason,
} from './card-signature-error.js';
export { CARD_SIGNING_ALGORITHMS, type CardSigningAlgorithm } from './signing-algorithms.js';
export { lintAgentCard, type CardProblem, type CardVersion } from './card-lint.js';
