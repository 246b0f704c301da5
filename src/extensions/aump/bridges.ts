/**
 * The conformance suite's bridge checks (AUMP bindings/mcp.md, bindings/ucp-ap2.md and bindings/a2a.md, Agentic-User-Mandate-Protocol/spec):
 * how an AUMP reference rides on MCP (`_meta` keys, the `aump.evaluate_action` tool), on an A2A
 * Agent Card and message, and on UCP/AP2 payloads. They check shapes only: bridge fixtures carry the
 * placeholder hash `sha256-example`, so nothing is recomputed here.
 */
import { AUMP_A2A_EXTENSION_URI, AUMP_VERSION } from './constants.js';
import { validateA2aMessage } from './a2a-binding.js';

/** The payload kinds the suite's bridge cases name. */
export type BridgeType = 'mcp_meta' | 'mcp_tool' | 'a2a_extension' | 'a2a_message' | 'ucp_reference';

/** A bridge check's outcome. */
export interface BridgeValidation {
  valid: boolean;
  errors: string[];
}

/** The MCP `_meta` keys of an AUMP reference (reverse-DNS prefix of the AUMP domain). */
export const AUMP_MCP_META_KEYS = {
  id: 'org.agentic-user-mandate-protocol/aump_mandate_id',
  hash: 'org.agentic-user-mandate-protocol/aump_mandate_hash',
  version: 'org.agentic-user-mandate-protocol/aump_version',
} as const;

// MCP `_meta` key grammar: optional dotted prefix ending in '/', then a name.
const META_KEY =
  /^([A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z][A-Za-z0-9-]*)*\/)?[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first `_meta` object anywhere in `value`, depth first. */
function firstMeta(value: unknown): Json | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstMeta(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (isObject(value._meta)) return value._meta;
  for (const child of Object.values(value)) {
    const found = firstMeta(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

function result(errors: string[]): BridgeValidation {
  return { valid: errors.length === 0, errors };
}

function mcpMeta(payload: unknown): BridgeValidation {
  const meta = firstMeta(payload);
  if (meta === undefined) return result(['missing MCP _meta object']);
  const errors: string[] = [];
  for (const key of Object.keys(meta)) {
    if (!META_KEY.test(key)) errors.push(`invalid MCP _meta key ${key}`);
    const prefix = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
    // MCP reserves prefixes whose second label is `mcp` or `modelcontextprotocol`.
    const second = prefix.split('.')[1];
    if (second === 'mcp' || second === 'modelcontextprotocol')
      errors.push(`reserved MCP _meta prefix ${prefix}`);
  }
  if (!meta[AUMP_MCP_META_KEYS.id]) errors.push(`missing ${AUMP_MCP_META_KEYS.id}`);
  if (!meta[AUMP_MCP_META_KEYS.hash]) errors.push(`missing ${AUMP_MCP_META_KEYS.hash}`);
  return result(errors);
}

function mcpTool(payload: unknown): BridgeValidation {
  if (!isObject(payload)) return result(['MCP tool must be an object']);
  const errors: string[] = [];
  if (payload.name !== 'aump.evaluate_action') errors.push('MCP tool name must be aump.evaluate_action');
  const input = payload.inputSchema;
  if (!isObject(input)) errors.push('MCP tool needs an inputSchema');
  else {
    const required = Array.isArray(input.required) ? input.required : [];
    for (const name of ['mandate_ref', 'proposed_action']) {
      if (!required.includes(name)) errors.push(`MCP tool inputSchema must require ${name}`);
    }
  }
  if (!isObject(payload.outputSchema)) errors.push('MCP tool needs an outputSchema');
  const hints = isObject(payload.annotations) ? payload.annotations : {};
  if (hints.readOnlyHint !== true) errors.push('MCP tool must be annotated readOnlyHint: true');
  if (hints.destructiveHint !== false) errors.push('MCP tool must be annotated destructiveHint: false');
  if (hints.idempotentHint !== true) errors.push('MCP tool must be annotated idempotentHint: true');
  return result(errors);
}

function a2aExtension(payload: unknown): BridgeValidation {
  if (!isObject(payload)) return result(['Agent Card must be an object']);
  const errors: string[] = [];
  for (const field of ['name', 'version']) {
    if (typeof payload[field] !== 'string' || payload[field] === '') errors.push(`Agent Card needs ${field}`);
  }
  // The suite's card is 0.3-shaped (`url`); a 1.0 card names its endpoints in `supportedInterfaces`
  // and has no `url` member, so either form counts (decision 0149).
  if (!hasEndpoint(payload)) errors.push('Agent Card needs url');
  if (!Array.isArray(payload.skills) || payload.skills.length === 0) errors.push('Agent Card needs skills');
  for (const field of ['defaultInputModes', 'defaultOutputModes']) {
    if (!Array.isArray(payload[field])) errors.push(`Agent Card ${field} must be an array`);
  }
  const extensions = isObject(payload.capabilities) ? payload.capabilities.extensions : undefined;
  if (!Array.isArray(extensions)) return result([...errors, 'capabilities.extensions must be an array']);
  const aump = extensions.find((e) => isObject(e) && e.uri === AUMP_A2A_EXTENSION_URI) as Json | undefined;
  if (aump === undefined) return result([...errors, 'missing AUMP A2A AgentExtension declaration']);
  if (aump.required !== false) errors.push('AUMP A2A AgentExtension must be required: false');
  const versions = isObject(aump.params) ? aump.params.versions : undefined;
  if (!Array.isArray(versions) || !versions.includes(AUMP_VERSION)) {
    errors.push(`AUMP A2A AgentExtension params.versions must include ${AUMP_VERSION}`);
  }
  return result(errors);
}

function hasEndpoint(card: Json): boolean {
  if (typeof card.url === 'string' && card.url !== '') return true;
  const interfaces = card.supportedInterfaces;
  return (
    Array.isArray(interfaces) &&
    interfaces.some((each) => isObject(each) && typeof each.url === 'string' && each.url !== '')
  );
}

function ucpReference(payload: unknown): BridgeValidation {
  if (!isObject(payload)) return result(['UCP payload must be an object']);
  const meta = isObject(payload.meta) ? payload.meta : {};
  const errors: string[] = [];
  const agent = meta['ucp-agent'];
  if (!isObject(agent) || typeof agent.profile !== 'string' || agent.profile === '') {
    errors.push('missing meta["ucp-agent"].profile');
  }
  if (isObject(meta.ap2) && 'aump' in meta.ap2) errors.push('AUMP reference must not be placed under ap2');
  const aump = isObject(payload.aump) ? payload.aump : isObject(meta.aump) ? meta.aump : undefined;
  if (aump === undefined) return result([...errors, 'missing aump reference object']);
  if ('mandate' in aump) errors.push('UCP/AP2 bridge must not embed full private AUMP mandate');
  for (const field of ['mandate_id', 'mandate_hash', 'version']) {
    if (typeof aump[field] !== 'string' || aump[field] === '') errors.push(`missing aump.${field}`);
  }
  return result(errors);
}

/** Checks a bridge payload of `type`; see the file comment. */
export function validateBridge(payload: unknown, type: BridgeType): BridgeValidation {
  switch (type) {
    case 'mcp_meta':
      return mcpMeta(payload);
    case 'mcp_tool':
      return mcpTool(payload);
    case 'a2a_extension':
      return a2aExtension(payload);
    case 'a2a_message': {
      const { valid, errors } = validateA2aMessage(payload);
      return { valid, errors };
    }
    case 'ucp_reference':
      return ucpReference(payload);
  }
}
