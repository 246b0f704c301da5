/**
 * The AgentCard in its 0.3 form (`types.ts` AgentCard, A2A 0.3 §5.5), derived from the canonical
 * 1.0 card. Both 0.3 wires use this one form: it is what `/.well-known/agent-card.json` serves to
 * 0.3 clients whatever their transport, and a2a-python 0.3 serves `GET /v1/card` the same way.
 *
 * Encoding: `protocolVersion` "0.3.0"; `url` + `preferredTransport` from the first 0.3 interface
 * (else the first interface); `additionalInterfaces` lists every 0.3 interface; the extended-card
 * flag moves to `supportsAuthenticatedExtendedCard`; security uses the 0.3 forms (security.ts).
 * The canonical `supportedInterfaces` is kept as well (additive: a 1.0 client that fetched the card
 * without an `A2A-Version` header still finds the 1.0 interfaces; decision 0001).
 *
 * Decoding reverses it. Without `supportedInterfaces`, the interfaces are rebuilt from `url`,
 * `preferredTransport` (default JSONRPC, A2A 0.3 §5.6.1) and `additionalInterfaces`, all as 0.3.
 * The 0.3 schema has no minimum on its arrays, so empty skills and mode lists are accepted.
 */
import type {
  AgentCapabilities,
  AgentCard,
  AgentCardSignature,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  SecurityScheme,
} from '../agent-card.js';
import {
  optionalArray,
  optionalBoolean,
  optionalObject,
  optionalString,
  optionalStringArray,
  pointer,
  readObject,
  requiredArray,
  requiredString,
  type JsonObject,
} from '../decode-kit.js';
import {
  decodeSecurityRequirement,
  decodeSecurityScheme,
  encodeSecurityRequirements,
  encodeSecurityScheme,
} from './security.js';
import { readString, requiredValue } from './wire-scalars.js';

/** The 0.3 `protocolVersion` a card declares. */
export const CARD_PROTOCOL_VERSION = '0.3.0';

function set(out: JsonObject, key: string, value: unknown): void {
  if (value !== undefined) out[key] = value;
}

function encodeSkill(skill: AgentSkill): JsonObject {
  const out: JsonObject = {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: skill.tags,
  };
  set(out, 'examples', skill.examples);
  set(out, 'inputModes', skill.inputModes);
  set(out, 'outputModes', skill.outputModes);
  if (skill.securityRequirements !== undefined)
    out.security = encodeSecurityRequirements(skill.securityRequirements);
  return out;
}

/** Encodes the canonical card in the 0.3 form, keeping `supportedInterfaces` (see the file doc). */
export function encodeAgentCard(card: AgentCard): JsonObject {
  const interfaces = card.supportedInterfaces;
  const v03 = interfaces.filter((i) => i.protocolVersion === '0.3');
  const main = v03[0] ?? interfaces[0];
  const out: JsonObject = {
    protocolVersion: CARD_PROTOCOL_VERSION,
    name: card.name,
    description: card.description,
    url: main?.url ?? '',
    preferredTransport: main?.protocolBinding ?? 'JSONRPC',
  };
  if (v03.length > 0)
    out.additionalInterfaces = v03.map((i) => ({ url: i.url, transport: i.protocolBinding }));
  set(out, 'iconUrl', card.iconUrl);
  set(out, 'provider', card.provider);
  out.version = card.version;
  set(out, 'documentationUrl', card.documentationUrl);
  const caps = card.capabilities;
  const capabilities: JsonObject = {};
  set(capabilities, 'streaming', caps.streaming);
  set(capabilities, 'pushNotifications', caps.pushNotifications);
  set(capabilities, 'extensions', caps.extensions);
  out.capabilities = capabilities;
  if (card.securitySchemes !== undefined) {
    const schemes = card.securitySchemes;
    out.securitySchemes = Object.fromEntries(
      Object.keys(schemes).map((name) => [name, encodeSecurityScheme(schemes[name] as SecurityScheme)]),
    );
  }
  if (card.securityRequirements !== undefined)
    out.security = encodeSecurityRequirements(card.securityRequirements);
  out.defaultInputModes = card.defaultInputModes;
  out.defaultOutputModes = card.defaultOutputModes;
  out.skills = card.skills.map(encodeSkill);
  set(out, 'supportsAuthenticatedExtendedCard', caps.extendedAgentCard);
  set(out, 'signatures', card.signatures);
  out.supportedInterfaces = interfaces;
  return out;
}

function decodeInterface(value: unknown, path: string): AgentInterface {
  const obj = readObject(value, path);
  const out: AgentInterface = {
    url: requiredString(obj, 'url', path),
    protocolBinding: requiredString(obj, 'protocolBinding', path),
    protocolVersion: requiredString(obj, 'protocolVersion', path),
  };
  const tenant = optionalString(obj, 'tenant', path);
  if (tenant !== undefined) out.tenant = tenant;
  return out;
}

function decodeLegacyInterface(value: unknown, path: string): AgentInterface {
  const obj = readObject(value, path);
  return {
    url: requiredString(obj, 'url', path),
    protocolBinding: requiredString(obj, 'transport', path),
    protocolVersion: '0.3',
  };
}

