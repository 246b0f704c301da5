/**
 * Everything an agent is served with, built from its definition and the host's parts in one go:
 * executor, cards, authenticator, contract gate and card signer. A mounted agent holds one build
 * and swaps it whole on reload, so none of these can disagree with another (decision 0022).
 */
import { buildAgentCard, signAgentCard, type AgentDefinition, type SigningKey } from '../card/index.js';
import { compileContracts, contractContextText, type ContractSet } from '../contracts/index.js';
import type { AgentCard, ProtocolVersion } from '../protocol/index.js';
import type { Authenticator, CardSigner } from '../server/index.js';
import { contractsExtension } from './contracts-api.js';
import type { DisposableExecutor } from './executor-slot.js';
import {
  agentToolTargets,
  connectMcpTools,
  createModelExecutor,
  handlerVersion,
  loadHandlerExecutor,
  mcpServersOf,
  resolveModelEndpoint,
} from './executors/index.js';
import type { HostConfig } from './host-config.js';
import type { HostParts } from './host-parts.js';
import { bindRequirements, toCardSecurity } from './security/index.js';

/** One build of an agent; see the file comment. */
export interface AgentBuild {
  definition: AgentDefinition;
  executor: DisposableExecutor;
  /** Equal keys build executors that behave the same, so a reload keeps the running one. */
  executorKey: string;
  cards: { card: AgentCard; extended?: AgentCard };
  /** The cards and the keys that sign them: equal keys serve the same bodies and ETags. */
  cardsKey: string;
  authenticate: Authenticator | undefined;
  /** The schemes and requirements enforced (compared only, never shown). */
  securityKey: string;
  contracts: ContractSet | undefined;
  signCard: CardSigner | undefined;
  /** Whether a repeated messageId is a retry: the agent's setting, else the host's (decision 0133). */
  messageIdKeys: boolean;
}

/**
 * Builds `definition` against `parts`. The executor of `previous` is reused when nothing it depends
 * on changed (so an unrelated reload neither re-imports a handler nor restarts MCP servers).
 */
export async function buildAgent(
  definition: AgentDefinition,
  parts: HostParts,
  previous: AgentBuild | undefined,
): Promise<AgentBuild> {
  const { config, auth } = parts;
  const executorKey = await executorKeyOf(definition, config);
  const executor =
    previous !== undefined && previous.executorKey === executorKey
      ? previous.executor
      : await createExecutor(definition, config, parts.env, parts.mcpLog);
  try {
    const cards = cardsFor(definition, config, auth !== undefined);
    const requirements = definition.security ?? config.security?.requirements ?? [];
    return {
      definition,
      executor,
      executorKey,
      cards,
      cardsKey: `${JSON.stringify(cards)}|${parts.keysId}`,
      authenticate: auth === undefined ? undefined : bindRequirements(auth, requirements),
      securityKey: JSON.stringify({ schemes: config.security?.schemes ?? null, requirements }),
      contracts: contractsOf(definition),
      signCard: cardSigner(parts.signingKeys),
      messageIdKeys: definition.idempotency?.messageId ?? config.idempotency?.messageId ?? false,
    };
  } catch (error) {
    if (executor !== previous?.executor) await executor.dispose();
    throw error;
  }
}

/** What the executor of `definition` depends on, as a comparable string. */
async function executorKeyOf(definition: AgentDefinition, config: HostConfig): Promise<string> {
  if (definition.handler !== undefined) {
    return JSON.stringify({ handler: definition.handler, version: await handlerVersion(definition.handler) });
  }
  // Where it was written and how retries are told apart change nothing the executor does.
  const { source: _where, idempotency: _retries, ...meaning } = definition;
  return JSON.stringify({
    definition: meaning,
    endpoint: config.model,
    targets: agentToolTargets(config.agents, definition.id),
    mcp: mcpServersOf(definition, config),
  });
}

/** How long `/readyz` waits for an MCP server's ping (below the probe's own 2 s limit). */
const READY_PING_MS = 1_500;

