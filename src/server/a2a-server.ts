/**
 * `createA2AServer`: one agent served on every binding and version at once — JSON-RPC at the base
 * URL, HTTP+JSON below it (1.0 routes, 0.3 `/v1` routes), the card at the well-known URI — with
 * the version chosen per request from `A2A-Version` (A2A 1.0 §3.6.2; decision 0001). Transport-neutral: the
 * adapters (node:http, fetch, express) feed it HttpRequests.
 */
import {
  A2AError,
  checkMaxJsonDepth,
  DEFAULT_MAX_JSON_DEPTH,
  negotiateVersion,
  toA2AError,
  type AgentCard,
  type ProtocolVersion,
  type WireCodec,
} from '../protocol/internal.js';
import { createMemoryTaskStore, type TaskStore } from '../store/index.js';
import type { AgentExecutor, AgentSender } from './agent-executor.js';
import type { CallContext } from './call-context.js';
import type { ContractGate } from './contracts/contract-gate.js';
import { AGENT_CARD_PATHS } from './http/agent-card-endpoint.js';
import { CardViews, type CardSettings, type ExtendedCardWire } from './cards/card-views.js';
import type { AgentCardInput, CardDecorator, CardSigner } from './cards/served-card.js';
import {
  activateExtensions,
  authenticateChallenge,
  extensionHeaderName,
  setupCall,
  type Authenticator,
} from './http/call-setup.js';
import {
  requestBelow,
  type HttpApp,
  type HttpBodyResponse,
  type HttpRequest,
  type HttpResponse,
  type RefusedRequest,
} from './http/http-types.js';
import { refusalResponse } from './http/refusals.js';
import { cacheableJson } from './http/cacheable-json.js';
import { FORWARDING_VARY } from './http/forwarded.js';
import type { ErrorMapper } from './http/error-mapping.js';
import { handleJsonRpc, jsonRpcErrorResponse, readableRequestId } from './http/json-rpc-binding.js';
import { handleRest, restErrorResponse } from './http/rest-binding.js';
import { RequestHandler, type MessageAdmission, type RequestHandlerOptions } from './request-handler.js';
import type { IdempotencyOptions } from './operations/idempotent-sends.js';
import {
  joinedHooks,
  type DocumentBuilder,
  type ServerExtension,
  type ServerHooks,
} from './server-extension.js';
import { PushNotifications, type PushOptions } from './push/push-notifications.js';
import type { Cluster } from './cluster/cluster.js';
import type { OrphanPolicy } from './task-run/orphan-settling.js';
import { createErrorReporter, reportIfInternal, type ErrorReporter } from './common/error-reporting.js';

/** Where a server with push publishes its delivery-signing key (decision 0089). */
export const JWKS_PATH = '/.well-known/jwks.json';

export { defaultInterfaces, type AgentCardInput } from './cards/served-card.js';

