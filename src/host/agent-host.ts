/**
 * The agent host: every agent of a HostConfig mounted under one listener (decision 0015;
 * Shaman's agent-card.md "Shaman Implementation"). Routes:
 *
 * - `/agents/<id>/...`  the agent's A2A server (card, JSON-RPC, HTTP+JSON), per agent;
 * - `/agents`           the listing of the agents this listener shows;
 * - `/.well-known/jwks.json`  the public keys the cards are signed with (when signing);
 * - `/.well-known/ai-catalog.json`  the AI Catalog of the agents the caller may reach (0167);
 * - with one agent: that agent at the root too (card at `/.well-known/agent-card.json`);
 *   with several: a directory card at the root (decision 0015).
 *
 * Two views of the same host: the public one shows `exposed: true` agents, and reaches unexposed
 * ones only for callers authenticated with the internal scope (anyone else gets 404, so their
 * existence is not revealed, A2A 1.0 §13.1); the internal one (the host's own clients, bound to
 * loopback by default) shows every agent. Both read one shared state, which `reload` replaces
 * as a whole in dev mode (decision 0022).
 */
import { A2AError, negotiateVersion, toRestErrorBody, type ProtocolVersion } from '../protocol/internal.js';
import {
  cacheableJson,
  FORWARDING_VARY,
  requestBelow,
  type HttpApp,
  type HttpBodyResponse,
  type HttpRequest,
  type HttpResponse,
  type RefusedRequest,
} from '../server/internal.js';
import type { A2AServer, Cluster, OrphanPolicy, PushOptions } from '../server/index.js';
import type { TaskStore } from '../store/index.js';
import type { HostConfig } from './host-config.js';
import { DEFAULT_MAX_AGENT_HOPS, maxAgentHopsProblem } from './agent-hops.js';
import { createAgentSender } from './agent-sender.js';
import { handleApprovals } from './approvals-api.js';
import { handleEvidence } from './evidence-api.js';
import { handlePushDeliveries } from './push-api.js';
import { handleContracts } from './contracts-api.js';
import { DefinitionError, type DefinitionProblem } from './definitions/index.js';
import { AI_CATALOG_MEDIA_TYPE, AI_CATALOG_PATH, aiCatalogJson, catalogVary } from './ai-catalog.js';
import { directoryCardJson, listing, type ListedAgent } from './host-directory.js';
import type { HostExtension } from './host-extensions.js';
import type { RemoteAgents } from './remote-agents.js';
import type { HostIdentity } from './security/index.js';
import { buildHostParts, type HostParts } from './host-parts.js';
import { mountAgent, type MountedAgent, type PreparedUpdate } from './mounted-agent.js';
import { publicJwks } from './signing-keys.js';

/** Which listener a request came in on. */
export type HostView = 'public' | 'internal';

/** What the host is built from besides its config. */
export interface AgentHostOptions {
  /** The task store of each agent (called once per agent id; may open it asynchronously). */
  storeFor: (agentId: string) => TaskStore | Promise<TaskStore>;
  env?: NodeJS.ProcessEnv | undefined;
  maxBodyBytes?: number | undefined;
  /** How deeply a request to any agent may nest (decision 0144; default 32). */
  maxJsonDepth?: number | undefined;
  onError?: ((error: unknown, where: string) => void) | undefined;
  /** How agents send to URLs (the A2A client); without it they may send to host agents only. */
  remoteAgents?: RemoteAgents | undefined;
  /** Receives each line stdio MCP servers write to stderr (the library itself never logs). */
  onMcpLog?: ((server: string, line: string) => void) | undefined;
  /** The A2A extensions agents may enable in their definitions (host-extensions.ts). */
  extensions?: readonly HostExtension[] | undefined;
  /** Push notifications for every agent (each delivers from its own store's outbox). */
  push?: PushOptions | undefined;
  /**
   * The cluster this host is an instance of: every agent joins it under its id (decision 0110).
   * The host closes it after its agents.
   */
  cluster?: Cluster | undefined;
  /** Without a cluster: tasks an earlier process left running, per agent store (decision 0119). */
  orphans?: OrphanPolicy | undefined;
  /**
   * The agent hop limit, overriding the config's `maxAgentHops` (the `--max-agent-hops` flag);
   * 1 to 64 (decision 0148).
   */
  maxAgentHops?: number | undefined;
}

