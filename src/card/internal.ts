/**
 * Internal entry of the card layer (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { defaultCardInterfaces } from './build-card.js';
export { CONTRACT_TAG } from './card-skills.js';
export { toSecurityRequirement, toSecurityRequirements } from './security-requirements.js';
export { cardSigningPayload, withSignatures } from './card-signing.js';
export { CARD_VERIFY_ALGORITHMS, ASYMMETRIC_JWS_ALGORITHMS } from './signing-algorithms.js';
export { CanonicalJsonError } from './canonical-json.js';
export { type SourceLocation } from './agent-definition.js';