/** Options of `createA2AServer`. */
export interface A2AServerOptions {
  agentCard: AgentCardInput;
  executor: AgentExecutor;
  /** Defaults to an in-memory store (not durable; use the SQLite store for that). */
  store?: TaskStore | undefined;
  /** Public base URL; when absent, `listen()` fills it in from the bound address. */
  baseUrl?: string | undefined;
  /**
   * The `host:port` of a gRPC listener serving this agent; the card then lists the gRPC interfaces.
   * `listenGrpc` (concord/server/grpc) sets it once bound.
   */
  grpcTarget?: string | undefined;
  extendedAgentCard?: AgentCardInput | undefined;
  /** Resolves callers from credentials (the card's securityRequirements then make it mandatory). */
  authenticate?: Authenticator | undefined;
  /** Maximum request body in bytes; larger bodies get 413 (default 1 MiB). */
  maxBodyBytes?: number | undefined;
  /**
   * How many levels of objects and arrays a request may nest, the request itself being level 1
   * (a JSON-RPC or HTTP+JSON body, the ProtoJSON form of a gRPC message): default 32, at most
   * 1000, and at most 40 on a server that `listenGrpc` serves, so every binding can encode what
   * was accepted. Deeper requests get InvalidParamsError (-32602, HTTP 400, gRPC INVALID_ARGUMENT)
   * naming the bound and the JSON Pointer of the first object or array past it (decision 0144).
   */
  maxJsonDepth?: number | undefined;
  /** Idle SSE streams get a comment this often (default 15 s; 0 disables). */
  heartbeatMs?: number | undefined;
  /** `Cache-Control: max-age` of the card (default 300 s). */
  cardMaxAgeSeconds?: number | undefined;
  /**
   * Receives errors that have no caller, and every error a binding answers as internal (-32603,
   * HTTP 500, gRPC INTERNAL), each once. The library itself never logs.
   */
  onError?: ((error: unknown, where: string) => void) | undefined;
  /** Checks each send before the agent sees it (per-skill authorization, mandates). */
  admitMessage?: MessageAdmission | undefined;
  /**
   * Which sends are retries of an earlier one (decisions 0091, 0133). Always: a repeated
   * `Idempotency-Key` header (gRPC metadata `idempotency-key`) from the same caller.
   * `{ messageId: true }` also makes a repeated messageId without that header a retry (A2A 1.0
   * §3.3.1 allows it); off by default, because clients recycle message ids for new messages.
   */
  idempotency?: IdempotencyOptions | undefined;
  /** The agent's typed message contracts (`concord-a2a/contracts` builds them from the schemas). */
  contracts?: ContractGate | undefined;
  /** Lets executors send to other agents (`context.agents`); the agent host provides one. */
  agents?: AgentSender | undefined;
  /**
   * Signs the card as served to each protocol version (A2A 1.0 §8.4): receives the card's wire
   * JSON without `signatures` and returns the signatures to add. Called once per card and version.
   */
  signCard?: CardSigner | undefined;
  /**
   * Adds to the card's wire JSON per protocol version, before signing: members a profile needs
   * beside A2A's own (e.g. a profile's spelling of a field, or URLs resolved against the card's
   * interfaces). Must not remove or change what A2A defines.
   */
  decorateCard?: CardDecorator | undefined;
  /**
   * The version of a request without `A2A-Version` (default `0.3`, A2A 1.0 §3.6.1). A profile
   * that is defined on 1.0 only (AAP) sets `1.0`, so its documented calls work as written.
   */
  defaultVersion?: ProtocolVersion | undefined;
  /**
   * Restates errors before they are encoded, on both bindings: an extension maps Concord's
   * errors into its own table (protocol `defineErrorTable` / `TableError`). Called once per error.
   */
  mapError?: ErrorMapper | undefined;
  /**
   * Extra JSON documents served on GET at exact paths below the base URL (e.g. a profile's
   * `/.well-known/...` manifest), built once per base URL from the card as served.
   */
  documents?: Record<string, DocumentBuilder> | undefined;
  /**
   * Push notifications (A2A 1.0 §3.1.7-3.1.10, §4.3.3): config CRUD on every binding and version,
   * signed deliveries from the store's durable outbox with retries and an SSRF guard. The card
   * says `pushNotifications: true` only with these; the store must keep push configs (memory and
   * SQLite do). Deliveries start once the base URL is known (`baseUrl`, or `listen()`).
   */
  push?: PushOptions | undefined;
  /**
   * Path prefixes (e.g. `/a2a`) below which every route of this server is served as well, for
   * profiles that document their endpoint under such a path. The card keeps naming the base URL.
   */
  pathPrefixes?: string[] | undefined;
  /**
   * A2A extensions (A2A 1.0 §4.6) plugged in through `ServerExtension`: declared on the card, run on
   * every send after `admitMessage`, offered to the agent as `context.extensions`, with documents
   * served as `documents` are (server-extension.ts, decision 0054), and error mappers, card
   * decorators, a default version and path prefixes joined with the options above (decision 0154).
   */
  extensions?: readonly ServerExtension[] | undefined;
  /**
   * Makes this server one instance of several sharing `store` (decision 0110): streams follow
   * tasks running on other instances, cancels reach the instance that runs the agent, and tasks of
   * an instance that stopped are settled. `createCluster` makes it, once per process; the caller
   * closes it after the servers.
   */
  cluster?: Cluster | undefined;
  /** This agent's key on the cluster's bus when one process serves several agents (default `''`). */
  clusterKey?: string | undefined;
  /**
   * Without a cluster, on a store that outlives its process (SQLite): what becomes of tasks an
   * earlier process left submitted or working when it stopped. `'fail'` (the default) fails them
   * with a status message saying the server stopped; `'resume'` runs the executor again with each
   * task's last user message, for agents written to be re-entered (decision 0119).
   */
  orphans?: OrphanPolicy | undefined;
  /**
   * Those tasks are settled once this settles (default: as the server is built). A host passes
   * "every agent is mounted", so a resumed agent can send to its siblings.
   */
  recoverAfter?: Promise<unknown> | undefined;
}

