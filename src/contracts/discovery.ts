/**
 * Contract discovery over a parsed host config (seed "Discovery" and "Versioning & deprecation"):
 * which agent declares which contract, and which contracts are deprecated. The config is read
 * structurally, so the host's parsed config and plain objects both fit, and order is always agent
 * order, then declaration order (upstream `discoverContracts`).
 */
import type { ContractSection, ContractSpec } from './contract-types.js';
import { DEFAULT_DEPRECATION_MESSAGE } from './contract-types.js';

/** The part of a host config discovery reads. */
export interface ContractsConfig {
  agents: readonly { id: string; a2a?: Pick<ContractSection, 'contracts'> }[];
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

function entriesOf(section: Pick<ContractSection, 'contracts'> | undefined): [string, ContractSpec][] {
  const contracts = section?.contracts;
  if (contracts === undefined) return [];
  if (Array.isArray(contracts)) {
    return (contracts as readonly { name: string }[]).map(({ name, ...spec }) => [
      name,
      spec as ContractSpec,
    ]);
  }
  return Object.entries(contracts as Readonly<Record<string, ContractSpec>>);
}

/** Every contract of every agent; agents without an id are skipped (upstream). */
export function discoverContracts(cfg: ContractsConfig): DiscoveredContract[] {
  return cfg.agents.flatMap((agent) =>
    typeof agent.id === 'string' && agent.id !== ''
      ? entriesOf(agent.a2a).map(([contract, spec]) => ({ agentId: agent.id, contract, spec }))
      : [],
  );
}

/** The contracts of one agent, in declaration order; [] for an unknown agent. */
export function listAgentContracts(cfg: ContractsConfig, agentId: string): DiscoveredContract[] {
  const agent = cfg.agents.find((a) => a.id === agentId);
  return agent ? entriesOf(agent.a2a).map(([contract, spec]) => ({ agentId, contract, spec })) : [];
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
