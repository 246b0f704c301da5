/**
 * The identifiers AUMP v0.1 fixes (AUMP bindings/a2a.md, Agentic-User-Mandate-Protocol/spec):
 * the A2A extension URI (a breaking binding change mints a new one), the protocol version, and the
 * canonical URIs of its four JSON Schemas.
 */

/** The AUMP A2A binding's extension URI, as current SDKs and the conformance fixtures use it. */
export const AUMP_A2A_EXTENSION_URI =
  'https://agentic-user-mandate-protocol.github.io/spec/bindings/a2a/v0.1';

/** The AUMP protocol version this extension speaks (`aump.version`, `params.versions`). */
export const AUMP_VERSION = '0.1.0';

/** Where the AUMP specification lives; bindings and schemas are below it. */
export const AUMP_SPEC_URL = 'https://agentic-user-mandate-protocol.github.io/spec';

/** The `$id` of each AUMP schema, by the name this extension uses for it. */
export const AUMP_SCHEMA_URIS = {
  mandate: `${AUMP_SPEC_URL}/schemas/mandate.schema.json`,
  profile: `${AUMP_SPEC_URL}/schemas/profile.schema.json`,
  'action-evaluation': `${AUMP_SPEC_URL}/schemas/action-evaluation.schema.json`,
  'evidence-event': `${AUMP_SPEC_URL}/schemas/evidence-event.schema.json`,
} as const;

/** The name of one of the four AUMP schemas. */
export type AumpSchemaName = keyof typeof AUMP_SCHEMA_URIS;

/** The path of AUMP's discovery document below an agent's base URL (spec "Profile"). */
export const AUMP_PROFILE_PATH = '/.well-known/aump';