export type { DocumentBuilder } from './server-extension.js';

/** The server options the RequestHandler takes as they are: each is named once, here. */
const HANDLER_OPTIONS = [
  'executor',
  'admitMessage',
  'idempotency',
  'contracts',
  'agents',
  'extensions',
  'cluster',
  'clusterKey',
  'orphans',
  'recoverAfter',
] as const satisfies readonly (keyof A2AServerOptions & keyof RequestHandlerOptions)[];

/** Those options, typed from the server's options (the handler's must accept each as given). */
type HandlerOptions = Pick<A2AServerOptions, (typeof HANDLER_OPTIONS)[number]>;

/** The handler options given to the server; one left undefined is left out. */
function handlerOptions(options: A2AServerOptions): HandlerOptions {
  const picked: Partial<HandlerOptions> = {};
  for (const name of HANDLER_OPTIONS) {
    if (options[name] !== undefined) Object.assign(picked, { [name]: options[name] });
  }
  return picked as HandlerOptions;
}

/** A ready-to-mount A2A server for one agent. */
export class A2AServer implements HttpApp {
  /** The transport-neutral handler (also usable directly, in-process). */
  readonly handler: RequestHandler;
  readonly store: TaskStore;
  readonly maxBodyBytes: number;
  /** How deeply a request may nest (`maxJsonDepth`). */
  readonly maxJsonDepth: number;
  /**
   * Hands an error to `onError` (once per error): for bindings outside the HTTP router (gRPC) to
   * report what they answer as internal.
   */
  readonly reportError: ErrorReporter;
  /** The cards as served at the base URL, and at forwarded ones (decision 0149). */
  private readonly views: CardViews;
  private options: A2AServerOptions;
  private baseUrl: string | undefined;
  /** False for an alias: the handler (and its store) belong to the server it was made from. */
  private readonly ownsHandler: boolean;
  private readonly heartbeatMs: number;
  private readonly extensions: readonly ServerExtension[];
  /** `mapError`, `decorateCard`, `defaultVersion`, `pathPrefixes`, with the extensions' (0154). */
  private readonly hooks: ServerHooks;
  /** `documents` and the extensions' documents, by path. */
  private readonly documentBuilders: Record<string, DocumentBuilder>;
  /** What both bindings get on every call; built once, not per request. */
  private readonly bindingOptions: {
    handler: RequestHandler;
    heartbeatMs: number;
    setup: (req: HttpRequest, v: ProtocolVersion, tenant?: string) => Promise<CallContext>;
    mapError?: ErrorMapper | undefined;
    maxJsonDepth: number;
    report: ErrorReporter;
    renderCard: (codec: WireCodec, version: ProtocolVersion, request: HttpRequest) => Promise<unknown>;
    agentName: () => string;
  };
  private readonly prefixes: string[];
  /** Push notifications, shared with aliases (one dispatcher per store). */
  readonly push: PushNotifications | undefined;

