/**
 * Public entry of the contracts layer (OpenClaw PR #19293 a2a-contracts.md): typed JSON-Schema message
 * contracts between agents. Compile an agent's `a2a` section once with `compileContracts`, gate
 * each incoming message with `gateMessage`, give the agent `contractContextText`, check replies
 * with `validateContractOutput`. Pure: no I/O.
 */
export {
  CONTRACT_MEDIA_TYPE,
  DEFAULT_DEPRECATION_MESSAGE,
  type ContractInvocation,
  type ContractSchema,
  type ContractSection,
  type ContractSpec,
  type ContractViolation,
  type NamedContractSpec,
  type OutputPolicy,
  type StructuredMessage,
} from './contract-types.js';
export { ContractLoadError, type ContractLoadProblem } from './contract-load-error.js';
export {
  compileContracts,
  ContractSet,
  deprecationWarnings,
  validateContractOutput,
} from './contract-set.js';
export { parseStructuredMessage } from './structured-message.js';
export { gateMessage, type GateContracts, type GateResult } from './gate.js';
export {
  contractContextText,
  DEFAULT_MAX_PAYLOAD_CHARS,
  type ContractContextOptions,
} from './context-text.js';
export {
  discoverContracts,
  findContract,
  listAgentContracts,
  listDeprecatedContracts,
  type ContractsAgent,
  type ContractsConfig,
  type DeprecatedContract,
  type DiscoveredContract,
} from './discovery.js';
export {
  createContractEnvelope,
  createContractMessage,
  createContractPart,
  defineContract,
  type ContractDeclaration,
  type ContractEnvelope,
  type ContractInput,
  type ContractMessageOptions,
  type ContractOutput,
  type ContractRef,
  type SchemaType,
  type TypedContract,
} from './typed-contract.js';
export {
  CONTRACTS_EXTENSION_URI,
  contractsOfCard,
  publishContracts,
  readPublishedContracts,
  type PublishedContracts,
} from './published-contracts.js';
export { replyValues, type ReplyValue } from './reply-values.js';
