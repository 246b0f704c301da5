/**
 * Starting a host from its definitions: load and validate everything (a bad definition never
 * half-starts the host), open one task store per agent, mount the agents (with the authenticator,
 * the signing keys and the MCP servers of the config), then listen: the public listener, and
 * optionally the internal one (loopback by default). In dev mode the definitions, the config and
 * the handler modules are watched and the host reloaded on change (decision 0022).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  listen,
  type ConnectionOptions,
  type ListenOptions,
  type RunningServer,
} from '../server/adapters/node.js';
import { loadPushKeys, publicBaseUrl, SECRET_KEY_ENV, type PushOptions } from '../server/internal.js';
import type { RetentionOptions, TaskStore } from '../store/index.js';
import { AgentHost } from './agent-host.js';
import { loadHost } from './definitions/index.js';
import type { HostConfig } from './host-config.js';
import { watchDefinitions, type DefinitionWatch, type ReloadOutcome } from './definition-watch.js';
import type { HostExtension } from './host-extensions.js';
import { createRemoteAgents } from './remote-agents.js';
import {
  databaseUrlOf,
  DEFAULT_DATABASE_SCHEMA,
  openTaskStore,
  type PostgresStoreSettings,
  type TaskStoreKind,
} from './task-stores.js';
import { openCluster, type ClusterSetup } from './cluster-setup.js';
import { publicAddressOf } from './public-address.js';
import { loadPeer } from '../peers/index.js';
import { OpsFront, type ReadinessCheck } from './health.js';
import type { MountedAgent } from './mounted-agent.js';
import type { Cluster, HttpApp } from '../server/internal.js';
import { ConsoleAssets } from './console/console-assets.js';
import { ConsoleFront } from './console/console-front.js';
import { TraceIndex } from './console/trace-index.js';

/** Options of `startHost`. */
export interface StartHostOptions {
  port?: number | undefined;
  host?: string | undefined;
  /** Also serve every agent (exposed or not) on this port, bound to `internalHost`. */
  internalPort?: number | undefined;
  /** Default 127.0.0.1: the internal listener is for the host's own clients. */
  internalHost?: string | undefined;
  /**
   * Also serve the gRPC binding on this port (bound to `host`), for the host's one exposed agent:
   * gRPC has no paths to mount several agents under (decision 0072).
   */
  grpcPort?: number | undefined;
  /**
   * The URL clients reach the HTTP listener at (behind a proxy): the cards list it instead of the
   * bound address; agents below it at `agents/<id>` (decision 0138). Default: the
   * `CONCORD_PUBLIC_URL` environment variable, else the config's `publicUrl` (decision 0149).
   */
  publicUrl?: string | undefined;
  /**
   * Where clients reach the gRPC listener: `host:port`, or a URL when the deployment's 0.3 clients
   * read interface URLs as URLs (decision 0138). Default: `CONCORD_GRPC_PUBLIC_URL`, else the
   * config's `grpcPublicUrl`, else the bound address.
   */
  grpcPublicUrl?: string | undefined;
  /**
   * Trust the proxy's forwarding headers for the scheme and host the cards list (decision 0149).
   * Default: `CONCORD_TRUST_PROXY`, else the config's `trustProxy`, else false.
   */
  trustProxy?: boolean | undefined;
  /**
   * `sqlite` (default): one file per agent under `dataDir`; `memory`: nothing survives;
   * `postgres`: one schema per agent (`<schema>_<agent id>`) in the database of `postgres.url`.
   */
  store?: TaskStoreKind | undefined;
  dataDir?: string | undefined;
  /** For `store: 'postgres'`; the URL defaults to the CONCORD_DATABASE_URL environment variable. */
  postgres?: PostgresStoreSettings | undefined;
  /**
   * Which terminal tasks the sqlite and postgres stores keep (decisions 0103, 0151): by default
   * DEFAULT_RETENTION, 7 days and at most 100,000 per agent; `false` keeps every task. A policy
   * given replaces the default whole.
   */
  retention?: RetentionOptions | false | undefined;
  /**
   * Several instances on one PostgreSQL database (decision 0110): the bus (default `postgres` on a
   * PostgreSQL store, else none), the heartbeat TTL and what happens to a stopped instance's tasks.
   */
  cluster?: ClusterSetup | undefined;
  /**
   * The connection cap and timeouts of the HTTP listeners, the internal one too (decision 0146;
   * `concord serve --max-connections --headers-timeout --idle-timeout`).
   */
  connections?: ConnectionOptions | undefined;
  /** Dev mode: reload the definitions and the host config when a file they come from changes. */
  watch?: boolean | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  /**
   * How many levels of objects and arrays a request to any agent may nest (default 32; at most
   * 40 with `grpcPort`): deeper ones get -32602 naming the bound and where (decision 0144).
   */
  maxJsonDepth?: number | undefined;
  onError?: ((error: unknown, where: string) => void) | undefined;
  /** The A2A extensions agents may enable (`extensions:` in a definition); `concord serve` passes its built-in ones. */
  extensions?: readonly HostExtension[] | undefined;
  /** Reports reloads in dev mode (and definitions that no longer load). */
  onReload?: ((outcome: ReloadOutcome) => void) | undefined;
  /** Receives each line stdio MCP servers write to stderr. */
  onMcpLog?: ((server: string, line: string) => void) | undefined;
  /** Quiet time after the last file event before reloading, in dev mode (default 150 ms). */
  watchDebounceMs?: number | undefined;
  /**
   * Push notifications, on unless `enabled: false` here or in the config's `push`; `allow` adds to
   * the config's `push.allow` (`concord serve --push-allow`).
   */
  push?: { enabled?: boolean; allow?: string[] } | undefined;
  /**
   * The agent hop limit (1-64), overriding the config's `maxAgentHops` (`concord serve
   * --max-agent-hops`; decision 0148).
   */
  maxAgentHops?: number | undefined;
  /** Receives one entry per answered request of every listener (an access log; decision 0158). */
  onAccess?: ListenOptions['onAccess'];
  /** Milliseconds `close()` lets running requests finish before cutting them (default 10 s). */
  shutdownGraceMs?: number | undefined;
  /**
   * Serves `/metrics` (Prometheus text) with what this returns: on the internal listener when
   * there is one, else on the public one (decision 0158). `concord serve --metrics`.
   */
  metrics?: (() => Promise<string>) | undefined;
  /**
   * The Concord Console at `/console/` (decision 0159): on by default on a listener bound to
   * loopback, off on any other unless `enabled: true`; `false` turns it off everywhere.
   */
  console?: HostConsoleOptions | boolean | undefined;
}

