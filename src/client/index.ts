/**
 * Public entry of the client layer (`concord-a2a/client`): `A2AClient` (card resolution,
 * transport selection, the operations by the spec's names with resumable streams and retries),
 * the card resolver on its own, credentials, interceptors, the network policy and the two error
 * families; contract-aware send (`contracts()`, `sendContract`) with its local contract errors.
 * This list is the deliberate public surface (house style rule 11); test/client/
 * public-surface.test.ts pins it; what the CLI and the check need besides is in internal.ts
 * (decision 0155). Imports only the protocol, contracts and card layers.
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

export { type TransportPreference } from './card/interface-selection.js';
export { type ClientBinding, type TransportInfo } from './transports/transport.js';

export { type GrpcChannelCredentials, type GrpcClientOptions } from './transports/grpc-target.js';
export type { RetryOptions } from './http/retry.js';
export { type ResumeOptions } from './transports/resumable-stream.js';

// Errors: what the agent said (A2AClientError) and what went wrong here (A2ALocalError).
export {
  A2AClientError,
  A2ALocalError,
  type A2ALocalErrorKind,
  type A2ALocalErrorOptions,
} from './client-errors.js';

// Finding and trusting cards.
export {
  resolveAgentCard,
  discoverAgents,
  type ResolveAgentCardOptions,
  type DiscoverAgentsOptions,
} from './card/resolve-agent-card.js';
// Discovering the agents of one origin through its AI Catalog (decision 0167).
export {
  pickCatalogAgent,
  type AgentCatalog,
  type CatalogAgent,
  type SkippedEntry,
} from './card/catalog-resolver.js';
export { type CardFetchOptions, type ResolvedCard } from './card/card-resolver.js';
export { CardCache, defaultCardCache, type CardCacheOptions } from './card/card-cache.js';

// The network policy every outbound request is checked against (A2A 1.0 §13.2).
export { type HostResolver, type ResolvedAddress, type NetworkPolicy } from './http/address-guard.js';

// Credentials chosen from the card's security requirements.
export {
  type CredentialContext,
  bearer,
  apiKey,
  type ApiKeyOptions,
  type Credential,
  type SecretSource,
} from './auth/auth.js';
export {
  oauth2ClientCredentials,
  type OAuth2ClientCredentialsOptions,
} from './auth/oauth2-client-credentials.js';
// Card-driven OAuth 2.0 (decision 0168): device login, tokens kept per agent, why none came.
export {
  oauth2DeviceCode,
  type DeviceLoginPrompt,
  type OAuth2DeviceCodeOptions,
} from './auth/oauth2-device-code.js';
export { type OAuth2Tokens, type OAuth2TokenStore } from './auth/oauth2-tokens.js';
export { OAuthError } from './auth/oauth2-error.js';

// Interceptors.
export {
  type AuthServerExchange,
  type CallPurpose,
  headersInterceptor,
  extensionsInterceptor,
  type CallOutcome,
  type ClientInterceptor,
  type OutgoingCall,
} from './auth/interceptors.js';

// Contract-aware sends (decision 0016): the agent's contracts, typed sends, local refusals.
export { AgentContracts, type ContractsSource } from './contracts/agent-contracts.js';
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
export type { A2AReadWarning } from './transports/answer-reading.js';
