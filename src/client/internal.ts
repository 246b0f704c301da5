/**
 * Internal entry of the client layer (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { selectInterface } from './card/interface-selection.js';
export { parseGrpcTarget } from './transports/grpc-target.js';
export { type GrpcTarget } from './transports/grpc-target.js';
export { type WireErrorFacts } from './client-errors.js';
export { fetchAgentCardJson } from './card/resolve-agent-card.js';
export { type FetchedCardJson } from './card/card-resolver.js';
export { blockedAddressReason, checkTarget } from './http/address-guard.js';
export { trustedRoots } from './http/trusted-roots.js';
export { selectCredentials, type SelectedCredential } from './auth/auth.js';
export { isFinalEvent } from './transports/resumable-stream.js';
export { createJwksFetcher, type JwksFetcherOptions } from './card/jwks-fetcher.js';
export { agentContractsOfCard } from './contracts/agent-contracts.js';
export { contractsUrlOf } from './contracts/contracts-document.js';
export { type CachedCard } from './card/card-cache.js';
