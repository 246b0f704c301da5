/**
 * Internal entry of the AUMP extension (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { AUMP_PROFILE_PATH, AUMP_SCHEMA_URIS, AUMP_SPEC_URL, type AumpSchemaName } from './constants.js';
export { validateAumpSchema, type AumpSchemaTarget } from './schemas.js';
export { AUMP_HASH_PATTERN, sha256Of } from './canonical-hash.js';
export { COMMITMENT_ACTIONS } from './evaluate-action.js';
export { findEmbeddedMandates, looksLikeMandate } from './mandate-leak.js';
export { AUMP_MCP_META_KEYS, validateBridge, type BridgeType, type BridgeValidation } from './bridges.js';
export { aumpAgentExtension, mandateReference } from './a2a-binding.js';
export { aumpProfile, type AumpBinding, type AumpProfile, type AumpProfileOptions } from './profile.js';
export { buildEvidenceEvent, checkEvidencePolicy, eventHash, type EventPlacement } from './evidence.js';
