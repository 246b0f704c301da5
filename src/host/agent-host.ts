/**
 * The agent host: every agent of a HostConfig mounted under one listener (issue 3, seed
 * agent-card.md "Shaman Implementation"). Routes:
 *
 * - `/agents/<id>/...`  the agent's A2A server (card, JSON-RPC, HTTP+JSON), per agent;
 * - `/agents`           the listing of the agents this listener shows;
 * - `/.well-known/jwks.json`  the public keys the cards are signed with (when signing);
 * - with one agent: that agent at the root too (card at `/.well-known/agent-card.json`);
 *   with several: a directory card at the root (decision 0015).
 *
 * Two views of the same host: the public one shows `exposed: true` agents, and reaches unexposed
 * ones only for callers authenticated with the internal scope (anyone else gets 404, so their
 * existence is not revealed, A2A 1.0 §13.1); the internal one (the host's own clients, bound to
 * loopback by default) shows every agent.
 */
import type { SigningKey } from '../card/index.js';
import { A2AError, toRestErrorBody } from '../protocol/index.js';
import {
  cacheableJson,
  type A2AServer,
  type HttpApp,
  type HttpRequest,
  type HttpResponse,
} from '../server/index.js';
import type { TaskStore } from '../store/index.js';
import type { HostConfig } from './host-config.js';
import { createAgentSender } from './agent-sender.js';
import { handleApprovals } from './approvals-api.js';
import { handleContracts } from './contracts-api.js';
import { directoryCard, listing, type ListedAgent } from './host-directory.js';
import { mountAgent, type MountedAgent } from './mounted-agent.js';
import type { RemoteAgents } from './remote-agents.js';
import { publicJwks } from './signing-keys.js';
import type { HostAuthenticator } from './security/index.js';

/** Which listener a request came in on. */
export type HostView = 'public' | 'internal';

/** What the host is built from besides its config. */
export interface AgentHostOptions {
  /** The task store of each agent (called once per agent id). */
  storeFor: (agentId: string) => TaskStore;
  auth: HostAuthenticator | undefined;
  signingKeys: SigningKey[];
  env?: NodeJS.ProcessEnv;
  maxBodyBytes?: number;
  onError?: (error: unknown, where: string) => void;
  /** How agents send to URLs (the A2A client); without it they may send to host agents only. */
  remoteAgents?: RemoteAgents;
}

const AGENTS_PREFIX = '/agents/';
const JSON_HEADERS = { 'content-type': 'application/json' };

/** A mounted set of agents; see the file comment. */
export class AgentHost implements HttpApp {
  readonly maxBodyBytes: number;
  private baseUrl = 'http://localhost/';
  private rootAgent: A2AServer | undefined;
  private jwks: Promise<string> | undefined;

  private constructor(
    private config: HostConfig,
    private readonly agents: Map<string, MountedAgent>,
    private readonly options: AgentHostOptions,
    private readonly view: HostView,
  ) {
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  }

  /** Mounts every agent of `config`; throws before anything listens if one cannot be built. */
  static async create(config: HostConfig, options: AgentHostOptions): Promise<AgentHost> {
    const agents = new Map<string, MountedAgent>();
    const onError = options.onError ?? (() => undefined);
    // Senders look agents up when they send, so an agent may send to one mounted after it.
    const local = (id: string) => agents.get(id)?.server.handler;
    for (const definition of config.agents) {
      const mounted = await mountAgent(definition, {
        config,
        store: options.storeFor(definition.id),
        auth: options.auth,
        signingKeys: options.signingKeys,
        env: options.env ?? process.env,
        onError,
        sender: createAgentSender({
          from: definition.id,
          local,
          ...(options.remoteAgents === undefined ? {} : { remote: options.remoteAgents }),
        }),
      });
      agents.set(definition.id, mounted);
    }
    return new AgentHost(config, agents, options, 'public');
  }

  /** The same host as its internal listener sees it (every agent, no internal-scope check). */
  internalView(): AgentHost {
    return new AgentHost(this.config, this.agents, this.options, 'internal');
  }

