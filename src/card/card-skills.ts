/**
 * The skill list of a generated card (Shaman's agent-card.md "Skills"; A2A 1.0 §4.4.5): the skills a
 * definition writes, one skill per typed message contract (OpenClaw PR #19293 a2a-contracts.md), and, when
 * that yields nothing, one skill describing the agent itself.
 */
import type { AgentSkill, SecurityScheme } from '../protocol/index.js';
import type { AgentDefinition, ContractDefinition, SkillDefinition } from './agent-definition.js';
import { assertSchemesDeclared, toSecurityRequirements } from './security-requirements.js';

/** Media type of a contract's payload (OpenClaw PR #19293 a2a-contracts.md: JSON Schema validated data). */
const JSON_MODE = 'application/json';

/** Tag marking a skill that stands for a typed message contract. */
export const CONTRACT_TAG = 'contract';

/** Names the definition in errors: `agent "x" (/path/file.md:3)`. */
export function describeDefinition(definition: AgentDefinition): string {
  const { file, line } = definition.source;
  return `agent "${definition.id}" (${line === undefined ? file : `${file}:${line}`})`;
}

/**
 * A2A 1.0 §5.7: REQUIRED lists are non-empty, and a 1.0 decoder rejects a skill without tags.
 * A skill with none takes the agent's tags, which describe it best; an agent with none, its id.
 */
function tagsOf(tags: readonly string[], definition: AgentDefinition): string[] {
  if (tags.length > 0) return [...tags];
  return definition.tags.length > 0 ? [...definition.tags] : [definition.id];
}

function fromDefinition(
  skill: SkillDefinition,
  definition: AgentDefinition,
  schemes: Readonly<Record<string, SecurityScheme>>,
): AgentSkill {
  const where = `${describeDefinition(definition)}, skill "${skill.id}"`;
  // A2A 1.0 §4.4.5: id, name and description are REQUIRED strings (non-empty on the 1.0 wire).
  for (const field of ['id', 'name', 'description'] as const) {
    if (typeof skill[field] !== 'string' || skill[field].trim() === '') {
      throw new Error(`${where}: the skill has no ${field}; every card skill needs one (A2A 1.0 §4.4.5)`);
    }
  }
  const out: AgentSkill = {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: tagsOf(skill.tags, definition),
  };
  if (skill.examples !== undefined) out.examples = [...skill.examples];
  if (skill.inputModes !== undefined) out.inputModes = [...skill.inputModes];
  if (skill.outputModes !== undefined) out.outputModes = [...skill.outputModes];
  if (skill.security !== undefined) {
    const requirements = toSecurityRequirements(skill.security);
    assertSchemesDeclared(requirements, schemes, where);
    out.securityRequirements = requirements;
  }
  return out;
}

function contractDescription(name: string, contract: ContractDefinition): string {
  const base =
    contract.description !== undefined && contract.description.trim() !== ''
      ? contract.description.trim()
      : `Accepts the typed message contract "${name}": a JSON payload validated against its input schema` +
        (contract.output !== undefined ? ', answered in the shape of its output schema.' : '.');
  const parts = [/[.!?]$/.test(base) ? base : `${base}.`];
  if (contract.version !== undefined) parts.push(`Contract version ${contract.version}.`);
  if (contract.requiresApproval === true) parts.push("Requires approval from the agent's owner.");
  if (contract.deprecated === true) {
    // Wording default from OpenClaw PR #19293 a2a-contracts.md "Contract schema reference".
    parts.push(contract.deprecatedMessage?.trim() || 'This contract is deprecated.');
    if (contract.supersededBy !== undefined) parts.push(`Use "${contract.supersededBy}" instead.`);
  }
  return parts.join(' ');
}

function fromContract(name: string, contract: ContractDefinition, definition: AgentDefinition): AgentSkill {
  return {
    id: name,
    name,
    description: contractDescription(name, contract),
    tags: [...definition.tags.filter((tag) => tag !== CONTRACT_TAG), CONTRACT_TAG],
    inputModes: [JSON_MODE],
    outputModes: [JSON_MODE],
  };
}

/**
 * The card's skills. `extended` says whether this is the authenticated extended card (A2A 1.0
 * §3.1.7), which alone lists skills marked `extended`. Throws when two skills share an id.
 */
export function buildSkills(
  definition: AgentDefinition,
  schemes: Readonly<Record<string, SecurityScheme>>,
  extended: boolean,
): AgentSkill[] {
  const skills = definition.skills
    .filter((skill) => extended || skill.extended !== true)
    .map((skill) => fromDefinition(skill, definition, schemes));
  for (const [name, contract] of Object.entries(definition.a2a.contracts)) {
    skills.push(fromContract(name, contract, definition));
  }
  if (skills.length === 0) {
    // A card needs at least one skill (A2A 1.0 §5.7): the agent itself is the one it has.
    skills.push({
      id: definition.id,
      name: definition.name,
      description: definition.description,
      tags: tagsOf(definition.tags, definition),
    });
  }
  const seen = new Map<string, number>();
  skills.forEach((skill, index) => {
    const first = seen.get(skill.id);
    if (first !== undefined) {
      throw new Error(
        `${describeDefinition(definition)}: skills ${first} and ${index} share the id "${skill.id}"; ` +
          'skill ids must be unique in a card (a contract name counts as a skill id)',
      );
    }
    seen.set(skill.id, index);
  });
  return skills;
}
