/**
 * Internal entry of the contracts layer (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { DEFAULT_DEPRECATION_MESSAGE, type ContractInvocation } from './contract-types.js';
export { deprecationWarnings } from './contract-set.js';
export { DEFAULT_MAX_PAYLOAD_CHARS } from './context-text.js';
export { createContractEnvelope, createContractPart, type ContractEnvelope } from './typed-contract.js';
export {
  CONTRACTS_EXTENSION_URI,
  contractsOfCard,
  publishContracts,
  readPublishedContracts,
  type PublishedContracts,
} from './published-contracts.js';
export { replyValues, type ReplyValue } from './reply-values.js';
export { type StructuredMessage } from './contract-types.js';
export { parseStructuredMessage } from './structured-message.js';
export { findContract, listAgentContracts } from './discovery.js';
export { type ContractLoadProblem } from './contract-load-error.js';
export { validatorsOf, type ContractValidators } from './standard-json-schema.js';
export { runValidator, type ParsedValue, type StandardSchema } from './standard-schema.js';