/** Options of the console (`concord serve --console`, `--no-console`, `--console-trace-url`). */
export interface HostConsoleOptions {
  /** True: on every listener; false: on none; absent: on loopback listeners. */
  enabled?: boolean | undefined;
  /** A trace viewer's URL with `{traceId}` in it, for the links from a task to its trace. */
  traceUrl?: string | undefined;
  /** Keep each task's trace id for those links (on when the process traces). */
  traces?: boolean | undefined;
}

/** A running host. */
export interface RunningHost {
  host: AgentHost;
  /** The config in service (in dev mode, the last one that loaded). */
  readonly config: HostConfig;
  /** The listener's base URL, ending in `/`. */
  url: string;
  /** The URL the cards advertise instead, when one is set (flag, environment or config). */
  publicUrl?: string;
  /** The internal listener's base URL, when one was asked for. */
  internalUrl?: string;
  /** The gRPC listener's `host:port`, when one was asked for. */
  grpcTarget?: string;
  /** Where the console is served (`<listener>console/`), one per listener that serves it. */
  readonly consoleUrls: readonly string[];
  /** Each agent's task store by agent id (a reload replaces the agent's), e.g. for its schema version. */
  readonly stores: ReadonlyMap<string, TaskStore>;
  /** From now on `/readyz` answers 503, before `close` stops the listeners (decision 0158). */
  drain(): void;
  /** Stops watching, finishes in-flight requests, closes the stores. */
  close(): Promise<void>;
}

