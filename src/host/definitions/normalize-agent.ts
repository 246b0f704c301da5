/**
 * Turns one schema-valid agent (markdown frontmatter or a config `agents.list[]` entry) into an
 * `AgentDefinition`: defaults applied, the Shaman `agentcard.skills` folded into `skills`, the
 * handler resolved against the definition file, and each contract schema checked. Problems the
 * JSON Schema cannot express (a missing handler file, a duplicate skill id, a broken contract
 * schema) are reported here, at their field.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type {
  A2ASection,
  AgentDefinition,
  CardOverrides,
  ContractDefinition,
  RemoteAgentDefinition,
  SecurityRequirementInput,
  SkillDefinition,
} from '../../card/index.js';
import { checkContractSchema } from './contract-schemas.js';
import { childPointer, type ProblemSink } from './definition-error.js';
import { normalizeMcpUses, type McpContext, type RawMcpUse } from './normalize-mcp.js';
import { checkRequirementSchemes } from './requirement-schemes.js';

/** A skill as written (schemas/agent-definition.schema.json `$defs/skill`). */
export type RawSkill = Omit<SkillDefinition, 'id' | 'tags'> & { id?: string; tags?: string[] };

/** An agent as written, after schema validation (both markdown and config keys). */
export interface RawAgent {
  id?: string;
  name?: string;
  systemPrompt?: string;
  exposed?: boolean;
  description?: string;
  version?: string;
  model?: string;
  temperature?: number;
  maxTokens?: number;
  tags?: string[];
  mcpServers?: Record<string, RawMcpUse>;
  skills?: RawSkill[];
  agentcard?: { skills?: RawSkill[] };
  a2a?: {
    allowFreeform?: boolean;
    outputPolicy?: 'fail' | 'warn';
    remoteAgents?: RemoteAgentDefinition[];
    contracts?: Record<string, ContractDefinition>;
  };
  handler?: string;
  security?: SecurityRequirementInput[];
  card?: CardOverrides;
  extensions?: Record<string, unknown>;
  idempotency?: { messageId?: boolean };
}

/** Where a raw agent was written. */
export interface AgentSourceInput {
  raw: RawAgent;
  /** Absolute path of the file. */
  file: string;
  /** Pointer of the agent inside the file's document: '' for markdown, `/agents/list/<i>` for a config. */
  pointer: string;
  /** The markdown body (already trimmed); undefined for a config entry. */
  body?: string;
  sink: ProblemSink;
  /** Security schemes the host config declares; requirements may name only these. */
  schemes: string[];
  /** The MCP servers the host config defines, and whether there is one. */
  mcp: Omit<McpContext, 'modelAgent'>;
}

/** The id an agent gets: the config `id`, or the markdown `name` (Shaman: name is the identifier). */
export function agentIdOf(raw: RawAgent): string | undefined {
  return raw.id ?? raw.name;
}

/** Normalises one agent; see the file comment. */
export function normalizeAgent(input: AgentSourceInput): AgentDefinition {
  const { raw, file, pointer, sink } = input;
  const at = (...segments: Array<string | number>): string =>
    segments.reduce<string>((p, s) => childPointer(p, s), pointer);
  const id = agentIdOf(raw) ?? '';
  const definition: AgentDefinition = {
    id,
    name: raw.name ?? id,
    description: raw.description ?? '',
    version: raw.version ?? '1.0.0',
    exposed: raw.exposed ?? false,
    systemPrompt: input.body ?? raw.systemPrompt ?? '',
    tags: raw.tags ?? [],
    skills: normalizeSkills(raw, at, input),
    a2a: normalizeA2A(raw, at, sink),
    card: raw.card ?? {},
    // A markdown definition starts at its first line; a config entry where its object opens.
    source: { file, ...lineField(input.body !== undefined ? 1 : sink.lineOf(pointer)) },
  };
  if (raw.extensions !== undefined) {
    // Extensions check their settings when the host mounts them; the pointer locates their errors.
    definition.extensions = raw.extensions;
    definition.source.pointer = pointer;
  }
  if (raw.idempotency !== undefined) definition.idempotency = { ...raw.idempotency };
  if (raw.model !== undefined) definition.model = raw.model;
  if (raw.temperature !== undefined) definition.temperature = raw.temperature;
  if (raw.maxTokens !== undefined) definition.maxTokens = raw.maxTokens;
  if (raw.mcpServers !== undefined) {
    // Described, not run (decision 0150), an agent that names no runner yet is not contradicted by
    // its MCP servers; only a code agent (`handler`) surely has no use for them.
    const modelAgent = raw.model !== undefined || (!input.mcp.runnable && raw.handler === undefined);
    definition.mcpServers = normalizeMcpUses(raw.mcpServers, at('mcpServers'), sink, {
      ...input.mcp,
      modelAgent,
    });
  }
  if (raw.security !== undefined) {
    checkRequirementSchemes(raw.security, at('security'), input.schemes, sink);
    definition.security = raw.security;
  }
  if (raw.handler !== undefined) {
    const handler = resolve(dirname(file), raw.handler);
    if (!existsSync(handler) || !statSync(handler).isFile()) {
      sink.add(at('handler'), `handler module not found: ${handler}`);
    }
    definition.handler = handler;
  }
  return definition;
}

