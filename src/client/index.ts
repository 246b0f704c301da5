/**
 * Public entry of the client layer (`concord-a2a/client`): `A2AClient` (card resolution,
 * transport selection, the operations by the spec's names with resumable streams and retries),
 * the card resolver on its own, credentials, interceptors, the network guard and the two error
 * families; contract-aware send (`contracts()`, `sendContract`) with its local contract errors.
 * This list is the deliberate public surface (house style rule 11); test/client/
 * public-surface.test.ts pins it. Imports only the protocol, contracts and card layers.
 */

// The client and its options.
export { A2AClient } from './a2a-client.js';
export type {
  A2AClientCommonOptions,
  A2AClientOptions,
  A2AConnectOptions,
  CallOptions,
  SendOptions,
  SendStreamOptions,
  StreamOptions,
  SubscribeOptions,
} from './client-options.js';
export type { A2AReadWarning } from './transports/answer-reading.js';
export { selectInterface, type TransportPreference } from './card/interface-selection.js';
export type { ClientBinding, TransportInfo } from './transports/transport.js';
export { parseGrpcTarget } from './transports/grpc-target.js';
export type { GrpcChannelCredentials, GrpcClientOptions, GrpcTarget } from './transports/grpc-target.js';
export type { RetryOptions } from './http/retry.js';
export { isFinalEvent, type ResumeOptions } from './transports/resumable-stream.js';

// Errors: what the agent said (A2AClientError) and what went wrong here (A2ALocalError).
export {
  A2AClientError,
  A2ALocalError,
  type A2ALocalErrorKind,
  type A2ALocalErrorOptions,
  type WireErrorFacts,
} from './client-errors.js';

// Finding and trusting cards.
export {
  resolveAgentCard,
  fetchAgentCardJson,
  type ResolveAgentCardOptions,
} from './card/resolve-agent-card.js';
export type { CardFetchOptions, FetchedCardJson, ResolvedCard } from './card/card-resolver.js';
export { CardCache, defaultCardCache, type CachedCard, type CardCacheOptions } from './card/card-cache.js';
export { createJwksFetcher, type JwksFetcherOptions } from './card/jwks-fetcher.js';

// The network guard every outbound request passes (A2A 1.0 §13.2).
export {
  blockedAddressReason,
  checkTarget,
  type HostResolver,
  type NetworkPolicy,
  type ResolvedAddress,
} from './http/address-guard.js';

// Credentials chosen from the card's security requirements.
export {
  bearer,
  apiKey,
  selectCredentials,
  type ApiKeyOptions,
  type Credential,
  type CredentialContext,
  type SecretSource,
  type SelectedCredential,
} from './auth/auth.js';
export {
  oauth2ClientCredentials,
  type OAuth2ClientCredentialsOptions,
} from './auth/oauth2-client-credentials.js';

// Interceptors.
export {
  headersInterceptor,
  extensionsInterceptor,
  type CallOutcome,
  type CallPurpose,
  type ClientInterceptor,
  type OutgoingCall,
} from './auth/interceptors.js';

// Contract-aware sends (decision 0016): the agent's contracts, typed sends, local refusals.
export { AgentContracts, agentContractsOfCard, type ContractsSource } from './contracts/agent-contracts.js';
export {
  type ContractResult,
  type ContractValidation,
  type PayloadOf,
  type ReplyOf,
  type SendContractOptions,
  type TypedContractSender,
} from './contracts/contract-client.js';
export {
  ContractRefusedError,
  ContractReplyError,
  type ReplyViolations,
} from './contracts/contract-errors.js';
export { contractsUrlOf } from './contracts/contracts-document.js';