/** Builds the host for a loaded config (no listening). */
export async function createHost(
  config: HostConfig,
  options: Pick<
    StartHostOptions,
    | 'store'
    | 'dataDir'
    | 'postgres'
    | 'retention'
    | 'env'
    | 'onError'
    | 'onMcpLog'
    | 'extensions'
    | 'push'
    | 'cluster'
    | 'maxAgentHops'
    | 'maxJsonDepth'
  > = {},
  /** Filled with each agent's store as it opens (a reload replaces the agent's), for readiness. */
  stores: Map<string, TaskStore> = new Map(),
): Promise<AgentHost> {
  const kind = options.store ?? 'sqlite';
  const dataDir = resolve(options.dataDir ?? '.concord');
  // The data directory also keeps the push keys, for PostgreSQL stores too (decision 0088).
  if (kind !== 'memory') mkdirSync(dataDir, { recursive: true });
  const env = options.env ?? process.env;
  const push = await hostPushOptions(config, options.push, kind !== 'memory' ? dataDir : undefined, env);
  const opened: TaskStore[] = [];
  const settings = {
    kind,
    dataDir,
    env,
    postgres: options.postgres,
    retention: options.retention,
    onError: options.onError,
  };
  const storeFor = async (id: string): Promise<TaskStore> => {
    const { store } = await openTaskStore(settings, id);
    opened.push(store);
    stores.set(id, store);
    return store;
  };
  // Joined before any agent can start a run; the host closes it after its agents.
  const { cluster } = await openCluster(
    {
      kind,
      schema: options.postgres?.schema ?? DEFAULT_DATABASE_SCHEMA,
      ...(kind === 'postgres' ? { databaseUrl: databaseUrlOf(settings) } : {}),
    },
    options.cluster,
    { env, onError: options.onError },
  );
  try {
    return await AgentHost.create(config, {
      storeFor,
      cluster,
      ...(cluster === undefined && options.cluster?.orphans !== undefined
        ? { orphans: options.cluster.orphans }
        : {}),
      // Agents send to URLs through Concord's client, SSRF-guarded as `outbound` says (decision 0031).
      remoteAgents: createRemoteAgents(config.outbound),
      env,
      push,
      maxJsonDepth: options.maxJsonDepth,
      onError: options.onError,
      onMcpLog: options.onMcpLog,
      extensions: options.extensions,
      maxAgentHops: options.maxAgentHops,
    });
  } catch (error) {
    for (const store of opened) await store.close();
    await cluster?.close();
    throw error;
  }
}

/**
 * The push options of every agent of the host (decision 0086): keys kept in the data directory
 * (SQLite) or made for the process (memory), the allow list of the config plus the command
 * line's. Deliveries get their own signing key, not a card-signing key: card keys are reloaded
 * and rotated with the config, push options are fixed at start (decision 0089).
 */
