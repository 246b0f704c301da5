/**
 * Public entry of the contracts layer (seeds/a2a-contracts.md): typed JSON-Schema message
 * contracts between agents. Compile an agent's `a2a` section once with `compileContracts`, gate
 * each incoming message with `gateMessage`, give the agent `contractContextText`, check replies
 * with `validateContractOutput`. Pure: no I/O.
 */
export {
  type OutputPolicy,
  CONTRACT_MEDIA_TYPE,
  type ContractSchema,
  type ContractSection,
  type ContractSpec,
  type ContractViolation,
  type NamedContractSpec,
} from './contract-types.js';
export { ContractLoadError, type ContractLoadProblem } from './contract-load-error.js';
export { compileContracts, ContractSet, validateContractOutput } from './contract-set.js';

export { gateMessage, type GateContracts, type GateResult } from './gate.js';
export { contractContextText, type ContractContextOptions } from './context-text.js';

export {
  createContractMessage,
  defineContract,
  type ContractDeclaration,
  type ContractInput,
  type ContractMessageOptions,
  type ContractOutput,
  type ContractRef,
  type SchemaType,
  type TypedContract,
} from './typed-contract.js';
