/**
 * The AgentCard on the 1.0 wire (`lf.a2a.v1.AgentCard`, A2A 1.0 §4.4.1). Decoding checks every
 * REQUIRED member, including the non-empty REQUIRED lists (A2A 1.0 §5.7; at least one skill per
 * A2A 1.0 §5.7); encoding writes the proto members only, with absent optional ones omitted.
 */
import type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentSkill,
  SecurityRequirement,
  SecurityScheme,
} from '../agent-card.js';
import {
  optionalArray,
  optionalBoolean,
  optionalObject,
  optionalString,
  optionalStringArray,
  altKey,
  pointer,
  readObject,
  requiredArray,
  requiredNonEmptyString,
  type JsonObject,
} from '../decode-kit.js';
import { isSet, optionalProtoString, requiredStringList, requiredValue } from './proto-json.js';
import {
  decodeSecurityRequirement,
  decodeSecurityScheme,
  encodeSecurityRequirement,
  encodeSecurityScheme,
} from './security.js';

/**
 * Reads the security requirements of a card or skill: `securityRequirements` (proto name), else the
 * prose name `security` (decision 0008). Either holds either form; see decodeSecurityRequirement.
 */
function readRequirements(obj: JsonObject, path: string): SecurityRequirement[] | undefined {
  if (!isSet(obj.securityRequirements) && !isSet(obj.security_requirements))
    return optionalArray(obj, 'security', path, decodeSecurityRequirement);
  return optionalArray(
    obj,
    'securityRequirements',
    path,
    decodeSecurityRequirement,
    obj.security_requirements,
  );
}

function decodeInterface(value: unknown, path: string): AgentInterface {
  const obj = readObject(value, path);
  const entry: AgentInterface = {
    url: requiredNonEmptyString(obj, 'url', path),
    protocolBinding: requiredNonEmptyString(obj, 'protocolBinding', path, obj.protocol_binding),
    protocolVersion: requiredNonEmptyString(obj, 'protocolVersion', path, obj.protocol_version),
  };
  const tenant = optionalProtoString(obj, 'tenant', path);
  if (tenant !== undefined) entry.tenant = tenant;
  return entry;
}

function decodeExtension(value: unknown, path: string): AgentExtension {
  const obj = readObject(value, path);
  // Not annotated REQUIRED in the 1.0 proto, but an extension without its URI identifies nothing.
  const extension: AgentExtension = { uri: requiredNonEmptyString(obj, 'uri', path) };
  const description = optionalProtoString(obj, 'description', path);
  if (description !== undefined) extension.description = description;
  const required = optionalBoolean(obj, 'required', path);
  if (required !== undefined) extension.required = required;
  const params = optionalObject(obj, 'params', path);
  if (params !== undefined) extension.params = params;
  return extension;
}

function decodeCapabilities(value: unknown, path: string): AgentCapabilities {
  const obj = readObject(value, path);
  const capabilities: AgentCapabilities = {};
  const streaming = optionalBoolean(obj, 'streaming', path);
  if (streaming !== undefined) capabilities.streaming = streaming;
  const pushNotifications = optionalBoolean(obj, 'pushNotifications', path, obj.push_notifications);
  if (pushNotifications !== undefined) capabilities.pushNotifications = pushNotifications;
  const extensions = optionalArray(obj, 'extensions', path, decodeExtension);
  if (extensions !== undefined) capabilities.extensions = extensions;
  const extendedAgentCard = optionalBoolean(obj, 'extendedAgentCard', path, obj.extended_agent_card);
  if (extendedAgentCard !== undefined) capabilities.extendedAgentCard = extendedAgentCard;
  return capabilities;
}

function decodeSkill(value: unknown, path: string): AgentSkill {
  const obj = readObject(value, path);
  const skill: AgentSkill = {
    id: requiredNonEmptyString(obj, 'id', path),
    name: requiredNonEmptyString(obj, 'name', path),
    description: requiredNonEmptyString(obj, 'description', path),
    tags: requiredStringList(obj, 'tags', path),
  };
  const examples = optionalStringArray(obj, 'examples', path);
  if (examples !== undefined) skill.examples = examples;
  const inputModes = optionalStringArray(obj, 'inputModes', path, obj.input_modes);
  if (inputModes !== undefined) skill.inputModes = inputModes;
  const outputModes = optionalStringArray(obj, 'outputModes', path, obj.output_modes);
  if (outputModes !== undefined) skill.outputModes = outputModes;
  const requirements = readRequirements(obj, path);
  if (requirements !== undefined) skill.securityRequirements = requirements;
  return skill;
}

function decodeSignature(value: unknown, path: string): AgentCardSignature {
  const obj = readObject(value, path);
  const signature: AgentCardSignature = {
    protected: requiredNonEmptyString(obj, 'protected', path),
    signature: requiredNonEmptyString(obj, 'signature', path),
  };
  const header = optionalObject(obj, 'header', path);
  if (header !== undefined) signature.header = header;
  return signature;
}

function decodeSecuritySchemes(value: unknown, path: string): Record<string, SecurityScheme> {
  const entries: [string, SecurityScheme][] = [];
  for (const [name, scheme] of Object.entries(readObject(value, path))) {
    entries.push([name, decodeSecurityScheme(scheme, pointer(path, name))]);
  }
  // fromEntries defines own properties, so a scheme named `__proto__` stays a plain key.
  return Object.fromEntries(entries);
}