function lineField(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/** Lower-case words joined by '-', e.g. "Standard Order Processing" -> "standard-order-processing". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function normalizeSkills(
  raw: RawAgent,
  at: (...segments: Array<string | number>) => string,
  { sink, schemes }: AgentSourceInput,
): SkillDefinition[] {
  const written = [
    ...(raw.skills ?? []).map((skill, index) => ({ skill, field: at('skills', index) })),
    ...(raw.agentcard?.skills ?? []).map((skill, index) => ({
      skill,
      field: at('agentcard', 'skills', index),
    })),
  ];
  const seen = new Set<string>();
  const skills: SkillDefinition[] = [];
  for (const { skill, field } of written) {
    const id = skill.id ?? slugify(skill.name);
    const idField = skill.id === undefined ? `${field}/name` : `${field}/id`;
    if (id === '') {
      sink.add(idField, 'no skill id can be made from this name; give the skill an `id`');
      continue;
    }
    if (seen.has(id)) sink.add(idField, `duplicate skill id "${id}"`);
    seen.add(id);
    const out: SkillDefinition = {
      id,
      name: skill.name,
      description: skill.description,
      tags: skill.tags ?? [],
    };
    if (skill.examples !== undefined) out.examples = skill.examples;
    if (skill.inputModes !== undefined) out.inputModes = skill.inputModes;
    if (skill.outputModes !== undefined) out.outputModes = skill.outputModes;
    if (skill.security !== undefined) {
      checkRequirementSchemes(skill.security, `${field}/security`, schemes, sink);
      out.security = skill.security;
    }
    if (skill.extended !== undefined) out.extended = skill.extended;
    skills.push(out);
  }
  return skills;
}

function normalizeA2A(
  raw: RawAgent,
  at: (...segments: Array<string | number>) => string,
  sink: ProblemSink,
): A2ASection {
  // allowFreeform defaults to true: undefined is treated as true upstream (OpenClaw PR #19293; decision 0016).
  const contracts = raw.a2a?.contracts ?? {};
  for (const [name, contract] of Object.entries(contracts)) {
    if (contract.input !== undefined)
      checkContractSchema(contract.input, at('a2a', 'contracts', name, 'input'), sink);
    if (contract.output !== undefined) {
      checkContractSchema(contract.output, at('a2a', 'contracts', name, 'output'), sink);
    }
    // A pointer to the replacement must lead somewhere (seed "Versioning & deprecation").
    const next = contract.supersededBy;
    if (next !== undefined && !Object.hasOwn(contracts, next)) {
      sink.add(
        at('a2a', 'contracts', name, 'supersededBy'),
        `names contract "${next}", which this agent does not declare`,
      );
    }
  }
  const policy = raw.a2a?.outputPolicy;
  const remote = raw.a2a?.remoteAgents;
  return {
    allowFreeform: raw.a2a?.allowFreeform ?? true,
    ...(policy === undefined ? {} : { outputPolicy: policy }),
    ...(remote === undefined ? {} : { remoteAgents: remote.map((r) => ({ ...r })) }),
    contracts,
  };
}