function interfacesOf(obj: JsonObject, path: string): AgentInterface[] {
  const url = requiredString(obj, 'url', path);
  const preferred = optionalString(obj, 'preferredTransport', path) ?? 'JSONRPC';
  const additional = optionalArray(obj, 'additionalInterfaces', path, decodeLegacyInterface);
  const supported = optionalArray(obj, 'supportedInterfaces', path, decodeInterface);
  if (supported !== undefined && supported.length > 0) return supported;
  const out: AgentInterface[] = [{ url, protocolBinding: preferred, protocolVersion: '0.3' }];
  // The main pair SHOULD also appear in additionalInterfaces (`types.ts`); list it once.
  for (const i of additional ?? []) {
    if (!out.some((o) => o.url === i.url && o.protocolBinding === i.protocolBinding)) out.push(i);
  }
  return out;
}

function decodeExtension(value: unknown, path: string): AgentExtension {
  const obj = readObject(value, path);
  const out: AgentExtension = { uri: requiredString(obj, 'uri', path) };
  const description = optionalString(obj, 'description', path);
  if (description !== undefined) out.description = description;
  const required = optionalBoolean(obj, 'required', path);
  if (required !== undefined) out.required = required;
  const params = optionalObject(obj, 'params', path);
  if (params !== undefined) out.params = params;
  return out;
}

function decodeCapabilities(value: unknown, path: string, extended: boolean | undefined): AgentCapabilities {
  const obj = readObject(value, path);
  const out: AgentCapabilities = {};
  const streaming = optionalBoolean(obj, 'streaming', path);
  if (streaming !== undefined) out.streaming = streaming;
  const push = optionalBoolean(obj, 'pushNotifications', path);
  if (push !== undefined) out.pushNotifications = push;
  const extensions = optionalArray(obj, 'extensions', path, decodeExtension);
  if (extensions !== undefined) out.extensions = extensions;
  if (extended !== undefined) out.extendedAgentCard = extended;
  return out;
}

function decodeSkill(value: unknown, path: string): AgentSkill {
  const obj = readObject(value, path);
  const skill: AgentSkill = {
    id: requiredString(obj, 'id', path),
    name: requiredString(obj, 'name', path),
    description: requiredString(obj, 'description', path),
    tags: requiredArray(obj, 'tags', path, readString, false),
  };
  const examples = optionalStringArray(obj, 'examples', path);
  if (examples !== undefined) skill.examples = examples;
  const inputModes = optionalStringArray(obj, 'inputModes', path);
  if (inputModes !== undefined) skill.inputModes = inputModes;
  const outputModes = optionalStringArray(obj, 'outputModes', path);
  if (outputModes !== undefined) skill.outputModes = outputModes;
  const security = optionalArray(obj, 'security', path, decodeSecurityRequirement);
  if (security !== undefined) skill.securityRequirements = security;
  return skill;
}

function decodeProvider(value: unknown, path: string): AgentProvider {
  const obj = readObject(value, path);
  return { organization: requiredString(obj, 'organization', path), url: requiredString(obj, 'url', path) };
}

function decodeSignature(value: unknown, path: string): AgentCardSignature {
  const obj = readObject(value, path);
  const out: AgentCardSignature = {
    protected: requiredString(obj, 'protected', path),
    signature: requiredString(obj, 'signature', path),
  };
  const header = optionalObject(obj, 'header', path);
  if (header !== undefined) out.header = header;
  return out;
}

/** Decodes a 0.3 card (hybrid cards with `supportedInterfaces` included) into the canonical card. */
export function decodeAgentCard(value: unknown, path: string): AgentCard {
  const obj = readObject(value, path);
  const name = requiredString(obj, 'name', path);
  const description = requiredString(obj, 'description', path);
  const supportedInterfaces = interfacesOf(obj, path);
  const version = requiredString(obj, 'version', path);
  const extended = optionalBoolean(obj, 'supportsAuthenticatedExtendedCard', path);
  const card: AgentCard = {
    name,
    description,
    supportedInterfaces,
    version,
    capabilities: decodeCapabilities(
      requiredValue(obj, 'capabilities', path),
      pointer(path, 'capabilities'),
      extended,
    ),
    defaultInputModes: requiredArray(obj, 'defaultInputModes', path, readString, false),
    defaultOutputModes: requiredArray(obj, 'defaultOutputModes', path, readString, false),
    skills: requiredArray(obj, 'skills', path, decodeSkill, false),
  };
  if (obj.provider !== undefined && obj.provider !== null)
    card.provider = decodeProvider(obj.provider, pointer(path, 'provider'));
  const documentationUrl = optionalString(obj, 'documentationUrl', path);
  if (documentationUrl !== undefined) card.documentationUrl = documentationUrl;
  const iconUrl = optionalString(obj, 'iconUrl', path);
  if (iconUrl !== undefined) card.iconUrl = iconUrl;
  const schemes = optionalObject(obj, 'securitySchemes', path);
  if (schemes !== undefined) {
    const at = pointer(path, 'securitySchemes');
    card.securitySchemes = Object.fromEntries(
      Object.keys(schemes).map((key) => [key, decodeSecurityScheme(schemes[key], pointer(at, key))]),
    );
  }
  const security = optionalArray(obj, 'security', path, decodeSecurityRequirement);
  if (security !== undefined) card.securityRequirements = security;
  const signatures = optionalArray(obj, 'signatures', path, decodeSignature);
  if (signatures !== undefined) card.signatures = signatures;
  return card;
}