async function hostPushOptions(
  config: HostConfig,
  flags: StartHostOptions['push'],
  dir: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<PushOptions | undefined> {
  const settings = config.push ?? { enabled: true, allow: [] };
  if (flags?.enabled === false || !settings.enabled) return undefined;
  const card = config.signing[0];
  const keys = await loadPushKeys({
    dir,
    env: settings.secretKey === undefined ? env : { [SECRET_KEY_ENV]: settings.secretKey },
    ...(card === undefined
      ? {}
      : { signingKey: { kid: card.kid, alg: card.alg, privateKey: card.privateKeyPem } }),
  });
  return {
    ...keys,
    allow: [...settings.allow, ...(flags?.allow ?? [])],
    timeoutMs: settings.timeoutMs,
    retry: settings.retry,
  };
}

/** Loads `target` (directory or config file), mounts its agents and listens. */
export async function startHost(target: string, options: StartHostOptions = {}): Promise<RunningHost> {
  const env = options.env ?? process.env;
  const config = await loadHost(target, { env });
  // Options, else the environment, else the config (decision 0149); checked before anything opens.
  const address = publicAddressOf(options, env, config);
  const publicUrl = address.publicUrl === undefined ? undefined : publicBaseUrl(address.publicUrl);
  const stores = new Map<string, TaskStore>();
  const host = await createHost(config, { ...options, env }, stores);
  const checks = (): ReadinessCheck[] => readinessChecks(stores, host.cluster, host.mounted);
  const authorized = (request: Parameters<AgentHost['authenticates']>[0]) => host.authenticates(request);
  const metrics = options.metrics;
  const consoleSetup = consoleFor(options);
  const publicView = consoleSetup.wrap(host, options.host ?? '127.0.0.1');
  const front = new OpsFront(publicView, {
    checks,
    authorized,
    ...(options.internalPort === undefined ? { metrics } : {}),
  });
  // Bound before the HTTP listener, so the cards list the gRPC interface from the first request.
  const grpc =
    options.grpcPort === undefined
      ? undefined
      : await listenGrpcFor(host, { ...options, ...address, grpcPort: options.grpcPort });
  const served = {
    ...options.connections,
    shutdownGraceMs: options.shutdownGraceMs,
    onAccess: consoleSetup.onAccess(options.onAccess),
  };
  const running: RunningServer = await listen(front, {
    ...served,
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    publicUrl,
    trustProxy: address.trustProxy,
  });
  let internal: RunningServer | undefined;
  let internalFront: OpsFront | undefined;
  let internalView: HttpApp | undefined;
  if (options.internalPort !== undefined) {
    internalView = consoleSetup.wrap(host.internalView(), options.internalHost ?? '127.0.0.1');
    internalFront = new OpsFront(internalView, { checks, authorized, metrics });
    internal = await listen(internalFront, {
      ...served,
      port: options.internalPort,
      host: options.internalHost ?? '127.0.0.1',
    });
  }
  let watch: DefinitionWatch | undefined;
  if (options.watch === true) {
    watch = watchDefinitions(target, host, {
      env,
      onReload: options.onReload,
      debounceMs: options.watchDebounceMs,
    });
  }
  return {
    host,
    stores,
    get config() {
      return host.config;
    },
    url: running.url,
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...(internal === undefined ? {} : { internalUrl: internal.url }),
    ...(grpc === undefined ? {} : { grpcTarget: grpc.target }),
    consoleUrls: [
      ...(publicView instanceof ConsoleFront ? [`${running.url}console/`] : []),
      ...(internal !== undefined && internalView instanceof ConsoleFront ? [`${internal.url}console/`] : []),
    ],
    drain() {
      front.drain();
      internalFront?.drain();
    },
    async close() {
      watch?.close();
      await grpc?.close();
      await internal?.close();
      await running.close();
    },
  };
}

/** Serves the host's one exposed agent over gRPC; more than one cannot share a gRPC port. */
async function listenGrpcFor(
  host: AgentHost,
  options: StartHostOptions,
): Promise<{ target: string; close(): Promise<void> }> {
  const exposed = [...host.mounted.values()].filter((agent) => agent.definition.exposed);
  if (exposed.length !== 1) {
    await host.close();
    throw new Error(
      `--grpc-port serves one agent, and this host exposes ${exposed.length} (${exposed.map((a) => a.definition.id).join(', ') || 'none'}); ` +
        'gRPC has no paths to tell agents apart: run one host per gRPC agent, or serve agents with listenGrpc from concord/server/grpc',
    );
  }
  // Loaded only when asked for: hosts without gRPC never load @grpc/grpc-js.
  const { listenGrpc } = await loadPeer('grpcServer', () => import('../server/grpc/index.js'));
  try {
    return await listenGrpc(exposed[0]!.server, {
      port: options.grpcPort ?? 0,
      host: options.host ?? '127.0.0.1',
      publicTarget: options.grpcPublicUrl,
      shutdownGraceMs: options.shutdownGraceMs,
      onAccess: options.onAccess,
    });
  } catch (error) {
    // Refused (a port in use, a maxJsonDepth gRPC cannot carry): nothing is left running.
    await host.close();
    throw error;
  }
}

/**
 * What `/readyz` checks (decision 0158): each agent's store that can become unreachable answers at
 * its schema version, each agent's MCP servers answer a ping (a stdio server that exited is
 * started again, as the next tool call would), and the cluster, if any, started and hears its bus.
 */
export function readinessChecks(
  stores: Map<string, TaskStore>,
  cluster: Cluster | undefined,
  agents: ReadonlyMap<string, Pick<MountedAgent, 'ready'>> = new Map(),
): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [];
  for (const [id, store] of stores) {
    if (store.ping !== undefined) checks.push({ name: `store:${id}`, check: () => store.ping!() });
  }
  for (const [id, agent] of agents) {
    const ready = agent.ready;
    if (ready !== undefined) checks.push({ name: `mcp:${id}`, check: ready });
  }
  if (cluster !== undefined) checks.push(clusterCheck(cluster));
  return checks;
}

/** The cluster's readiness: its first heartbeat and LISTEN done, not closed, its bus connected. */
export function clusterCheck(cluster: Cluster): ReadinessCheck {
  return {
    name: 'cluster',
    async check() {
      await cluster.ready;
      if (cluster.closed) throw new Error('the instance left the cluster');
      if (cluster.bus.listening?.() === false) throw new Error('the cluster bus is disconnected');
    },
  };
}

/**
 * Where the console is served and what it is given (decision 0159): each listener gets it when
 * `enabled` says so, or by default when bound to loopback. With `traces`, the listeners' access
 * entries feed the index the console links tasks to traces from.
 */
function consoleFor(options: StartHostOptions): {
  wrap(view: AgentHost, bound: string): HttpApp;
  onAccess(hook: StartHostOptions['onAccess']): StartHostOptions['onAccess'];
} {
  const settings =
    typeof options.console === 'boolean' ? { enabled: options.console } : (options.console ?? {});
  const traces = settings.traces === true ? new TraceIndex() : undefined;
  const assets = new ConsoleAssets();
  return {
    wrap(view, bound) {
      const on = settings.enabled ?? isLoopbackHost(bound);
      return on ? new ConsoleFront(view, { traceUrl: settings.traceUrl, traces, assets }) : view;
    },
    onAccess(hook) {
      if (traces === undefined) return hook;
      return (entry) => {
        traces.record(entry);
        hook?.(entry);
      };
    },
  };
}

/** True for a bind address only this machine can reach. */
export function isLoopbackHost(bound: string): boolean {
  const host = bound.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
