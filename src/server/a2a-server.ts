/**
 * `createA2AServer`: one agent served on every binding and version at once — JSON-RPC at the base
 * URL, HTTP+JSON below it (1.0 routes, 0.3 `/v1` routes), the card at the well-known URI — with
 * the version chosen per request from `A2A-Version` (digest §12 item 18). Transport-neutral: the
 * adapters (node:http, fetch, express) feed it HttpRequests.
 */
import {
  A2AError,
  negotiateVersion,
  type AgentCard,
  type AgentInterface,
  type ProtocolVersion,
} from '../protocol/index.js';
import { defaultCardInterfaces } from '../card/index.js';
import { createMemoryTaskStore, type TaskStore } from '../store/index.js';
import type { AgentExecutor, AgentSender } from './agent-executor.js';
import type { CallContext } from './call-context.js';
import type { ContractGate } from './contract-gate.js';
import { AgentCardEndpoint, AGENT_CARD_PATHS, type CardSigner } from './http/agent-card-endpoint.js';
import {
  activateExtensions,
  authenticateChallenge,
  extensionHeaderName,
  setupCall,
  type Authenticator,
} from './http/call-setup.js';
import type { HttpApp, HttpRequest, HttpResponse } from './http/http-types.js';
import { handleJsonRpc, jsonRpcErrorResponse, readableRequestId } from './http/json-rpc-binding.js';
import { handleRest, restErrorResponse } from './http/rest-binding.js';
import { RequestHandler, type MessageAdmission } from './request-handler.js';

/** A card as given by the user: interfaces may be left for the server to fill in. */
export type AgentCardInput = Omit<AgentCard, 'supportedInterfaces'> & {
  supportedInterfaces?: AgentInterface[];
};

/** Options of `createA2AServer`. */
export interface A2AServerOptions {
  agentCard: AgentCardInput;
  executor: AgentExecutor;
  /** Defaults to an in-memory store (not durable; use the SQLite store for that). */
  store?: TaskStore;
  /** Public base URL; when absent, `listen()` fills it in from the bound address. */
  baseUrl?: string;
  extendedAgentCard?: AgentCardInput;
  /** Resolves callers from credentials (the card's securityRequirements then make it mandatory). */
  authenticate?: Authenticator;
  /** Maximum request body in bytes; larger bodies get 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** Idle SSE streams get a comment this often (default 15 s; 0 disables). */
  heartbeatMs?: number;
  /** `Cache-Control: max-age` of the card (default 300 s). */
  cardMaxAgeSeconds?: number;
  /** Receives errors that have no caller. The library itself never logs. */
  onError?: (error: unknown, where: string) => void;
  /** Checks each send before the agent sees it (per-skill authorization, mandates). */
  admitMessage?: MessageAdmission;
  /** The agent's typed message contracts (`concord/contracts` builds them from the schemas). */
  contracts?: ContractGate;
  /** Lets executors send to other agents (`context.agents`); the agent host provides one. */
  agents?: AgentSender;
  /**
   * Signs the card as served to each protocol version (A2A 1.0 §8.4): receives the card's wire
   * JSON without `signatures` and returns the signatures to add. Called once per card and version.
   */
  signCard?: CardSigner;
}

/** The interfaces a Concord server offers at `baseUrl`, preferred first (A2A 1.0 §8.3.1). */
export const defaultInterfaces: (baseUrl: string) => AgentInterface[] = defaultCardInterfaces;

function finishCard(input: AgentCardInput, baseUrl: string | undefined): AgentCard {
  const interfaces =
    input.supportedInterfaces !== undefined && input.supportedInterfaces.length > 0
      ? input.supportedInterfaces
      : defaultInterfaces(baseUrl ?? 'http://localhost/');
  // Capability flags must match behaviour (digest §11 item 6): push is not offered yet.
  const capabilities = { ...input.capabilities, pushNotifications: false };
  return { ...input, supportedInterfaces: interfaces, capabilities };
}

/** A ready-to-mount A2A server for one agent. */
export class A2AServer implements HttpApp {
  /** The transport-neutral handler (also usable directly, in-process). */
  readonly handler: RequestHandler;
  readonly store: TaskStore;
  readonly maxBodyBytes: number;
  private card: AgentCard;
  private cardEndpoint: AgentCardEndpoint;
  private options: A2AServerOptions;
  private baseUrl: string | undefined;
  /** False for an alias: the handler (and its store) belong to the server it was made from. */
  private readonly ownsHandler: boolean;
  private readonly heartbeatMs: number;
  /** What both bindings get on every call; built once, not per request. */
  private readonly bindingOptions: {
    handler: RequestHandler;
    heartbeatMs: number;
    setup: (req: HttpRequest, v: ProtocolVersion, tenant?: string) => Promise<CallContext>;
  };

  /** `shared` is internal: the handler of the server an alias is made from (see `alias`). */
  constructor(options: A2AServerOptions, shared?: RequestHandler) {
    this.ownsHandler = shared === undefined;
    this.options = options;
    this.store = options.store ?? createMemoryTaskStore();
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.baseUrl = options.baseUrl;
    this.card = finishCard(options.agentCard, options.baseUrl);
    this.cardEndpoint = this.newCardEndpoint();
    this.handler =
      shared ??
      new RequestHandler({
        agentCard: this.card,
        executor: options.executor,
        store: this.store,
        ...(options.extendedAgentCard === undefined
          ? {}
          : { extendedAgentCard: finishCard(options.extendedAgentCard, options.baseUrl) }),
        ...(options.onError === undefined ? {} : { onError: options.onError }),
        ...(options.admitMessage === undefined ? {} : { admitMessage: options.admitMessage }),
        ...(options.contracts === undefined ? {} : { contracts: options.contracts }),
        ...(options.agents === undefined ? {} : { agents: options.agents }),
      });
    const authenticate = options.authenticate;
    this.bindingOptions = {
      handler: this.handler,
      heartbeatMs: this.heartbeatMs,
      // Reads this.card at call time: setBaseUrl() may replace it after construction.
      setup: (req, v, tenant = '') =>
        setupCall(req, v, tenant, {
          card: this.card,
          ...(authenticate === undefined ? {} : { authenticate }),
        }),
    };
  }

