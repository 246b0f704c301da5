/**
 * What a host with several agents shows at its root: the `/agents` listing and a directory card
 * at `/.well-known/agent-card.json` (decision 0015). The directory card is a valid AgentCard whose
 * skills are the listed agents and whose interfaces are theirs (each agent's preferred JSON-RPC
 * 1.0 interface), so a generic A2A client still finds every agent from the root; each agent's own
 * card, at `/agents/<id>/.well-known/agent-card.json`, is the one to use for talking to it.
 */
import type { AgentDefinition } from '../card/index.js';
import {
  negotiateVersion,
  v0_3JsonRpcCodec,
  v1_0Codec,
  type AgentCard,
  type AgentSkill,
} from '../protocol/index.js';
import type { HostConfig } from './host-config.js';

/** An agent as the root of the host lists it. */
export interface ListedAgent {
  definition: AgentDefinition;
  /** Its base URL, ending in `/`. */
  url: string;
}

/** The `/agents` body: one entry per agent this listener shows. */
export function listing(agents: ListedAgent[]): { agents: Record<string, unknown>[] } {
  return {
    agents: agents.map(({ definition, url }) => ({
      id: definition.id,
      name: definition.name,
      description: definition.description,
      version: definition.version,
      tags: definition.tags,
      url,
      agentCardUrl: `${url}.well-known/agent-card.json`,
    })),
  };
}

/** The root card of a multi-agent host, in the wire form of the requested version. */
export function directoryCard(
  config: HostConfig,
  agents: ListedAgent[],
  versionHeader: string | undefined,
): unknown {
  const skills: AgentSkill[] = agents.map(({ definition, url }) => ({
    id: definition.id,
    name: definition.name,
    description: `${definition.description} (served at ${url})`,
    tags: definition.tags.length > 0 ? definition.tags : ['agent'],
  }));
  const name = config.organization?.name ?? 'Concord agent host';
  const card: AgentCard = {
    name,
    description:
      agents.length === 0
        ? `${name}: no agents are published here.`
        : `${name}: ${agents.length} agents, each with its own card under /agents/<id>/.`,
    version: '1.0.0',
    supportedInterfaces: agents.map(({ url }) => ({
      url,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    })),
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
    ...(config.organization === undefined
      ? {}
      : { provider: { organization: config.organization.name, url: config.organization.url } }),
  };
  let version: '0.3' | '1.0';
  try {
    version = negotiateVersion(versionHeader);
  } catch {
    version = '1.0';
  }
  return (version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec).encodeAgentCard(card);
}