  /** `shared` is internal: the server an alias is made from (see `alias`). */
  constructor(options: A2AServerOptions, shared?: A2AServer) {
    this.ownsHandler = shared === undefined;
    this.options = options;
    this.store = shared?.store ?? options.store ?? createMemoryTaskStore();
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.maxJsonDepth = checkMaxJsonDepth(options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
    // An alias answers for the same handler: one reporter, so an error reaches the hook once.
    this.reportError = shared?.reportError ?? createErrorReporter(options.onError);
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.baseUrl = options.baseUrl;
    this.extensions = options.extensions ?? [];
    this.hooks = joinedHooks(options, this.extensions);
    // The server's own documents win over an extension's at the same path.
    this.documentBuilders = Object.assign(
      {},
      ...this.extensions.map((extension) => extension.documents ?? {}),
      options.documents,
    ) as Record<string, DocumentBuilder>;
    this.push = shared !== undefined ? shared.push : this.createPush(options);
    this.views = new CardViews(this.cardSettings(), options.baseUrl);
    const { card, extended } = this.views.main;
    this.handler =
      shared?.handler ??
      new RequestHandler({
        agentCard: card,
        store: this.store,
        onError: this.reportError,
        ...handlerOptions(options),
        push: this.push,
        extendedAgentCard: extended,
      });
    const authenticate = options.authenticate;
    this.bindingOptions = {
      handler: this.handler,
      heartbeatMs: this.heartbeatMs,
      // Reads the card at call time: setBaseUrl() may replace it after construction.
      setup: (req, v, tenant = '') =>
        setupCall(req, v, tenant, {
          card: this.views.main.card,
          authenticate,
        }),
      mapError: this.hooks.mapError,
      maxJsonDepth: this.maxJsonDepth,
      report: this.reportError,
      agentName: () => this.views.main.card.name,
      // The handler answered, so the caller may have it: the card as this URL serves it, signed.
      renderCard: (codec, version, request) =>
        this.views.for(request).extendedCardJson({
          key: codec,
          version,
          encode: (c) => codec.encodeAgentCard(c),
        }),
    };
    this.prefixes = (this.hooks.pathPrefixes ?? []).map((prefix) => checkPrefix(prefix));
    if (this.ownsHandler && options.baseUrl !== undefined) this.startPush();
  }

  private createPush(options: A2AServerOptions): PushNotifications | undefined {
    if (options.push === undefined) return undefined;
    const pushStore = this.store.push;
    if (pushStore === undefined) {
      throw new TypeError('push: the task store keeps no push configs; use the memory or the SQLite store');
    }
    return new PushNotifications(pushStore, options.push, this.reportError);
  }

  /** Deliveries are signed as issued by this server's base URL, so they wait until it is known. */
  private startPush(): void {
    this.push?.start(() => this.baseUrl ?? 'http://localhost/');
  }

  /** The public card as served to 1.0 clients. */
  get agentCard(): AgentCard {
    return this.views.main.card;
  }

  /**
   * The extended card (once the handler granted it) as another binding writes it (gRPC), signed
   * over that wire JSON like the public card (decision 0149).
   */
  extendedCardJson(wire: ExtendedCardWire): Promise<Record<string, unknown>> {
    return this.views.main.extendedCardJson(wire);
  }

  /** What every view of the cards is built from, per the current options. */
  private cardSettings(): CardSettings {
    const { options } = this;
    return {
      agentCard: options.agentCard,
      extendedAgentCard: options.extendedAgentCard,
      facts: {
        extensions: this.extensions,
        grpcTarget: options.grpcTarget,
        push: this.push !== undefined,
        headerless: this.hooks.defaultVersion,
      },
      signer: options.signCard,
      decorate: this.hooks.decorateCard,
      defaultVersion: this.hooks.defaultVersion,
      maxAgeSeconds: options.cardMaxAgeSeconds ?? 300,
      report: this.reportError,
    };
  }

  /** Sets the public base URL once known (listen on port 0); interfaces given explicitly win. */
  setBaseUrl(baseUrl: string): void {
    if (this.options.baseUrl !== undefined) return;
    this.baseUrl = baseUrl;
    this.rebuildCards();
    if (this.ownsHandler) this.startPush();
  }

  /**
   * Replaces the card (and extended card) while serving, e.g. when the agent's definition file
   * changed. The next card request gets the new body and a new ETag; running tasks are unaffected.
   */
  updateCard(agentCard: AgentCardInput, extendedAgentCard?: AgentCardInput): void {
    const { extendedAgentCard: _old, ...rest } = this.options;
    this.options = Object.assign(
      {},
      rest,
      { agentCard },
      extendedAgentCard === undefined ? {} : { extendedAgentCard },
    );
    this.rebuildCards();
  }

  /**
   * Lists (or, with `undefined`, withdraws) the gRPC interfaces at `target` (`host:port`) on the
   * card; `listenGrpc` calls it once its listener is bound, and again when it closes.
   */
  setGrpcTarget(target: string | undefined): void {
    const { grpcTarget: _old, ...rest } = this.options;
    this.options = target === undefined ? rest : Object.assign({}, rest, { grpcTarget: target });
    this.rebuildCards();
  }

  /** The `host:port` of the gRPC listener serving this agent, if one is bound. */
  get grpcTarget(): string | undefined {
    return this.options.grpcTarget;
  }

  /**
   * The call context of a request arriving on another binding (gRPC reads its metadata as
   * headers): required extensions checked, the caller authenticated as on HTTP.
   */
  setupCall(request: HttpRequest, version: ProtocolVersion, tenant = ''): Promise<CallContext> {
    return this.bindingOptions.setup(request, version, tenant);
  }

  /** The server's `mapError` hook, for bindings outside the HTTP router (gRPC). */
  get errorMapper(): ErrorMapper | undefined {
    return this.hooks.mapError;
  }

  private rebuildCards(): void {
    this.views.rebuild(this.cardSettings(), this.baseUrl);
    if (!this.ownsHandler) return;
    this.handler.replaceCards(this.views.main.card, this.views.main.extended);
  }

  /** Handles one HTTP exchange. Never throws: every failure becomes a protocol error response. */
  async handle(request: HttpRequest): Promise<HttpResponse> {
    try {
      return await this.route(request);
    } catch (error) {
      // The bindings answer their own failures; this is what fails around them (a card signer,
      // the JWKS, a document), answered 500 and reported rather than left to the adapter.
      reportIfInternal(error, this.reportError, () => `HTTP ${request.method} ${request.path}`);
      return restErrorResponse(toA2AError(error), '1.0', { request });
    }
  }

  private async route(request: HttpRequest): Promise<HttpResponse> {
    // Clients joining `url + "/message:send"` to a URL that ends in `/` send `//message:send`;
    // the doubled slash is read as one (decision 0138).
    if (request.path.startsWith('//'))
      return this.route(requestBelow(request, request.path.replace(/^\/+/, '/'), ''));
    if (AGENT_CARD_PATHS.includes(request.path)) return this.views.for(request).endpoint.handle(request);
    if (request.path === JWKS_PATH && this.push !== undefined && request.method === 'GET') {
      return cacheableJson(request, await this.push.signer.jwksJson(), { maxAgeSeconds: 300 });
    }
    const prefixed = this.prefixes.length === 0 ? undefined : this.unprefixed(request);
    if (prefixed !== undefined) return this.route(prefixed);
    const document = Object.hasOwn(this.documentBuilders, request.path)
      ? this.documentBuilders[request.path]
      : undefined;
    if (document !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
      return this.serveDocument(request, document);
    }
    const jsonRpc = request.method === 'POST' && (request.path === '/' || request.path === '');
    const mapError = this.hooks.mapError;
    let version: ProtocolVersion;
    let requested: string | null | undefined;
    try {
      requested = jsonRpc
        ? request.header('a2a-version')
        : (request.header('a2a-version') ?? request.query.get('A2A-Version'));
      version = this.negotiate(requested);
    } catch (error) {
      // The client asked for a version we do not speak; answer in the newest form.
      return this.withChallenge(
        jsonRpc
          ? jsonRpcErrorResponse(await readableRequestId(request), error, '1.0', undefined, mapError)
          : restErrorResponse(error, '1.0', mapError === undefined ? { request } : { request, mapError }),
      );
    }
    try {
      checkContentType(request);
    } catch (error) {
      return jsonRpc
        ? jsonRpcErrorResponse(null, error, version, undefined, mapError, true)
        : restErrorResponse(error, version, { request, framing: true });
    }
    const headers = this.echoHeaders(request);
    const common =
      headers === undefined ? this.bindingOptions : Object.assign({}, this.bindingOptions, { headers });
    if (jsonRpc) {
      const headerless = this.hooks.defaultVersion === undefined && (requested ?? '').trim() === '';
      return this.withChallenge(await handleJsonRpc(request, version, common, headerless));
    }
    const rest = await handleRest(request, version, common);
    if (rest !== undefined) return this.withChallenge(rest);
    const hint =
      version === '0.3' ? ' (0.3 REST routes start with /v1; send A2A-Version: 1.0 for the 1.0 routes)' : '';
    return restErrorResponse(
      new A2AError('MethodNotFoundError', `No A2A operation at ${request.method} ${request.path}${hint}`, {
        metadata: { method: request.method, path: request.path },
      }),
      version,
      { request, framing: true },
    );
  }

  /** A request the listener refused unread, in the envelope of its binding (decision 0146). */
  refusal(error: A2AError, request: RefusedRequest): HttpBodyResponse {
    return refusalResponse(error, request, {
      negotiate: (requested) => this.negotiate(requested),
      prefixes: this.prefixes,
    });
  }

  /** The version of a request: its header, or the server's default when it sent none. */
  private negotiate(requested: string | null | undefined): ProtocolVersion {
    const { defaultVersion } = this.hooks;
    if (defaultVersion !== undefined && (requested ?? '').trim() === '') return defaultVersion;
    return negotiateVersion(requested);
  }

  /** The request seen from below one of `pathPrefixes`, or undefined when it is not below one. */
  private unprefixed(request: HttpRequest): HttpRequest | undefined {
    const prefix = this.prefixes.find((p) => request.path === p || request.path.startsWith(`${p}/`));
    if (prefix === undefined) return undefined;
    // The card keeps naming the base URL, not the prefix.
    return requestBelow(request, request.path.slice(prefix.length) || '/', prefix, '');
  }

  private serveDocument(request: HttpRequest, build: DocumentBuilder): HttpResponse {
    let body: string;
    try {
      body = this.views.for(request).document(request.path, build);
    } catch (error) {
      this.reportError(error, `document ${request.path}`);
      return restErrorResponse(new A2AError('InternalError'), '1.0', { request });
    }
    return cacheableJson(request, body, {
      maxAgeSeconds: this.options.cardMaxAgeSeconds ?? 300,
      ...(request.proxied === undefined ? {} : { vary: FORWARDING_VARY }),
    });
  }

  /**
   * The same agent served at another base URL: same tasks, same running executions (a cancel sent
   * to either reaches the agent), with a card whose interfaces point at `baseUrl`. The agent host
   * uses it to serve a lone agent both at `/agents/<id>/` and at the root.
   */
  alias(baseUrl: string): A2AServer {
    return new A2AServer(Object.assign({}, this.options, { baseUrl }), this);
  }

  /**
   * Stops accepting work: waits for the push deliveries in flight, then closes the store (an alias
   * leaves both to its origin). Pending deliveries stay in a durable store's outbox for next time.
   */
  async close(): Promise<void> {
    if (!this.ownsHandler) return;
    this.handler.close();
    await this.push?.close();
    await this.store.close();
  }

  private echoHeaders(request: HttpRequest): Record<string, string> | undefined {
    const { activated } = activateExtensions(request, this.views.main.card.capabilities.extensions ?? []);
    if (activated.length === 0) return undefined;
    return { [extensionHeaderName(request)]: activated.join(', ') };
  }

  private withChallenge(response: HttpResponse): HttpResponse {
    if (response.status === 401)
      response.headers['www-authenticate'] = authenticateChallenge(this.views.main.card);
    return response;
  }
}

function checkPrefix(prefix: string): string {
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(prefix)) {
    throw new TypeError(`pathPrefixes: ${JSON.stringify(prefix)} must look like /a2a (no trailing slash)`);
  }
  return prefix;
}

/**
 * Rejects bodies that are declared as something other than JSON: ContentTypeNotSupportedError
 * (-32005, HTTP 400 in A2A 1.0.1 §5.4), which is what the 1.0 conformance kit
 * expects on both HTTP bindings (JSONRPC-SSE-002, HTTP_JSON-STATUS).
 */
function checkContentType(request: HttpRequest): void {
  if (request.method !== 'POST') return;
  const type = request.header('content-type');
  if (type === undefined) return;
  const base = type.split(';')[0]!.trim().toLowerCase();
  if (base === 'application/json' || base === 'application/a2a+json' || base.endsWith('+json')) return;
  throw new A2AError(
    'ContentTypeNotSupportedError',
    `Incompatible content types: Content-Type ${base} is not supported; send application/json`,
    { metadata: { contentType: base } },
  );
}

/** Creates an A2A server for one agent. */
export function createA2AServer(options: A2AServerOptions): A2AServer {
  return new A2AServer(options);
}