/** What a reload changed. */
export interface ReloadReport {
  /** Agents whose definition, executor, cards or security changed. */
  changed: string[];
  /** Top-level sections of the host config that changed (`security`, `signing`, ...). */
  host: string[];
  /** Changes that need a restart (agents added or removed), in words. */
  pending: string[];
}

/** Everything both views read; replaced on reload. */
interface HostState {
  parts: HostParts;
  readonly agents: Map<string, MountedAgent>;
  readonly options: AgentHostOptions;
  jwks: Promise<string> | undefined;
  readonly views: AgentHost[];
}

const AGENTS_PREFIX = '/agents/';
const JSON_HEADERS = { 'content-type': 'application/json' };
const HOST_SECTIONS = [
  'organization',
  'security',
  'signing',
  'model',
  'mcpServers',
  'maxAgentHops',
  'aiCatalog',
] as const;
const LISTEN_SETTINGS = ['publicUrl', 'grpcPublicUrl', 'trustProxy'] as const;

/** A mounted set of agents; see the file comment. */
export class AgentHost implements HttpApp {
  readonly maxBodyBytes: number;
  private baseUrl = 'http://localhost/';
  private rootAgent: A2AServer | undefined;
  /**
   * The directory card as served to each version (and, behind a trusted proxy, each forwarded
   * base URL: a few at most), until the state or base URL changes.
   */
  private directory = new Map<string, Promise<string>>();

  private constructor(
    private readonly state: HostState,
    private readonly view: HostView,
  ) {
    this.maxBodyBytes = state.options.maxBodyBytes ?? 1024 * 1024;
    state.views.push(this);
  }

  /**
   * Mounts every agent of `config`; throws before anything listens if one cannot be built, with
   * every agent's problems in one DefinitionError when they are definition problems.
   */
  static async create(config: HostConfig, options: AgentHostOptions): Promise<AgentHost> {
    if (options.maxAgentHops !== undefined) {
      const problem = maxAgentHopsProblem(options.maxAgentHops);
      if (problem !== undefined) throw new Error(`maxAgentHops ${problem}`);
    }
    const parts = await buildHostParts(config, options.env ?? process.env, options.onMcpLog);
    const agents = new Map<string, MountedAgent>();
    const state: HostState = { parts, agents, options, jwks: undefined, views: [] };
    // Read per send from the state, so a reload that changes the config's limit applies at once.
    const maxAgentHops = (): number =>
      options.maxAgentHops ?? state.parts.config.maxAgentHops ?? DEFAULT_MAX_AGENT_HOPS;
    const onError = options.onError ?? (() => undefined);
    // Senders look agents up when they send, so an agent may send to one mounted after it.
    const local = (id: string) => agents.get(id)?.server.handler;
    const problems: DefinitionProblem[] = [];
    // Tasks a stopped process left running are settled once every agent is mounted, so a resumed
    // agent can send to any sibling (decision 0119).
    let allMounted!: () => void;
    const everyAgentMounted = new Promise<void>((resolve) => (allMounted = resolve));
    try {
      for (const definition of config.agents) {
        try {
          const mounted = await mountAgent(definition, {
            mounted: everyAgentMounted,
            parts,
            store: await options.storeFor(definition.id),
            onError,
            extensions: options.extensions ?? [],
            push: options.push,
            cluster: options.cluster,
            orphans: options.orphans,
            maxAgentHops,
            maxJsonDepth: options.maxJsonDepth,
            sender: createAgentSender({
              from: definition.id,
              local,
              maxHops: maxAgentHops,
              remote: options.remoteAgents,
            }),
          });
          agents.set(definition.id, mounted);
        } catch (error) {
          // Every agent is tried, so one start reports every server and tool that is wrong.
          if (!(error instanceof DefinitionError)) throw error;
          problems.push(...error.problems);
        }
      }
      if (problems.length > 0) throw new DefinitionError(problems);
    } catch (error) {
      for (const agent of agents.values()) await agent.close();
      throw error;
    } finally {
      allMounted();
    }
    return new AgentHost(state, 'public');
  }

