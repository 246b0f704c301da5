/**
 * Internal entry of the client layer (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { selectInterface } from './interface-selection.js';
export { parseGrpcTarget } from './grpc-target.js';
export { type GrpcTarget } from './grpc-target.js';
export { type WireErrorFacts } from './client-errors.js';
export { fetchAgentCardJson } from './resolve-agent-card.js';
export { type FetchedCardJson } from './card-resolver.js';
export { blockedAddressReason, checkTarget } from './address-guard.js';
export { selectCredentials, type SelectedCredential } from './auth.js';
export { isFinalEvent } from './resumable-stream.js';
export { createJwksFetcher, type JwksFetcherOptions } from './jwks-fetcher.js';
export { agentContractsOfCard } from './agent-contracts.js';
export { contractsUrlOf } from './contracts-document.js';
export { type CachedCard } from './card-cache.js';
