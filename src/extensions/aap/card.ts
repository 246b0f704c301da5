/**
 * The AAP additions to an agent card (AAP v0.1 docs/a2a-profile.md, auto-agent-protocol/auto-agent-protocol at e68f478; decision 0062): the
 * extension entry naming the profile, its manifest and the seven required skills; the skills
 * with their request and response media types; per-skill bearer requirements for the skills that
 * are not anonymous (A2A 1.0 §4.4.5 `AgentSkill.securityRequirements`); and, as the card is
 * served, the profile's snake_case `supported_interfaces` beside A2A's `supportedInterfaces` (the
 * AAP v0.1 card schema requires it) and the manifest URL made absolute.
 */
import type {
  AgentExtension,
  AgentSkill,
  ProtocolVersion,
  SecurityRequirement,
} from '../../protocol/index.js';
import {
  AAP_CONTRACT_URI,
  AAP_EXTENSION_URI,
  AAP_MANIFEST_PATH,
  AAP_SCHEMA_BASE_URL,
  AAP_SKILLS,
} from './skills.js';

/** Modes every AAP agent accepts and produces besides the skills' own media types. */
export const AAP_GENERIC_MODES = ['application/json', 'application/vnd.autoagent+json', 'text/plain'];

/** The card's extension entry. `required` is false so buyers that do not activate it still work. */
export function aapCardExtension(authType: 'bearer' | null): AgentExtension {
  return {
    uri: AAP_EXTENSION_URI,
    description: 'Auto Agent Protocol A2A Automotive Retail Profile v0.1',
    required: false,
    params: {
      profile_name: 'AAP A2A Automotive Retail Profile',
      profile_version: '0.1.0',
      contract_uri: AAP_CONTRACT_URI,
      // Relative here; made absolute against the card's own interface as it is served.
      manifest_url: AAP_MANIFEST_PATH.slice(1),
      schema_base_url: AAP_SCHEMA_BASE_URL,
      required_skills: AAP_SKILLS.map((skill) => skill.id),
      auth_type: authType,
    },
  };
}

/** The seven skills as card skills; `protectedSkills` get `bearerScheme` as their requirement. */
export function aapCardSkills(options: {
  bearerScheme?: string;
  protectedSkills: ReadonlySet<string>;
  examples?: Partial<Record<string, string[]>>;
}): AgentSkill[] {
  return AAP_SKILLS.map((skill) => {
    const card: AgentSkill = {
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: [...skill.tags],
      inputModes: [skill.requestMediaType, 'application/json'],
      outputModes: [skill.responseMediaType, 'application/json', 'text/plain'],
    };
    const examples = options.examples?.[skill.id];
    if (examples !== undefined) card.examples = examples;
    if (options.bearerScheme !== undefined && options.protectedSkills.has(skill.id)) {
      const requirement: SecurityRequirement = { schemes: { [options.bearerScheme]: { list: [] } } };
      card.securityRequirements = [requirement];
    }
    return card;
  });
}

/** The card's default modes: every skill's media types and the generic ones. */
export function aapDefaultModes(): { input: string[]; output: string[] } {
  return {
    input: [
      ...AAP_SKILLS.map((s) => s.requestMediaType),
      'application/json',
      'application/vnd.autoagent+json',
    ],
    output: [...new Set(AAP_SKILLS.map((s) => s.responseMediaType)), ...AAP_GENERIC_MODES],
  };
}

type Json = Record<string, unknown>;

/** The `decorateCard` of an AAP agent (see the file comment). */
export function decorateAapCard(json: Json, version: ProtocolVersion): Json {
  const interfaces = interfacesOf(json, version);
  const base = interfaces[0]?.url;
  const out: Json = { ...json };
  if (version === '1.0') {
    out.supported_interfaces = interfaces.map((each) => ({
      url: each.url,
      protocol_binding: each.protocolBinding,
      ...(each.protocolVersion === undefined ? {} : { protocol_version: each.protocolVersion }),
    }));
  }
  const capabilities = json.capabilities as Json | undefined;
  const extensions = capabilities?.extensions as Json[] | undefined;
  if (capabilities !== undefined && extensions !== undefined && base !== undefined) {
    out.capabilities = {
      ...capabilities,
      extensions: extensions.map((ext) => {
        const params = ext.params as Json | undefined;
        if (ext.uri !== AAP_EXTENSION_URI || typeof params?.manifest_url !== 'string') return ext;
        return { ...ext, params: { ...params, manifest_url: new URL(params.manifest_url, base).href } };
      }),
    };
  }
  return out;
}

function interfacesOf(
  json: Json,
  version: ProtocolVersion,
): { url: string; protocolBinding: string; protocolVersion?: string }[] {
  const list = json.supportedInterfaces as
    { url: string; protocolBinding: string; protocolVersion?: string }[] | undefined;
  if (Array.isArray(list) && list.length > 0) return list;
  if (version === '0.3' && typeof json.url === 'string') {
    return [{ url: json.url, protocolBinding: String(json.preferredTransport ?? 'JSONRPC') }];
  }
  return [];
}