  /** The same host as its internal listener sees it (every agent, no internal-scope check). */
  internalView(): AgentHost {
    return new AgentHost(this.state, 'internal');
  }

  /** The mounted agents by id. */
  get mounted(): ReadonlyMap<string, MountedAgent> {
    return this.state.agents;
  }

  /** The config in service (the last one loaded without problems). */
  get config(): HostConfig {
    return this.state.parts.config;
  }

  /**
   * Puts a new config in service (dev mode): builds every agent against it first, and only when
   * all of them build does anything change — cards, authenticators, signers and executors
   * together. Throws, changing nothing, when one does not build. Agents added or removed need a
   * restart (their routes and stores are fixed at start); the rest is applied and they are reported.
   */
  async reload(config: HostConfig): Promise<ReloadReport> {
    const { state } = this;
    const parts = await buildHostParts(config, state.parts.env, state.options.onMcpLog);
    const prepared: { id: string; update: PreparedUpdate }[] = [];
    const problems: DefinitionProblem[] = [];
    try {
      for (const definition of config.agents) {
        const mounted = state.agents.get(definition.id);
        if (mounted === undefined) continue;
        try {
          prepared.push({ id: definition.id, update: await mounted.prepare(definition, parts) });
        } catch (error) {
          if (!(error instanceof DefinitionError)) throw error;
          problems.push(...error.problems);
        }
      }
      if (problems.length > 0) throw new DefinitionError(problems);
    } catch (error) {
      for (const { update } of prepared) await update.discard();
      throw error;
    }
    const before = state.parts.config;
    const host = HOST_SECTIONS.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(config[key]));
    for (const { update } of prepared) update.apply();
    state.parts = parts;
    state.jwks = undefined;
    for (const view of state.views) view.refresh();
    const ids = new Set(config.agents.map((a) => a.id));
    const added = [...ids].filter((id) => !state.agents.has(id));
    const removed = [...state.agents.keys()].filter((id) => !ids.has(id));
    // The listeners are bound at start with these (decision 0149): a change waits for a restart.
    const listening = LISTEN_SETTINGS.filter((key) => before[key] !== config[key]);
    const pending = [
      ...added.map((id) => `agent "${id}" was added: restart the host to serve it`),
      ...removed.map((id) => `agent "${id}" was removed: restart the host to stop serving it`),
      ...listening.map(
        (key) => `${key} changed: restart the host to apply it (a flag or environment variable still wins)`,
      ),
    ];
    return { changed: prepared.filter((p) => p.update.changed).map((p) => p.id), host, pending };
  }

  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    // Cards advertise the public listener; the internal view only learns its own address.
    if (this.view === 'public') {
      for (const [id, agent] of this.state.agents) {
        agent.server.setBaseUrl(`${this.baseUrl}agents/${encodeURIComponent(id)}/`);
      }
    }
    this.refresh();
  }

  async handle(request: HttpRequest): Promise<HttpResponse> {
    const { path } = request;
    const { state } = this;
    if (path.startsWith(AGENTS_PREFIX)) return this.toAgent(request);
    if (path === '/agents' || path === '/agents/') {
      const response = this.json(200, listing(this.listed(request.proxied?.base)));
      if (request.proxied !== undefined) response.headers.vary = FORWARDING_VARY;
      return response;
    }
    if (path === '/.well-known/jwks.json' && state.parts.signingKeys.length > 0) {
      state.jwks ??= publicJwks(state.parts.signingKeys).then((jwks) => JSON.stringify(jwks));
      return cacheableJson(request, await state.jwks, { maxAgeSeconds: 300 });
    }
    if (path === AI_CATALOG_PATH && state.parts.config.aiCatalog !== false) return this.catalog(request);
    if (this.rootAgent !== undefined) return this.rootAgent.handle(request);
    if (path === '/.well-known/agent-card.json' || path === '/.well-known/agent.json') {
      return this.directoryCard(request);
    }
    return notFound(`Nothing is served at ${path}; the agents are listed at /agents`);
  }

  /**
   * A request the listener refused unread (decision 0146): an agent's path is answered in that
   * agent's envelopes, like its requests; the host's own paths in the HTTP+JSON 1.0 one.
   */
  refusal(error: A2AError, request: RefusedRequest): HttpBodyResponse {
    const path = request.path ?? '';
    if (path.startsWith(AGENTS_PREFIX)) {
      const rest = path.slice(AGENTS_PREFIX.length);
      const slash = rest.indexOf('/');
      let id: string;
      try {
        id = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash));
      } catch {
        id = '';
      }
      const agent = this.state.agents.get(id);
      // An agent this listener does not show is not told apart from one that does not exist.
      if (agent !== undefined && (this.view === 'internal' || agent.definition.exposed)) {
        return agent.server.refusal(error, { ...request, path: slash === -1 ? '/' : rest.slice(slash) });
      }
    } else if (this.rootAgent !== undefined && path !== '/agents') {
      return this.rootAgent.refusal(error, request);
    }
    return this.json(error.entry.httpStatus, toRestErrorBody(error));
  }

  /**
   * True when `request` carries credentials one of the host's schemes accepts (any scope): who
   * may read the details of `/readyz` besides loopback callers (decision 0158).
   */
  async authenticates(request: HttpRequest): Promise<boolean> {
    return (await this.identify(request)) !== undefined;
  }

  /**
   * The caller `request`'s credentials prove, by any of the host's schemes (any scope), or
   * undefined: who signed in to the console (decision 0159). Undefined on a host without schemes.
   */
  async identify(request: HttpRequest): Promise<HostIdentity | undefined> {
    const { auth, config } = this.state.parts;
    if (auth === undefined || config.security === undefined) return undefined;
    const alternatives = Object.keys(config.security.schemes).map((name) => ({ [name]: [] }));
    try {
      return await auth.authenticate(request, alternatives);
    } catch {
      return undefined;
    }
  }

  /** Which listener this view serves: the public one, or the internal one that shows every agent. */
  get listener(): 'public' | 'internal' {
    return this.view;
  }

  /** The cluster this host is an instance of, if any. */
  get cluster(): Cluster | undefined {
    return this.state.options.cluster;
  }

  /** Closes every agent's store and MCP connections. */
  async close(): Promise<void> {
    if (this.view === 'internal') return;
    for (const agent of this.state.agents.values()) await agent.close();
    await this.state.options.cluster?.close();
  }

  /** Recomputes what depends on the shown agents and the state: the root agent, the directory card. */
  private refresh(): void {
    const lone = this.shown();
    this.rootAgent = lone.length === 1 ? lone[0]!.alias(this.baseUrl) : undefined;
    this.directory = new Map();
  }

  private async directoryCard(request: HttpRequest): Promise<HttpResponse> {
    let version: ProtocolVersion;
    try {
      version = negotiateVersion(request.header('a2a-version') ?? request.query.get('A2A-Version'));
    } catch {
      version = '1.0';
    }
    const base = request.proxied?.base;
    const key = `${version} ${base ?? ''}`;
    let body = this.directory.get(key);
    if (body === undefined) {
      body = directoryCardJson(this.state.parts, this.listed(base), version);
      // A failed signing is not kept: the next request tries again.
      body.catch(() => this.directory.delete(key));
      // Forwarding headers come from the network: a few forwarded bases are kept, not every one.
      if (this.directory.size >= 32) this.directory.delete(this.directory.keys().next().value!);
      this.directory.set(key, body);
    }
    const vary = request.proxied === undefined ? 'A2A-Version' : `A2A-Version, ${FORWARDING_VARY}`;
    return cacheableJson(request, await body, { maxAgeSeconds: 300, vary });
  }

  /**
   * The AI Catalog (decision 0167): the agents this caller may reach, exposed ones for everyone
   * and unexposed ones for a caller with the internal scope (as `toAgent` lets it through).
   */
  private async catalog(request: HttpRequest): Promise<HttpResponse> {
    const base = request.proxied?.base ?? this.baseUrl;
    const reachable: ListedAgent[] = [];
    let internal: boolean | undefined;
    for (const agent of this.state.agents.values()) {
      if (this.view === 'public' && !agent.definition.exposed) {
        // Asked once, and only when there is an unexposed agent to show.
        internal ??= await this.mayReach(agent, request);
        if (!internal) continue;
      }
      reachable.push({
        definition: agent.definition,
        url: `${base}agents/${encodeURIComponent(agent.definition.id)}/`,
      });
    }
    const { config } = this.state.parts;
    const vary =
      request.proxied === undefined ? catalogVary(config) : `${catalogVary(config)}, ${FORWARDING_VARY}`;
    return cacheableJson(request, aiCatalogJson(config, reachable, base), {
      maxAgeSeconds: 60,
      vary,
      contentType: AI_CATALOG_MEDIA_TYPE,
      private: true,
    });
  }

  private async toAgent(request: HttpRequest): Promise<HttpResponse> {
    const rest = request.path.slice(AGENTS_PREFIX.length);
    const slash = rest.indexOf('/');
    const id = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash));
    const agent = this.state.agents.get(id);
    if (agent === undefined || !(await this.mayReach(agent, request))) {
      return notFound(`No agent "${id}" here; the agents are listed at /agents`);
    }
    const sub = slash === -1 ? '/' : rest.slice(slash);
    const inner = requestBelow(request, sub, `/agents/${encodeURIComponent(id)}`);
    if (sub === '/contracts' || sub.startsWith('/contracts/')) {
      return handleContracts(inner, sub, agent.definition);
    }
    const owners = {
      config: this.state.parts.config,
      auth: this.state.parts.auth,
      internal: this.view === 'internal',
    };
    if (sub === '/approvals' || sub.startsWith('/approvals/'))
      return handleApprovals(inner, sub, agent.server, owners);
    if (sub === '/push' || sub.startsWith('/push/')) return handlePushDeliveries(inner, sub, agent, owners);
    if (sub === '/evidence' || sub.startsWith('/evidence/')) return handleEvidence(inner, sub, agent, owners);
    return agent.server.handle(inner);
  }

  /** Unexposed agents: internal listener, or a caller holding the internal scope. */
  private async mayReach(agent: MountedAgent, request: HttpRequest): Promise<boolean> {
    if (this.view === 'internal' || agent.definition.exposed) return true;
    const { auth, config } = this.state.parts;
    const security = config.security;
    if (auth === undefined || security === undefined) return false;
    const scope = security.internalScope;
    const alternatives = Object.keys(security.schemes).map((name) => ({ [name]: [scope] }));
    try {
      return (await auth.authenticate(request, alternatives)) !== undefined;
    } catch {
      return false;
    }
  }

  private shown(): MountedAgent[] {
    return [...this.state.agents.values()].filter((a) => this.view === 'internal' || a.definition.exposed);
  }

  /** The shown agents at `base` (a trusted proxy's forwarded base URL), else the listener's. */
  private listed(base = this.baseUrl): ListedAgent[] {
    return this.shown().map((agent) => ({
      definition: agent.definition,
      url: `${base}agents/${encodeURIComponent(agent.definition.id)}/`,
    }));
  }

  private json(status: number, body: unknown): HttpBodyResponse {
    return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  }
}

function notFound(message: string): HttpResponse {
  return {
    status: 404,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify(toRestErrorBody(new A2AError('MethodNotFoundError', message))),
  };
}