/** Decodes an AgentCard, checking every REQUIRED member (A2A 1.0 §4.4.1, §5.7). */
export function decodeAgentCard(value: unknown, path: string): AgentCard {
  const obj = readObject(value, path);
  const card: AgentCard = {
    name: requiredNonEmptyString(obj, 'name', path),
    description: requiredNonEmptyString(obj, 'description', path),
    supportedInterfaces: requiredArray(
      obj,
      'supportedInterfaces',
      path,
      decodeInterface,
      true,
      obj.supported_interfaces,
    ),
    version: requiredNonEmptyString(obj, 'version', path),
    capabilities: decodeCapabilities(
      requiredValue(obj.capabilities, path, 'capabilities'),
      `${path}/capabilities`,
    ),
    defaultInputModes: requiredStringList(obj, 'defaultInputModes', path, obj.default_input_modes),
    defaultOutputModes: requiredStringList(obj, 'defaultOutputModes', path, obj.default_output_modes),
    skills: requiredArray(obj, 'skills', path, decodeSkill),
  };
  if (isSet(obj.provider)) {
    const at = `${path}/provider`;
    const provider = readObject(obj.provider, at);
    card.provider = {
      organization: requiredNonEmptyString(provider, 'organization', at),
      url: requiredNonEmptyString(provider, 'url', at),
    };
  }
  // proto3 `optional` strings: presence is tracked, so an empty string is kept as sent.
  const documentationUrl = optionalString(obj, 'documentationUrl', path, obj.documentation_url);
  if (documentationUrl !== undefined) card.documentationUrl = documentationUrl;
  const iconUrl = optionalString(obj, 'iconUrl', path, obj.icon_url);
  if (iconUrl !== undefined) card.iconUrl = iconUrl;
  const schemes = isSet(obj.security_schemes) ? altKey(obj, 'securitySchemes', path) : 'securitySchemes';
  if (isSet(obj[schemes])) card.securitySchemes = decodeSecuritySchemes(obj[schemes], `${path}/${schemes}`);
  const requirements = readRequirements(obj, path);
  if (requirements !== undefined) card.securityRequirements = requirements;
  const signatures = optionalArray(obj, 'signatures', path, decodeSignature);
  if (signatures !== undefined) card.signatures = signatures;
  return card;
}

function encodeInterface(entry: AgentInterface): JsonObject {
  const out: JsonObject = { url: entry.url, protocolBinding: entry.protocolBinding };
  if (entry.tenant) out.tenant = entry.tenant;
  out.protocolVersion = entry.protocolVersion;
  return out;
}

function encodeExtension(extension: AgentExtension): JsonObject {
  const out: JsonObject = { uri: extension.uri };
  if (extension.description) out.description = extension.description;
  // Written as the card says it, `false` included: profiles check for `required: false` (the AUMP
  // binding's card declaration). A plain proto3 bool, so the 1.0 signing payload leaves a false
  // out, as ProtoJSON does (A2A 1.0 §8.4.1; card/card-signing.ts, decision 0149).
  if (extension.required !== undefined) out.required = extension.required;
  if (extension.params !== undefined) out.params = extension.params;
  return out;
}

function encodeCapabilities(capabilities: AgentCapabilities): JsonObject {
  const out: JsonObject = {};
  if (capabilities.streaming !== undefined) out.streaming = capabilities.streaming;
  if (capabilities.pushNotifications !== undefined) out.pushNotifications = capabilities.pushNotifications;
  if (capabilities.extensions !== undefined) out.extensions = capabilities.extensions.map(encodeExtension);
  if (capabilities.extendedAgentCard !== undefined) out.extendedAgentCard = capabilities.extendedAgentCard;
  return out;
}

function encodeSkill(skill: AgentSkill): JsonObject {
  const out: JsonObject = {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
  };
  if (skill.examples !== undefined) out.examples = skill.examples;
  if (skill.inputModes !== undefined) out.inputModes = skill.inputModes;
  if (skill.outputModes !== undefined) out.outputModes = skill.outputModes;
  if (skill.securityRequirements !== undefined) {
    out.securityRequirements = skill.securityRequirements.map(encodeSecurityRequirement);
  }
  return out;
}

function encodeSignature(signature: AgentCardSignature): JsonObject {
  const out: JsonObject = { protected: signature.protected, signature: signature.signature };
  if (signature.header !== undefined) out.header = signature.header;
  return out;
}

/** Encodes an AgentCard in proto field order, with only the 1.0 members. */
export function encodeAgentCard(card: AgentCard): JsonObject {
  const out: JsonObject = {
    name: card.name,
    description: card.description,
    supportedInterfaces: card.supportedInterfaces.map(encodeInterface),
  };
  if (card.provider !== undefined) {
    out.provider = { url: card.provider.url, organization: card.provider.organization };
  }
  out.version = card.version;
  if (card.documentationUrl !== undefined) out.documentationUrl = card.documentationUrl;
  out.capabilities = encodeCapabilities(card.capabilities);
  if (card.securitySchemes !== undefined) {
    const entries: [string, JsonObject][] = [];
    for (const [name, scheme] of Object.entries(card.securitySchemes)) {
      entries.push([name, encodeSecurityScheme(scheme)]);
    }
    out.securitySchemes = Object.fromEntries(entries);
  }
  if (card.securityRequirements !== undefined) {
    out.securityRequirements = card.securityRequirements.map(encodeSecurityRequirement);
  }
  out.defaultInputModes = card.defaultInputModes;
  out.defaultOutputModes = card.defaultOutputModes;
  out.skills = card.skills.map(encodeSkill);
  if (card.signatures !== undefined) out.signatures = card.signatures.map(encodeSignature);
  if (card.iconUrl !== undefined) out.iconUrl = card.iconUrl;
  return out;
}