  /** The public card as served to 1.0 clients. */
  get agentCard(): AgentCard {
    return this.card;
  }

  /** Sets the public base URL once known (listen on port 0); interfaces given explicitly win. */
  setBaseUrl(baseUrl: string): void {
    if (this.options.baseUrl !== undefined) return;
    this.baseUrl = baseUrl;
    this.rebuildCards();
  }

  /**
   * Replaces the card (and extended card) while serving, e.g. when the agent's definition file
   * changed. The next card request gets the new body and a new ETag; running tasks are unaffected.
   */
  updateCard(agentCard: AgentCardInput, extendedAgentCard?: AgentCardInput): void {
    const { extendedAgentCard: _old, ...rest } = this.options;
    this.options = {
      ...rest,
      agentCard,
      ...(extendedAgentCard === undefined ? {} : { extendedAgentCard }),
    };
    this.rebuildCards();
  }

  private rebuildCards(): void {
    this.card = finishCard(this.options.agentCard, this.baseUrl);
    this.cardEndpoint = this.newCardEndpoint();
    if (!this.ownsHandler) return;
    const extended = this.options.extendedAgentCard;
    this.handler.replaceCards(
      this.card,
      extended === undefined ? undefined : finishCard(extended, this.baseUrl),
    );
  }

  private newCardEndpoint(): AgentCardEndpoint {
    return new AgentCardEndpoint(this.card, this.options.cardMaxAgeSeconds ?? 300, this.options.signCard);
  }

  /** Handles one HTTP exchange. Never throws: every failure becomes a protocol error response. */
  async handle(request: HttpRequest): Promise<HttpResponse> {
    if (AGENT_CARD_PATHS.includes(request.path)) return this.cardEndpoint.handle(request);
    const jsonRpc = request.method === 'POST' && (request.path === '/' || request.path === '');
    let version: ProtocolVersion;
    try {
      version = jsonRpc
        ? negotiateVersion(request.header('a2a-version'))
        : negotiateVersion(request.header('a2a-version') ?? request.query.get('A2A-Version'));
    } catch (error) {
      // The client asked for a version we do not speak; answer in the newest form.
      return this.withChallenge(
        jsonRpc
          ? jsonRpcErrorResponse(await readableRequestId(request), error, '1.0')
          : restErrorResponse(error, '1.0'),
      );
    }
    try {
      checkContentType(request);
    } catch (error) {
      return jsonRpc ? jsonRpcErrorResponse(null, error, version) : restErrorResponse(error, version);
    }
    const headers = this.echoHeaders(request);
    const common = headers === undefined ? this.bindingOptions : { ...this.bindingOptions, headers };
    if (jsonRpc) return this.withChallenge(await handleJsonRpc(request, version, common));
    const rest = await handleRest(request, version, common);
    if (rest !== undefined) return this.withChallenge(rest);
    const hint =
      version === '0.3' ? ' (0.3 REST routes start with /v1; send A2A-Version: 1.0 for the 1.0 routes)' : '';
    return restErrorResponse(
      new A2AError('MethodNotFoundError', `No A2A operation at ${request.method} ${request.path}${hint}`, {
        metadata: { method: request.method, path: request.path },
      }),
      version,
    );
  }

  /**
   * The same agent served at another base URL: same tasks, same running executions (a cancel sent
   * to either reaches the agent), with a card whose interfaces point at `baseUrl`. The agent host
   * uses it to serve a lone agent both at `/agents/<id>/` and at the root.
   */
  alias(baseUrl: string): A2AServer {
    return new A2AServer({ ...this.options, baseUrl }, this.handler);
  }

  /** Stops accepting work and closes the store (an alias leaves both to its origin). */
  async close(): Promise<void> {
    if (this.ownsHandler) await this.store.close();
  }

  private echoHeaders(request: HttpRequest): Record<string, string> | undefined {
    const { activated } = activateExtensions(request, this.card.capabilities.extensions ?? []);
    if (activated.length === 0) return undefined;
    return { [extensionHeaderName(request)]: activated.join(', ') };
  }

  private withChallenge(response: HttpResponse): HttpResponse {
    if (response.status === 401) response.headers['www-authenticate'] = authenticateChallenge(this.card);
    return response;
  }
}

/** Rejects bodies that are declared as something other than JSON (415). */
function checkContentType(request: HttpRequest): void {
  if (request.method !== 'POST') return;
  const type = request.header('content-type');
  if (type === undefined) return;
  const base = type.split(';')[0]!.trim().toLowerCase();
  if (base === 'application/json' || base === 'application/a2a+json' || base.endsWith('+json')) return;
  throw new A2AError(
    'UnsupportedMediaTypeError',
    `Content-Type ${base} is not supported; send application/json`,
    {
      metadata: { contentType: base },
    },
  );
}

/** Creates an A2A server for one agent. */
export function createA2AServer(options: A2AServerOptions): A2AServer {
  return new A2AServer(options);
}
