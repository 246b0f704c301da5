/**
 * One agent of the host, ready to serve: its executor (code handler or model), its generated
 * cards (public and, when it has extended skills and the host authenticates, extended), its
 * security (the organisation's schemes, the agent's or the organisation's requirements, per-skill
 * checks), its contracts, its signed card and its task store. The host routes `/agents/<id>/...`
 * to `server`.
 *
 * The server keeps the objects it is given for its life, so it is given forwarders that read the
 * agent's current build: in dev mode a reload replaces the build in one step, and the card, the
 * authenticator, the contract gate, the signer and the executor always come from the same
 * definition and host config (decision 0022).
 */
import type { AgentDefinition } from '../card/index.js';
import type { ContractSet } from '../contracts/index.js';
import type { ProtocolVersion } from '../protocol/index.js';
import {
  createA2AServer,
  type A2AServer,
  type AgentSender,
  type Authenticator,
  type Cluster,
  type OrphanPolicy,
  type ContractGate,
  type PushOptions,
  type ServerExtension,
} from '../server/internal.js';
import type { TaskStore } from '../store/index.js';
import { buildAgent, type AgentBuild } from './agent-build.js';
import { admitHops, DEFAULT_MAX_AGENT_HOPS } from './agent-hops.js';
import type { HostParts } from './host-parts.js';
import { ExecutorSlot } from './executor-slot.js';
import { mountExtensions, type HostExtension } from './host-extensions.js';
import { skillAdmission } from './skill-admission.js';

export { cardsFor, cardSigner, contractsOf, createExecutor } from './agent-build.js';

/** What mounting needs besides the definition. */
export interface MountContext {
  parts: HostParts;
  store: TaskStore;
  onError: (error: unknown, where: string) => void;
  /** Given to the agent's executors as `context.agents`. */
  sender?: AgentSender | undefined;
  /** The extensions the host has; the definition picks from them (host-extensions.ts). */
  extensions?: readonly HostExtension[] | undefined;
  /** Push notifications (the card then offers them). */
  push?: PushOptions | undefined;
  /** The cluster the host is an instance of; the agent joins it under its id (decision 0110). */
  cluster?: Cluster | undefined;
  /** Without a cluster: tasks an earlier process left running (decision 0119). */
  orphans?: OrphanPolicy | undefined;
  /** Settles once every agent of the host is mounted: recovery waits for it. */
  mounted?: Promise<unknown> | undefined;
  /** The host's agent hop limit, read per send (default 8, decision 0148). */
  maxAgentHops?: (() => number) | undefined;
  /** How deeply a request may nest (`createA2AServer`'s `maxJsonDepth`, decision 0144). */
  maxJsonDepth?: number | undefined;
}

/** A reload of one agent, built but not applied yet. */
export interface PreparedUpdate {
  /** Whether the agent changes at all (definition, executor, cards or security). */
  readonly changed: boolean;
  /** Puts the new build in service; never throws. */
  apply(): void;
  /** Releases what the build opened (MCP connections) when the reload is abandoned. */
  discard(): Promise<void>;
}

/** A mounted agent. */
export interface MountedAgent {
  readonly definition: AgentDefinition;
  readonly server: A2AServer;
  /** The extensions the agent was mounted with (the evidence owner API reads their services). */
  readonly extensions: readonly ServerExtension[];
  /** The agent also served at another base URL (same tasks); one alias per URL, kept up to date. */
  alias(baseUrl: string): A2AServer;
  /** Builds the agent for a changed definition or host config, without serving it yet. */
  prepare(definition: AgentDefinition, parts: HostParts): Promise<PreparedUpdate>;
  /** Checks the current executor's MCP servers answer; undefined when it has none (decision 0158). */
  readonly ready: (() => Promise<void>) | undefined;
  /** Closes the store and the executor's connections. */
  close(): Promise<void>;
}

