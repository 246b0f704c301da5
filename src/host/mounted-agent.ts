/**
 * One agent of the host, ready to serve: its executor (code handler or model), its generated
 * cards (public and, when it has extended skills and the host authenticates, extended), its
 * security (the organisation's schemes, the agent's or the organisation's requirements, per-skill
 * checks), its signed card and its task store. The host routes `/agents/<id>/...` to `server`.
 */
import { buildAgentCard, signAgentCard, type AgentDefinition, type SigningKey } from '../card/index.js';
import type { AgentCard, ProtocolVersion } from '../protocol/index.js';
import {
  createA2AServer,
  type A2AServer,
  type AgentExecutor,
  type AgentSender,
  type Authenticator,
  type CardSigner,
} from '../server/index.js';
import type { TaskStore } from '../store/index.js';
import { compileContracts, contractContextText, type ContractSet } from '../contracts/index.js';
import { contractsExtension } from './contracts-api.js';
import {
  agentToolTargets,
  createModelExecutor,
  loadHandlerExecutor,
  resolveModelEndpoint,
} from './executors/index.js';
import type { HostConfig } from './host-config.js';
import { bindRequirements, toCardSecurity, type HostAuthenticator } from './security/index.js';
import { skillAdmission } from './skill-admission.js';

/** What mounting needs besides the definition. */
export interface MountContext {
  config: HostConfig;
  store: TaskStore;
  /** The host's authenticator, when the config declares security. */
  auth: HostAuthenticator | undefined;
  signingKeys: SigningKey[];
  env: NodeJS.ProcessEnv;
  onError: (error: unknown, where: string) => void;
  /** Given to the agent's executors as `context.agents`. */
  sender?: AgentSender;
}

/** A mounted agent. */
export interface MountedAgent {
  readonly definition: AgentDefinition;
  readonly server: A2AServer;
  /** The agent also served at another base URL (same tasks); kept up to date by `update`. */
  alias(baseUrl: string): A2AServer;
  /** Replaces the executor's behaviour and the cards after the definition changed. */
  update(definition: AgentDefinition): Promise<void>;
}

/** Builds the executor a definition asks for; model agents fail here when no endpoint is set. */
export async function createExecutor(
  definition: AgentDefinition,
  config: HostConfig,
  env: NodeJS.ProcessEnv,
): Promise<AgentExecutor> {
  if (definition.handler !== undefined) return loadHandlerExecutor(definition);
  if (definition.model !== undefined) {
    // Model agents learn the contract they are invoked under from their system prompt (seed
    // "Contract context injection"); code agents read `context.contract`.
    return createModelExecutor(definition, resolveModelEndpoint(config.model, env), {
      systemContext: (context) =>
        context.contract === undefined ? undefined : contractContextText(context.contract),
      // Every other agent of the host, with its contracts, behind the send_to_agent tool.
      agentTool: { targets: agentToolTargets(config.agents, definition.id) },
    });
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
  return (json: Record<string, unknown>, _version: ProtocolVersion) => signAgentCard(json, keys);
}

/** Mounts one agent; throws (before anything listens) when its executor cannot be built. */
export async function mountAgent(definition: AgentDefinition, context: MountContext): Promise<MountedAgent> {
  const { config, auth } = context;
  let current = definition;
  let executor = await createExecutor(definition, config, context.env);
  // The server keeps one executor object for its life; this one forwards to the current build, so a
  // changed definition (dev mode) takes effect for the next message without dropping tasks.
  const forwarding: AgentExecutor = {
    execute: (ctx, updater) => executor.execute(ctx, updater),
    // Without a hook of its own the agent gets Concord's default cancel (abort, then canceled).
    cancel: (ctx, updater) => executor.cancel?.(ctx, updater),
  };
  const cards = cardsFor(definition, config, auth !== undefined);
  const requirements = definition.security ?? config.security?.requirements ?? [];
  const authenticate: Authenticator | undefined =
    auth === undefined ? undefined : bindRequirements(auth, requirements);
  const signCard = cardSigner(context.signingKeys);
  const contracts = contractsOf(definition);
  const server = createA2AServer({
    ...(contracts === undefined ? {} : { contracts }),
    agentCard: cards.card,
    ...(cards.extended === undefined ? {} : { extendedAgentCard: cards.extended }),
    executor: forwarding,
    store: context.store,
    ...(authenticate === undefined ? {} : { authenticate }),
    ...(signCard === undefined ? {} : { signCard }),
    admitMessage: (request, call) => skillAdmission(current, request, call),
    ...(context.sender === undefined ? {} : { agents: context.sender }),
    onError: context.onError,
  });
  const aliases: A2AServer[] = [];
  return {
    get definition() {
      return current;
    },
    server,
    alias(baseUrl) {
      const alias = server.alias(baseUrl);
      aliases.push(alias);
      return alias;
    },
    async update(next) {
      executor = await createExecutor(next, config, context.env);
      current = next;
      const rebuilt = cardsFor(next, config, auth !== undefined);
      for (const each of [server, ...aliases]) each.updateCard(rebuilt.card, rebuilt.extended);
    },
  };
}