  /** The mounted agents by id. */
  get mounted(): ReadonlyMap<string, MountedAgent> {
    return this.agents;
  }

  setBaseUrl(baseUrl: string): void {
    this.baseUrl = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    // Cards advertise the public listener; the internal view only learns its own address.
    if (this.view === 'public') {
      for (const [id, agent] of this.agents) {
        agent.server.setBaseUrl(`${this.baseUrl}agents/${encodeURIComponent(id)}/`);
      }
    }
    const lone = this.shown();
    this.rootAgent = lone.length === 1 ? lone[0]!.alias(this.baseUrl) : undefined;
  }

  async handle(request: HttpRequest): Promise<HttpResponse> {
    const { path } = request;
    if (path.startsWith(AGENTS_PREFIX)) return this.toAgent(request);
    if (path === '/agents' || path === '/agents/') return this.json(200, listing(this.listed()));
    if (path === '/.well-known/jwks.json' && this.options.signingKeys.length > 0) {
      this.jwks ??= publicJwks(this.options.signingKeys).then((jwks) => JSON.stringify(jwks));
      return cacheableJson(request, await this.jwks, { maxAgeSeconds: 300 });
    }
    if (this.rootAgent !== undefined) return this.rootAgent.handle(request);
    if (path === '/.well-known/agent-card.json' || path === '/.well-known/agent.json') {
      const card = directoryCard(this.config, this.listed(), request.header('a2a-version'));
      return cacheableJson(request, JSON.stringify(card), { maxAgeSeconds: 300, vary: 'A2A-Version' });
    }
    return notFound(`Nothing is served at ${path}; the agents are listed at /agents`);
  }

  /** Closes every agent's store. */
  async close(): Promise<void> {
    if (this.view === 'internal') return;
    for (const agent of this.agents.values()) await agent.server.close();
  }

  private async toAgent(request: HttpRequest): Promise<HttpResponse> {
    const rest = request.path.slice(AGENTS_PREFIX.length);
    const slash = rest.indexOf('/');
    const id = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash));
    const agent = this.agents.get(id);
    if (agent === undefined || !(await this.mayReach(agent, request))) {
      return notFound(`No agent "${id}" here; the agents are listed at /agents`);
    }
    const sub = slash === -1 ? '/' : rest.slice(slash);
    const inner = below(request, sub, `agents/${encodeURIComponent(id)}`);
    if (sub === '/contracts' || sub.startsWith('/contracts/')) {
      return handleContracts(inner, sub, agent.definition);
    }
    if (sub === '/approvals' || sub.startsWith('/approvals/')) {
      return handleApprovals(inner, sub, agent.server, {
        config: this.config,
        auth: this.options.auth,
        internal: this.view === 'internal',
      });
    }
    return agent.server.handle(inner);
  }

  /** Unexposed agents: internal listener, or a caller holding the internal scope. */
  private async mayReach(agent: MountedAgent, request: HttpRequest): Promise<boolean> {
    if (this.view === 'internal' || agent.definition.exposed) return true;
    const { auth } = this.options;
    const security = this.config.security;
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
    return [...this.agents.values()].filter((a) => this.view === 'internal' || a.definition.exposed);
  }

  private listed(): ListedAgent[] {
    return this.shown().map((agent) => ({
      definition: agent.definition,
      url: `${this.baseUrl}agents/${encodeURIComponent(agent.definition.id)}/`,
    }));
  }

  private json(status: number, body: unknown): HttpResponse {
    return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
  }
}

/** The request as seen from below a mount point. */
function below(request: HttpRequest, path: string, mount: string): HttpRequest {
  return {
    method: request.method,
    path,
    query: request.query,
    header: (name) => request.header(name),
    text: () => request.text(),
    get signal() {
      return request.signal;
    },
    ...(request.origin === undefined ? {} : { origin: `${request.origin}/${mount}` }),
  };
}

function notFound(message: string): HttpResponse {
  return {
    status: 404,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify(toRestErrorBody(new A2AError('MethodNotFoundError', message))),
  };
}