/** Builds the executor a definition asks for; model agents fail here when no endpoint is set. */
export async function createExecutor(
  definition: AgentDefinition,
  config: HostConfig,
  env: NodeJS.ProcessEnv,
  mcpLog?: (server: string, line: string) => void,
): Promise<DisposableExecutor> {
  if (definition.handler !== undefined) {
    const executor = await loadHandlerExecutor(definition);
    return {
      execute: (context, updater) => executor.execute(context, updater),
      ...(executor.cancel === undefined
        ? {}
        : { cancel: (context, updater) => executor.cancel!(context, updater) }),
      dispose: () => Promise.resolve(),
    };
  }
  if (definition.model !== undefined) {
    const endpoint = resolveModelEndpoint(config.model, env);
    // Connected last: nothing after it can fail and leave the servers running.
    const mcpTools = await connectMcpTools(definition, config, { onLog: mcpLog });
    const executor = createModelExecutor(definition, endpoint, {
      // Model agents learn the contract they are invoked under from their system prompt (seed
      // "Contract context injection"); code agents read `context.contract`.
      systemContext: (context) =>
        context.contract === undefined ? undefined : contractContextText(context.contract),
      // Every other agent of the host, with its contracts, behind the send_to_agent tool.
      agentTool: { targets: agentToolTargets(config.agents, definition.id) },
      mcpTools,
    });
    return {
      ...executor,
      dispose: async () => mcpTools?.close(),
      ...(mcpTools === undefined ? {} : { ready: () => mcpTools.ping(READY_PING_MS) }),
    };
  }
  throw new Error(`${definition.source.file}: agent "${definition.id}" has neither a model nor a handler`);
}

/** The card inputs of a definition: public, and extended when there is something more to show. */
export function cardsFor(
  definition: AgentDefinition,
  config: HostConfig,
  authenticates: boolean,
): { card: AgentCard; extended?: AgentCard } {
  const security = config.security === undefined ? undefined : toCardSecurity(config.security);
  const requirements =
    definition.security !== undefined && security !== undefined
      ? toCardSecurity({ ...config.security!, requirements: definition.security }).securityRequirements
      : security?.securityRequirements;
  const hasExtended = authenticates && definition.skills.some((skill) => skill.extended === true);
  const extension = contractsExtension(definition);
  const options = {
    // Interfaces are filled in by the server from its base URL (A2AServer.setBaseUrl).
    baseUrl: 'http://localhost/',
    ...(config.organization === undefined ? {} : { organization: config.organization }),
    ...(security === undefined ? {} : { securitySchemes: security.securitySchemes }),
    ...(requirements === undefined ? {} : { securityRequirements: requirements }),
    capabilities: {
      streaming: true,
      // The server restates it from what it runs (A2AServer `push`); this is the config's intent.
      pushNotifications: config.push?.enabled !== false,
      extendedAgentCard: hasExtended,
      ...(extension === undefined ? {} : { extensions: [extension] }),
    },
  };
  const card = withoutInterfaces(buildAgentCard(definition, options));
  if (!hasExtended) return { card };
  return { card, extended: withoutInterfaces(buildAgentCard(definition, { ...options, extended: true })) };
}

function withoutInterfaces(card: AgentCard): AgentCard {
  return { ...card, supportedInterfaces: [] };
}

/**
 * The agent's compiled contracts, or undefined when the gate has nothing to do (no contracts and
 * free-form text allowed: every message is delivered as is, seed "Validation behavior").
 */
export function contractsOf(definition: AgentDefinition): ContractSet | undefined {
  const { a2a } = definition;
  if (Object.keys(a2a.contracts).length === 0 && a2a.allowFreeform) return undefined;
  return compileContracts(definition.id, a2a);
}

/** The card signer for the host's keys, or undefined when it has none. */
export function cardSigner(keys: SigningKey[]): CardSigner | undefined {
  if (keys.length === 0) return undefined;
  return (json: Record<string, unknown>, version: ProtocolVersion) => signAgentCard(json, keys, version);
}