/** Mounts one agent; throws (before anything listens) when it cannot be built. */
export async function mountAgent(definition: AgentDefinition, context: MountContext): Promise<MountedAgent> {
  // Extensions first: nothing they refuse leaves an executor (MCP connections) to dispose of.
  // They are built once; a reload does not rebuild them (decision 0054).
  const extensions = await mountExtensions(definition, context.extensions ?? [], {
    store: context.store,
    outbound: context.parts.config.outbound,
  });
  let current: AgentBuild = await buildAgent(definition, context.parts, undefined);
  const slot = new ExecutorSlot(current.executor, context.onError);
  const authenticate: Authenticator = (request) => current.authenticate?.(request);
  const server = createA2AServer({
    agentCard: current.cards.card,
    extendedAgentCard: current.cards.extended,
    executor: slot.executor,
    store: context.store,
    authenticate,
    contracts: forwardingGate(() => current.contracts),
    signCard: (json: Record<string, unknown>, version: ProtocolVersion) =>
      current.signCard === undefined ? Promise.resolve([]) : current.signCard(json, version),
    admitMessage: (request, call) => {
      // A message past the host's hop limit, or with hop metadata Concord never writes, makes no task.
      admitHops(request.message, context.maxAgentHops?.() ?? DEFAULT_MAX_AGENT_HOPS);
      skillAdmission(current.definition, request, call);
    },
    // Read per send, so a reload that changes the setting applies to the next send (decision 0133).
    idempotency: {
      get messageId() {
        return current.messageIdKeys;
      },
    },
    agents: context.sender,
    ...(extensions.length === 0 ? {} : { extensions }),
    push: context.push,
    ...(context.cluster === undefined ? {} : { cluster: context.cluster, clusterKey: definition.id }),
    orphans: context.orphans,
    recoverAfter: context.mounted,
    maxJsonDepth: context.maxJsonDepth,
    onError: context.onError,
  });
  const aliases = new Map<string, A2AServer>();
  return {
    get definition() {
      return current.definition;
    },
    get ready() {
      return slot.ready;
    },
    server,
    extensions,
    alias(baseUrl) {
      let alias = aliases.get(baseUrl);
      if (alias === undefined) {
        alias = server.alias(baseUrl);
        aliases.set(baseUrl, alias);
      }
      return alias;
    },
    async prepare(next, parts) {
      const build = await buildAgent(next, parts, current);
      const executorChanged = build.executor !== current.executor;
      const cardsChanged = build.cardsKey !== current.cardsKey;
      const changed =
        executorChanged ||
        cardsChanged ||
        build.securityKey !== current.securityKey ||
        build.messageIdKeys !== current.messageIdKeys ||
        JSON.stringify(next) !== JSON.stringify(current.definition);
      return {
        changed,
        apply() {
          current = build;
          if (executorChanged) slot.replace(build.executor);
          // Only a changed card is re-rendered: an unchanged one keeps its body and ETag.
          if (cardsChanged) {
            for (const each of [server, ...aliases.values()]) {
              each.updateCard(build.cards.card, build.cards.extended);
            }
          }
        },
        async discard() {
          if (executorChanged) await build.executor.dispose();
        },
      };
    },
    async close() {
      await server.close();
      await slot.close();
    },
  };
}

/**
 * The contract gate of the current build. A task admitted under a contract that a reload has since
 * removed has its reply left unchecked: there is no schema left to check it against.
 */
function forwardingGate(current: () => ContractSet | undefined): ContractGate {
  return {
    admit: (message) => current()?.admit(message),
    checkOutput: (name, value) => {
      const contracts = current();
      return contracts !== undefined && contracts.has(name) ? contracts.checkOutput(name, value) : [];
    },
    get outputPolicy() {
      return current()?.outputPolicy;
    },
    // Per-contract policies (decision 0030) must reach the output check as the set declares them.
    outputPolicyOf: (name) => current()?.outputPolicyOf(name) ?? 'fail',
  };
}
