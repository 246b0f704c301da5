/**
 * Builds the canonical (1.0-shaped) AgentCard of one agent from its definition and what the host
 * serves (Shaman's agent-card.md "Shaman Implementation": cards are generated from the agent's
 * frontmatter and enhanced with the organisation's security schemes). The wire forms (0.3, 1.0)
 * are encoded from the result by the protocol codecs.
 *
 * The card only claims what the server does: capabilities come from the caller, never from the
 * definition (A2A 1.0 §3.3.4).
 */
import type {
  AgentCard,
  AgentExtension,
  AgentInterface,
  SecurityRequirement,
  SecurityScheme,
} from '../protocol/index.js';
import type { AgentDefinition } from './agent-definition.js';
import { buildSkills, describeDefinition } from './card-skills.js';
import { checkHttpUrl } from './http-url.js';
import { assertSchemesDeclared, toSecurityRequirements } from './security-requirements.js';

/** What the server behind the card actually supports. */
export interface ServedCapabilities {
  /** SSE streaming (A2A 1.0 §3.3.4). */
  streaming: boolean;
  /** Push notifications (A2A 1.0 §3.1.7-3.1.10): only when the server delivers them (default false). */
  pushNotifications?: boolean;
  /** Whether an authenticated extended card is served (A2A 1.0 §3.1.11); the host decides. */
  extendedAgentCard?: boolean;
  /** Extensions the server implements for this agent. */
  extensions?: AgentExtension[];
}

/** Options of `buildAgentCard`: everything the definition cannot know. */
export interface BuildCardOptions {
  /** The agent's base URL, absolute and ending with '/'. */
  baseUrl: string;
  /** Endpoints, preferred first (default: `defaultCardInterfaces(baseUrl)`). */
  interfaces?: AgentInterface[];
  /** The organisation running the host; the provider when the definition names none. */
  organization?: { name: string; url: string };
  /** Organisation-wide security schemes, declared on every card. */
  securitySchemes?: Record<string, SecurityScheme>;
  /** Organisation-wide requirements; the definition's own `security` replaces them when set. */
  securityRequirements?: SecurityRequirement[];
  /** What the server serves; never claim more. */
  capabilities: ServedCapabilities;
  /** Build the authenticated extended card, which also lists skills marked `extended` (default false). */
  extended?: boolean;
}

/**
 * The interfaces a Concord server offers at one URL: both bindings in both versions, 1.0 first so
 * 1.0 clients pick it (A2A 1.0 §8.3.2: the first supported entry wins); 0.3 cards take the 0.3 ones.
 * URLs are listed without a trailing `/`, since clients join `url + "/message:send"` (decision
 * 0138); the server reads a doubled slash as one all the same.
 * With `grpcTarget` (the `host:port` a gRPC listener is bound to, A2A 1.0 §4.4.6, or its public URL:
 * see `grpcInterfaceUrl`) the gRPC binding joins each version's list, after the HTTP bindings;
 * without it no gRPC interface is claimed.
 * The server serves exactly these (`defaultInterfaces` in src/server/a2a-server.ts is this function).
 */
export function defaultCardInterfaces(baseUrl: string, grpcTarget?: string): AgentInterface[] {
  const url = withoutTrailingSlash(baseUrl);
  const grpc = (protocolVersion: '1.0' | '0.3'): AgentInterface[] =>
    grpcTarget === undefined
      ? []
      : [{ url: grpcInterfaceUrl(grpcTarget, protocolVersion), protocolBinding: 'GRPC', protocolVersion }];
  return [
    { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ...grpc('1.0'),
    { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    { url, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ...grpc('0.3'),
  ];
}

/** `url` without trailing slashes, unless nothing but the slash would be left of its path. */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/(?<=[^/])\/+$/, '');
}

/**
 * A gRPC interface URL for one version (decision 0138). A bare `host:port` is listed as it is on
 * both versions: it is what the official SDKs' gRPC clients pass to their channels (grpc-js
 * resolves `http://host:port` as a DNS name and fails). Where a deployment's 0.3 clients read
 * every interface URL as a URL (the 0.3 spec's examples write `https://...` for gRPC), the target
 * is given with a scheme: 0.3 then lists it as given, and 1.0 its `host:port`.
 */
export function grpcInterfaceUrl(target: string, version: '1.0' | '0.3'): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target);
  if (scheme === null) return target;
  if (version === '0.3') return withoutTrailingSlash(target);
  const url = new URL(target);
  const secure = /^(https|grpcs)$/i.test(scheme[1]!);
  return `${url.hostname}:${url.port === '' ? (secure ? 443 : 80) : url.port}`;
}

