/**
 * Public entry of the contracts layer (OpenClaw PR #19293 a2a-contracts.md): typed JSON-Schema message
 * contracts between agents. Compile an agent's `a2a` section once with `compileContracts`, gate
 * each incoming message with `gateMessage`, give the agent `contractContextText`, check replies
 * with `validateContractOutput`. Pure: no I/O.
 */
export {
  type ContractSchema,
  type OutputPolicy,
  CONTRACT_MEDIA_TYPE,
  type ContractSection,
  type ContractSpec,
  type ContractViolation,
  type NamedContractSpec,
} from './contract-types.js';
export { ContractLoadError } from './contract-load-error.js';
export { compileContracts, ContractSet, validateContractOutput } from './contract-set.js';

export { gateMessage, type GateContracts, type GateResult } from './gate.js';
export { contractContextText, type ContractContextOptions } from './context-text.js';

export {
  type SchemaType,
  createContractMessage,
  defineContract,
  type ContractDeclaration,
  type ContractInput,
  type ContractMessageOptions,
  type ContractOutput,
  type ContractPayload,
  type ContractReply,
  type ContractRef,
  type TypedContract,
} from './typed-contract.js';
export {
  type ContractsAgent,
  type DeprecatedContract,
  type DiscoveredContract,
  type ContractsConfig,
  listDeprecatedContracts,
  discoverContracts,
} from './discovery.js';
