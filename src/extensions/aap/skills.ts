/**
 * The seven AAP v0.1 skills (schemas/aap/v0.1/skills.yaml, seed aap-http-json-binding.md): each
 * skill's request and response `type`s, schemas and media types, and its anonymity and consent
 * rules (AAP v0.1 skills.yaml, auto-agent-protocol/auto-agent-protocol at e68f478; decision 0062).
 */

/** The AAP v0.1 extension URI, the one the card's `capabilities.extensions` entry names. */
export const AAP_EXTENSION_URI = 'https://autoagentprotocol.org/extensions/a2a-automotive-retail/v0.1';
/** Where the schemas' `$id`s live. */
export const AAP_SCHEMA_BASE_URL = 'https://autoagentprotocol.org/v0.1/schemas/';
/** The contract URI of the profile (manifest `contract.uri`). */
export const AAP_CONTRACT_URI = 'https://autoagentprotocol.org/v0.1/';
/** The path of the contract manifest (AAP v0.1 docs/contract-manifest.md; decision 0062). */
export const AAP_MANIFEST_PATH = '/.well-known/auto-agent-contract.json';

/** An AAP skill id. */
export type AapSkillId =
  | 'dealer.information'
  | 'inventory.facets'
  | 'inventory.search'
  | 'inventory.vehicle'
  | 'lead.general'
  | 'lead.vehicle'
  | 'lead.appointment';

/** The consent scope a lead skill's ConsentGrant must include (consent-grant.schema.json `scope`). */
export type ConsentScope = 'general_inquiry' | 'vehicle_inquiry' | 'appointment';

/** One skill of the profile. */
export interface AapSkill {
  id: AapSkillId;
  name: string;
  description: string;
  requestType: string;
  responseType: string;
  /** Schema file names (below schemas/aap/v0.1/schemas/). */
  requestSchema: string;
  responseSchema: string;
  requestMediaType: string;
  responseMediaType: string;
  anonymousAllowed: boolean;
  /** Lead skills: the consent scope that covers them; undefined for the others. */
  consentScope?: ConsentScope;
  adfCompatible: boolean;
  tags: string[];
}

const MEDIA = 'application/vnd.autoagent.';

function skill(
  id: AapSkillId,
  name: string,
  description: string,
  schemas: { request: string; response: string },
  extra: { consentScope?: ConsentScope; tags: string[] },
): AapSkill {
  const lead = extra.consentScope !== undefined;
  return {
    id,
    name,
    description,
    requestType: `${id}.request`,
    responseType: `${id}.response`,
    requestSchema: `${schemas.request}.schema.json`,
    responseSchema: `${schemas.response}.schema.json`,
    requestMediaType: `${MEDIA}${schemas.request}+json`,
    responseMediaType: `${MEDIA}${schemas.response}+json`,
    anonymousAllowed: !lead,
    ...(extra.consentScope === undefined ? {} : { consentScope: extra.consentScope }),
    adfCompatible: lead,
    tags: extra.tags,
  };
}

/** The seven skills, in the profile's order. */
export const AAP_SKILLS: readonly AapSkill[] = [
  skill(
    'dealer.information',
    'Dealer Information',
    'Return the dealership profile: names, address, brands, business hours, contact channels and supported services.',
    { request: 'dealer-information-request', response: 'dealer-information-response' },
    { tags: ['dealer', 'profile', 'hours', 'contact'] },
  ),
  skill(
    'inventory.facets',
    'Inventory Facets',
    'Return searchable inventory facets (makes, models, years, conditions, body styles, price and mileage ranges, drivetrain, fuel).',
    { request: 'inventory-facets-request', response: 'inventory-facets-response' },
    { tags: ['inventory', 'facets', 'aggregation'] },
  ),
  skill(
    'inventory.search',
    'Inventory Search',
    'Search vehicle inventory by make, model, trim, year, condition, price, mileage, body style, VIN, stock or free text, with pagination and sort.',
    { request: 'inventory-search-request', response: 'inventory-search-response' },
    { tags: ['inventory', 'search', 'vehicles', 'vin'] },
  ),
  skill(
    'inventory.vehicle',
    'Vehicle Detail',
    'Return details for one vehicle by VIN, stock number or vehicle_id: availability, pricing, media, mileage, trim and features.',
    { request: 'vehicle-detail-request', response: 'vehicle-detail-response' },
    { tags: ['inventory', 'vehicle', 'detail', 'pricing'] },
  ),
  skill(
    'lead.general',
    'General Dealership Lead',
    'Submit a consented general inquiry (financing question, trade-in interest, callback request). Consent scope: general_inquiry.',
    { request: 'general-lead-request', response: 'lead-response' },
    { consentScope: 'general_inquiry', tags: ['lead', 'general', 'consent'] },
  ),
  skill(
    'lead.vehicle',
    'Vehicle Lead',
    'Submit a consented, ADF-compatible lead about a particular vehicle. Consent scope: vehicle_inquiry.',
    { request: 'vehicle-lead-request', response: 'lead-response' },
    { consentScope: 'vehicle_inquiry', tags: ['lead', 'vehicle', 'adf', 'consent'] },
  ),
  skill(
    'lead.appointment',
    'Appointment Lead',
    'Request an appointment (test drive, showroom visit, handover, phone or video call, trade-in appraisal); confirmed against the schedule, or alternative slots proposed. Consent scope: appointment.',
    { request: 'appointment-lead-request', response: 'appointment-lead-response' },
    { consentScope: 'appointment', tags: ['lead', 'appointment', 'test-drive', 'consent'] },
  ),
];

const BY_REQUEST_TYPE = new Map(AAP_SKILLS.map((each) => [each.requestType, each]));
const BY_ID = new Map<string, AapSkill>(AAP_SKILLS.map((each) => [each.id, each]));

/** The skill whose request `type` this is. */
export function skillForRequestType(type: string): AapSkill | undefined {
  return BY_REQUEST_TYPE.get(type);
}

/** The skill with this id. */
export function aapSkill(id: string): AapSkill | undefined {
  return BY_ID.get(id);
}
