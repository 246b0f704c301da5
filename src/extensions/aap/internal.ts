/**
 * Internal entry of the AAP extension (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export {
  AAP_SCHEMA_BASE_URL,
  AAP_CONTRACT_URI,
  AAP_MANIFEST_PATH,
  aapSkill,
  skillForRequestType,
} from './skills.js';
export { AAP_ERROR_DETAIL_TYPE, defaultRetryable, mapToAapError } from './aap-errors.js';
export { aapSchemas, AAP_SCHEMA_DIR, type AapSchemas, type SchemaIssue } from './schema-registry.js';
export { checkConsent, DEFAULT_CONSENT_POLICY } from './consent.js';
export { createRateLimiter, type RateLimiter } from './rate-limiter.js';
export { contractManifest, type ManifestOptions } from './manifest.js';
export {
  aapCardExtension,
  aapCardSkills,
  aapDefaultModes,
  decorateAapCard,
  AAP_GENERIC_MODES,
} from './card.js';
export { replyMode, replyParts } from './reply.js';
export { readAapRequest, validateAapRequest, peekRequestType } from './request-checks.js';
export { type ConsentScope } from './skills.js';
