/**
 * Contract discovery over a config (seed "Discovery" and "Versioning & deprecation"):
 * which agent declares which contract, and which contracts are deprecated. The config is read
 * structurally, so the seed's config (`agents.list`), the host's parsed config (`agents` as a list)
 * and plain objects all fit, and order is always agent order, then declaration order (upstream
 * `discoverContracts`). A config of another shape is refused with the JSON Pointer of the mistake
 * rather than failing somewhere inside.
 */
import { pointer } from '../protocol/internal.js';
import type { ContractSection, ContractSpec } from './contract-types.js';
import { DEFAULT_DEPRECATION_MESSAGE } from './contract-types.js';

/** One agent as discovery reads it: agents without an id are skipped (upstream). */
export interface ContractsAgent {
  id?: string;
  a2a?: ContractSection;
}

/**
 * The part of a config discovery reads: the seed's `{ agents: { list: [...] } }` (the config
 * file's shape), or `{ agents: [...] }` (the host's parsed `HostConfig`). No `agents`, or no
 * `list`, is a config without agents.
 */
export interface ContractsConfig {
  agents?: readonly ContractsAgent[] | { readonly list?: readonly ContractsAgent[] };
}

/** One declared contract and its agent. */
export interface DiscoveredContract {
  agentId: string;
  /** The contract's name. */
  contract: string;
  spec: ContractSpec;
}

/** One deprecated contract, for an audit (`listDeprecatedContracts`). */
export interface DeprecatedContract {
  agentId: string;
  contract: string;
  /** The contract's `deprecatedMessage`, or "This contract is deprecated.". */
  message: string;
  supersededBy?: string;
  version?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The config is the caller's argument, so a wrong shape is a TypeError naming where it is wrong. */
function invalid(field: string, message: string, value: unknown): TypeError {
  const where = field === '' ? 'the config' : `${field}:`;
  return new TypeError(`Invalid contracts config: ${where} ${message}, got ${kindOf(value)}`);
}

/** The agents of either config shape, each with the JSON Pointer it was read at. */
function agentsOf(cfg: ContractsConfig): { agent: ContractsAgent; at: string }[] {
  if (!isObject(cfg)) throw invalid('', 'must be an object', cfg);
  const agents: unknown = cfg.agents;
  let list: unknown;
  let at: string;
  if (agents === undefined || Array.isArray(agents)) {
    [list, at] = [agents ?? [], '/agents'];
  } else if (isObject(agents)) {
    [list, at] = [agents.list ?? [], '/agents/list'];
    if (!Array.isArray(list)) throw invalid(at, 'must be a list of agents', list);
  } else {
    throw invalid('/agents', 'must be a list of agents or an object with a `list` of agents', agents);
  }
  return (list as unknown[]).map((agent, index) => {
    const field = `${at}/${index}`;
    if (!isObject(agent)) throw invalid(field, 'must be an agent object', agent);
    if (agent.a2a !== undefined && !isObject(agent.a2a))
      throw invalid(`${field}/a2a`, 'must be an object', agent.a2a);
    return { agent: agent as ContractsAgent, at: field };
  });
}

function entriesOf(
  section: Pick<ContractSection, 'contracts'> | undefined,
  at: string,
): [string, ContractSpec][] {
  const contracts: unknown = section?.contracts;
  const field = `${at}/a2a/contracts`;
  if (contracts === undefined) return [];
  if (Array.isArray(contracts)) {
    return contracts.map((entry: unknown, index) => {
      if (!isObject(entry)) throw invalid(`${field}/${index}`, 'must be a contract object', entry);
      if (typeof entry.name !== 'string') {
        throw invalid(`${field}/${index}/name`, 'must be a string', entry.name);
      }
      const { name, ...spec } = entry;
      return [name, spec as ContractSpec];
    });
  }
  if (!isObject(contracts)) {
    throw invalid(field, 'must be an object of named contracts (or a list of them)', contracts);
  }
  return Object.entries(contracts).map(([name, spec]) => {
    if (!isObject(spec)) throw invalid(pointer(field, name), 'must be a contract object', spec);
    return [name, spec as ContractSpec];
  });
}

/** Every contract of every agent; agents without an id are skipped (upstream). */
export function discoverContracts(cfg: ContractsConfig): DiscoveredContract[] {
  return agentsOf(cfg).flatMap(({ agent, at }) =>
    typeof agent.id === 'string' && agent.id !== '' ? contractsOfAgent(agent.id, agent, at) : [],
  );
}

function contractsOfAgent(agentId: string, agent: ContractsAgent, at: string): DiscoveredContract[] {
  return entriesOf(agent.a2a, at).map(([contract, spec]) => ({ agentId, contract, spec }));
}

/** The contracts of one agent, in declaration order; [] for an unknown agent. */
export function listAgentContracts(cfg: ContractsConfig, agentId: string): DiscoveredContract[] {
  const found = agentsOf(cfg).find(({ agent }) => agent.id === agentId);
  return found === undefined ? [] : contractsOfAgent(agentId, found.agent, found.at);
}

/** One agent's contract by name, or undefined. */
export function findContract(
  cfg: ContractsConfig,
  agentId: string,
  name: string,
): DiscoveredContract | undefined {
  return listAgentContracts(cfg, agentId).find((c) => c.contract === name);
}

/** Every contract marked `deprecated: true`, with its warning text and replacement. */
export function listDeprecatedContracts(cfg: ContractsConfig): DeprecatedContract[] {
  return discoverContracts(cfg).flatMap(({ agentId, contract, spec }) => {
    if (spec.deprecated !== true) return [];
    const entry: DeprecatedContract = {
      agentId,
      contract,
      message: spec.deprecatedMessage ?? DEFAULT_DEPRECATION_MESSAGE,
    };
    if (spec.supersededBy !== undefined) entry.supersededBy = spec.supersededBy;
    if (spec.version !== undefined) entry.version = spec.version;
    return [entry];
  });
}
