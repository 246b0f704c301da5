/**
 * The published form of an agent's contracts (decision 0018): what the card extension
 * `urn:concord:a2a-contracts:v1` carries in its params and what `GET /agents/<id>/contracts`
 * answers. The host writes it from a definition; a client reads it back from a card or that URL
 * to validate payloads before sending. What is read is someone else's document, so its shape is
 * checked member by member and only the published fields are kept.
 */
import type { AgentCard } from '../protocol/index.js';
import { ContractLoadError, type ContractLoadProblem } from './contract-load-error.js';
import type { ContractSection, ContractSpec, NamedContractSpec } from './contract-types.js';

/** The card extension that carries an agent's contracts (decision 0018). */
export const CONTRACTS_EXTENSION_URI = 'urn:concord:a2a-contracts:v1';

/** An agent's contracts as published: declaration order, schemas inline. */
export interface PublishedContracts {
  /** The agent's id (the `/contracts` URL names it; the card extension does not). */
  agentId?: string;
  allowFreeform: boolean;
  contracts: NamedContractSpec[];
}

/**
 * The fields a contract is published with. `outputPolicy` is the server's own business and is
 * not among them (decision 0030).
 */
const PUBLISHED_FIELDS = [
  'description',
  'version',
  'input',
  'output',
  'requiresApproval',
  'deprecated',
  'deprecatedMessage',
  'supersededBy',
] as const satisfies readonly (keyof ContractSpec)[];

function pick(name: string, spec: ContractSpec): NamedContractSpec {
  const out: Record<string, unknown> = { name };
  for (const key of PUBLISHED_FIELDS) if (spec[key] !== undefined) out[key] = spec[key];
  return out as unknown as NamedContractSpec;
}

/** The published form of an `a2a` section (map or list form), in declaration order. */
export function publishContracts(section: ContractSection): PublishedContracts {
  const raw = section.contracts;
  const entries: [string, ContractSpec][] =
    raw === undefined
      ? []
      : Array.isArray(raw)
        ? (raw as readonly NamedContractSpec[]).map(({ name, ...spec }) => [name, spec])
        : Object.entries(raw as Readonly<Record<string, ContractSpec>>);
  return {
    allowFreeform: section.allowFreeform !== false,
    contracts: entries.map(([name, spec]) => pick(name, spec)),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * Reads published contracts (extension params or the `/contracts` document). Throws a
 * `ContractLoadError` naming each member that is not what decision 0018 publishes; the field
 * types and schemas are checked later, by `compileContracts`.
 */
export function readPublishedContracts(value: unknown, agentName: string): PublishedContracts {
  const problems: ContractLoadProblem[] = [];
  const fail = (field: string, message: string): never => {
    problems.push({ contract: '', field, message });
    throw new ContractLoadError(agentName, problems);
  };
  if (!isObject(value)) return fail('', `must be an object, got ${kindOf(value)}`);
  const { allowFreeform, contracts, agentId } = value;
  if (allowFreeform !== undefined && typeof allowFreeform !== 'boolean') {
    fail('/allowFreeform', `must be a boolean, got ${kindOf(allowFreeform)}`);
  }
  if (agentId !== undefined && typeof agentId !== 'string') {
    fail('/agentId', `must be a string, got ${kindOf(agentId)}`);
  }
  if (contracts !== undefined && !Array.isArray(contracts)) {
    fail('/contracts', `must be a list, got ${kindOf(contracts)}`);
  }
  const list = (contracts ?? []) as unknown[];
  const read: NamedContractSpec[] = [];
  list.forEach((entry, index) => {
    if (!isObject(entry)) {
      problems.push({
        contract: '',
        field: `/contracts/${index}`,
        message: `must be an object, got ${kindOf(entry)}`,
      });
      return;
    }
    const { name } = entry;
    if (typeof name !== 'string' || name === '') {
      problems.push({
        contract: '',
        field: `/contracts/${index}/name`,
        message: `must be a non-empty string, got ${kindOf(name)}`,
      });
      return;
    }
    read.push(pick(name, entry as ContractSpec));
  });
  if (problems.length > 0) throw new ContractLoadError(agentName, problems);
  return {
    ...(typeof agentId === 'string' ? { agentId } : {}),
    allowFreeform: allowFreeform !== false,
    contracts: read,
  };
}

/**
 * The contracts a card publishes in its `urn:concord:a2a-contracts:v1` extension, or undefined
 * when it has none (the agent declares no contracts, or is not a Concord agent).
 */
export function contractsOfCard(card: AgentCard): PublishedContracts | undefined {
  const extension = card.capabilities?.extensions?.find((e) => e.uri === CONTRACTS_EXTENSION_URI);
  if (extension === undefined) return undefined;
  return readPublishedContracts(extension.params ?? {}, card.name);
}
