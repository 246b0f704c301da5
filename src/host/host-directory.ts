/**
 * What a host with several agents shows at its root: the `/agents` listing and a directory card
 * at `/.well-known/agent-card.json` (decision 0015). The directory card is a valid AgentCard whose
 * skills are the listed agents and whose interfaces are theirs (each agent's preferred JSON-RPC
 * 1.0 interface), so a generic A2A client still finds every agent from the root; each agent's own
 * card, at `/agents/<id>/.well-known/agent-card.json`, is the one to use for talking to it. Like
 * those, it declares the organisation's security and is signed (decision 0024).
 */
import { signAgentCard, type AgentDefinition } from '../card/index.js';
import {
  v0_3JsonRpcCodec,
  v1_0Codec,
  type AgentCard,
  type AgentSkill,
  type ProtocolVersion,
} from '../protocol/internal.js';
import type { HostParts } from './host-parts.js';
import { toCardSecurity } from './security/index.js';

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

/**
 * The root card of a multi-agent host, as served to `version`: the organisation as provider, its
 * security schemes and host-wide requirements (what an agent asks for unless its own card says
 * otherwise; decision 0024), and signed with the host's keys like every agent card.
 */
export async function directoryCardJson(
  parts: HostParts,
  agents: ListedAgent[],
  version: ProtocolVersion,
): Promise<string> {
  const { config, signingKeys } = parts;
  const skills: AgentSkill[] = agents.map(({ definition, url }) => ({
    id: definition.id,
    name: definition.name,
    description: `${definition.description} (served at ${url})`,
    tags: definition.tags.length > 0 ? definition.tags : ['agent'],
  }));
  const name = config.organization?.name ?? 'Concord agent host';
  const security = config.security === undefined ? undefined : toCardSecurity(config.security);
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
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
    ...(config.organization === undefined
      ? {}
      : { provider: { organization: config.organization.name, url: config.organization.url } }),
    ...(security === undefined ? {} : security),
  };
  const json = (version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec).encodeAgentCard(card) as Record<
    string,
    unknown
  >;
  delete json.signatures;
  if (signingKeys.length > 0) json.signatures = await signAgentCard(json, signingKeys, version);
  return JSON.stringify(json);
}
