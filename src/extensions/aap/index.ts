/**
 * `concord-a2a/extensions/aap`: the Auto Agent Protocol v0.1 automotive retail profile of A2A
 * (seed aap-http-json-binding.md): the profile (`createAapProfile`, which wires its skills, schema
 * checks, consent rules, rate limits, card entry and contract manifest) and its errors.
 */
export {
  createAapProfile,
  type AapProfile,
  type AapProfileOptions,
  type AapCardBase,
  type AapCallContext,
  type AapSkillHandlers,
} from './profile.js';
export { AAP_SKILLS, AAP_EXTENSION_URI, type AapSkill, type AapSkillId } from './skills.js';
export {
  AAP_ERRORS,
  AAP_ERROR_DOMAIN,
  AapError,
  aapError,
  type AapErrorCode,
  type AapErrorOptions,
  type AapErrorPayload,
} from './aap-errors.js';

export { type AapResponse } from './reply.js';
export { type AapRequest } from './request-checks.js';
export type { ManifestDealer } from './manifest.js';
export type { ConsentPolicy } from './consent.js';
export type { RateLimit } from './rate-limiter.js';
