/**
 * Public entry of the client layer (issue 5): `A2AClient` (card resolution, transport selection,
 * the operations with resumable streams and retries), the card resolver on its own, credentials,
 * interceptors and the two error families; contract-aware send (`contracts()`, `sendContract`) with
 * its local contract errors. Imports only the protocol, contracts and card layers.
 */
export { A2AClient } from './a2a-client.js';
export type {
  A2AClientCommonOptions,
  A2AClientOptions,
  A2AConnectOptions,
  CallOptions,
  StreamOptions,
  SubscribeOptions,
} from './client-options.js';
export {
  A2AClientError,
  A2ALocalError,
  type A2ALocalErrorKind,
  type A2ALocalErrorOptions,
  type WireErrorFacts,
} from './client-errors.js';
export {
  blockedAddressReason,
  checkTarget,
  type HostResolver,
  type NetworkPolicy,
  type ResolvedAddress,
} from './address-guard.js';
export {
  CardCache,
  defaultCardCache,
  freshnessOf,
  type CachedCard,
  type CardCacheOptions,
} from './card-cache.js';
export { resolveAgentCard, type ResolveAgentCardOptions } from './resolve-agent-card.js';
export { cardUrlsFor, cardDialectOf, type CardFetchOptions, type ResolvedCard } from './card-resolver.js';
export { selectInterface, majorMinor, type TransportPreference } from './interface-selection.js';
export type { ClientBinding, StreamedEvent, TransportInfo } from './transport.js';
export { JSON_RPC_METHOD_NAMES } from './json-rpc-binding.js';
export type { OperationName, OperationTypes } from './wire-binding.js';
export {
  bearer,
  apiKey,
  selectCredentials,
  type ApiKeyOptions,
  type Credential,
  type CredentialContext,
  type SecretSource,
  type SelectedCredential,
} from './auth.js';
export { oauth2ClientCredentials, type OAuth2ClientCredentialsOptions } from './oauth2-client-credentials.js';
export {
  headersInterceptor,
  extensionsInterceptor,
  type CallOutcome,
  type CallPurpose,
  type ClientInterceptor,
  type OutgoingCall,
} from './interceptors.js';
export { isRetryable, type RetryOptions } from './retry.js';
export { isFinalEvent, type ResumeOptions } from './resumable-stream.js';
export { AgentContracts, agentContractsOfCard, type ContractsSource } from './agent-contracts.js';
export {
  type ContractResult,
  type ContractValidation,
  type PayloadOf,
  type ReplyOf,
  type SendContractOptions,
  type TypedContractSender,
} from './contract-client.js';
export { ContractRefusedError, ContractReplyError, type ReplyViolations } from './contract-errors.js';
export { contractsUrlOf } from './contracts-document.js';