/** Shaman's agent-card.md "Input/Output Modes"; JSON joins when typed contracts are accepted. */
function defaultModes(definition: AgentDefinition): string[] {
  const modes = ['text/plain'];
  if (Object.keys(definition.a2a.contracts).length > 0) modes.push('application/json');
  return modes;
}

function checkBaseUrl(baseUrl: string, where: string): void {
  const check = checkHttpUrl(baseUrl);
  if (!check.ok) throw new Error(`${where}: baseUrl ${check.problem}`);
  // Relative paths resolve against the last '/': without it `/a2a/agent` + `x` loses `agent`.
  if (!baseUrl.endsWith('/')) throw new Error(`${where}: baseUrl "${baseUrl}" must end with '/'`);
}

function checkRequiredText(definition: AgentDefinition, where: string): void {
  // Digest §1.1: name, description and version are REQUIRED (non-empty on the 1.0 wire).
  for (const field of ['name', 'description', 'version'] as const) {
    if (typeof definition[field] !== 'string' || definition[field].trim() === '') {
      throw new Error(`${where}: the agent has no ${field}; an AgentCard requires one (A2A 1.0 §4.4.1)`);
    }
  }
}

/**
 * The canonical AgentCard of `definition` as served by a host with `options`. Throws an Error
 * naming the agent and its file when the result would be invalid: missing name/description/version,
 * a bad base URL, duplicate skill ids, or a requirement naming an undeclared scheme.
 */
export function buildAgentCard(definition: AgentDefinition, options: BuildCardOptions): AgentCard {
  const where = describeDefinition(definition);
  checkRequiredText(definition, where);
  checkBaseUrl(options.baseUrl, where);
  const interfaces = options.interfaces ?? defaultCardInterfaces(options.baseUrl);
  if (interfaces.length === 0) {
    throw new Error(
      `${where}: options.interfaces is empty; a card needs at least one interface (A2A 1.0 §4.4.1)`,
    );
  }
  const schemes = options.securitySchemes ?? {};
  const requirements =
    definition.security !== undefined
      ? toSecurityRequirements(definition.security)
      : (options.securityRequirements ?? []).map((r) => structuredClone(r));
  assertSchemesDeclared(requirements, schemes, where);

  const overrides = definition.card;
  const card: AgentCard = {
    name: definition.name,
    description: definition.description,
    supportedInterfaces: interfaces.map((entry) => ({ ...entry })),
    version: definition.version,
    capabilities: {
      streaming: options.capabilities.streaming,
      // A card must not advertise what the server does not do (A2A 1.0 §3.3.4).
      pushNotifications: options.capabilities.pushNotifications === true,
    },
    defaultInputModes: [...(overrides.defaultInputModes ?? defaultModes(definition))],
    defaultOutputModes: [...(overrides.defaultOutputModes ?? defaultModes(definition))],
    skills: buildSkills(definition, schemes, options.extended ?? false),
  };
  const extensions = options.capabilities.extensions;
  if (extensions !== undefined && extensions.length > 0) {
    card.capabilities.extensions = extensions.map((e) => structuredClone(e));
  }
  if (options.capabilities.extendedAgentCard !== undefined) {
    card.capabilities.extendedAgentCard = options.capabilities.extendedAgentCard;
  }
  if (overrides.provider !== undefined) {
    card.provider = { organization: overrides.provider.organization, url: overrides.provider.url };
  } else if (options.organization !== undefined) {
    card.provider = { organization: options.organization.name, url: options.organization.url };
  }
  if (overrides.iconUrl !== undefined) card.iconUrl = overrides.iconUrl;
  if (overrides.documentationUrl !== undefined) card.documentationUrl = overrides.documentationUrl;
  // Only when there are any: empty maps and lists are dropped by ProtoJSON anyway (A2A 1.0 §8.4.1).
  if (Object.keys(schemes).length > 0) card.securitySchemes = structuredClone(schemes);
  if (requirements.length > 0) card.securityRequirements = requirements;
  return card;
}
