/**
 * The AAP contract manifest served at `/.well-known/auto-agent-contract.json`
 * (schemas/aap/v0.1/schemas/contract-manifest.schema.json): the contract, the dealer, the A2A
 * endpoint and, per skill, its schemas and anonymity and consent rules, so a buyer agent can plan
 * its calls. `auth_type` agrees with the card: "bearer" when any skill needs a token.
 */
import { AAP_CONTRACT_URI, AAP_SCHEMA_BASE_URL, AAP_SKILLS } from './skills.js';

/** Who the manifest describes. */
export interface ManifestDealer {
  dealer_id: string;
  name: string;
  managed_by?: string;
}

/** Options of `contractManifest`. */
export interface ManifestOptions {
  dealer: ManifestDealer;
  /** The HTTP+JSON endpoint (the agent's base URL). */
  endpoint: string;
  /** Skills callable without a token. */
  anonymousSkills: ReadonlySet<string>;
  authType: 'bearer' | null;
  llm?: { guide_url?: string; rules?: string[] };
}

/** Builds the manifest. */
export function contractManifest(options: ManifestOptions): Record<string, unknown> {
  return {
    contract: {
      name: 'Auto Agent Protocol A2A Automotive Retail Profile',
      version: '0.1.0',
      uri: AAP_CONTRACT_URI,
    },
    dealer: { ...options.dealer },
    a2a: {
      endpoint: options.endpoint,
      protocol_binding: 'HTTP+JSON',
      skills: AAP_SKILLS.map((skill) => ({
        id: skill.id,
        request_schema: `${AAP_SCHEMA_BASE_URL}${skill.requestSchema}`,
        response_schema: `${AAP_SCHEMA_BASE_URL}${skill.responseSchema}`,
        anonymous_allowed: options.anonymousSkills.has(skill.id),
        consent_required: skill.consentScope !== undefined,
        ...(skill.adfCompatible ? { adf_compatible: true } : {}),
      })),
    },
    auth_type: options.authType,
    ...(options.llm === undefined ? {} : { llm: options.llm }),
  };
}
