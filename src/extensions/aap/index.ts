/**
 * `concord-a2a/extensions/aap`: the Auto Agent Protocol v0.1 automotive retail profile of A2A
 * (seed aap-http-json-binding.md): its skills, schemas (validated both ways), error table and
 * envelope, consent rules, rate limits, card extension entry and contract manifest.
 */
export {
  createAapProfile,
  type AapProfile,
  type AapProfileOptions,
  type AapCardBase,
  type AapCallContext,
  type AapSkillHandlers,
} from './profile.js';
export {
  AAP_SKILLS,
  AAP_EXTENSION_URI,
  AAP_SCHEMA_BASE_URL,
  AAP_CONTRACT_URI,
  AAP_MANIFEST_PATH,
  aapSkill,
  skillForRequestType,
  type AapSkill,
  type AapSkillId,
  type ConsentScope,
} from './skills.js';
export {
  AAP_ERRORS,
  AAP_ERROR_DOMAIN,
  AAP_ERROR_DETAIL_TYPE,
  AapError,
  aapError,
  defaultRetryable,
  mapToAapError,
  type AapErrorCode,
  type AapErrorOptions,
  type AapErrorPayload,
} from './aap-errors.js';
export { aapSchemas, AAP_SCHEMA_DIR, type AapSchemas, type SchemaIssue } from './schema-registry.js';
export { checkConsent, DEFAULT_CONSENT_POLICY, type ConsentPolicy } from './consent.js';
export { createRateLimiter, type RateLimit, type RateLimiter } from './rate-limiter.js';
export { contractManifest, type ManifestOptions, type ManifestDealer } from './manifest.js';
export {
  aapCardExtension,
  aapCardSkills,
  aapDefaultModes,
  decorateAapCard,
  AAP_GENERIC_MODES,
} from './card.js';
export { replyMode, replyParts, type AapResponse } from './reply.js';
export { readAapRequest, validateAapRequest, peekRequestType, type AapRequest } from './request-checks.js';
