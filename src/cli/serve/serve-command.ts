/**
 * `concord serve <target> [--port N] [--host H] [--grpc-port N] [--data-dir DIR]
 * [--store sqlite|memory|postgres] [--database-url URL] [--retention AGE|off] [--retention-max-tasks N]
 * [--push-allow <host|cidr>]... [--no-push] [--max-agent-hops N] [--max-json-depth N] [--log-level L]
 * [--log-format json|pretty] [--otlp URL] [--metrics] [--shutdown-grace T]`: serves on the
 * embedded SQLite store (default) or PostgreSQL (decision 0100), with push notifications on
 * (decision 0086), logs with pino, answers /healthz and /readyz, and stops gracefully on SIGTERM /
 * SIGINT (decision 0158). The target is a
 * code agent (a directory with `agent.mjs`/`agent.js`, or the module itself), or agent definitions
 * for the host (a directory of markdown agents and/or `concord.config.json5`, or one such file).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createA2AServer, loadPushKeys, pushAllowProblem, type PushOptions } from '../../server/internal.js';
import { listen, type ConnectionOptions } from '../../server/adapters/node.js';
import { disablePretenuring, limitHeapGrowth } from './process-tuning.js';
import type { RunningGrpcServer } from '../../server/grpc/index.js';
import type { RetentionOptions, TaskStore } from '../../store/index.js';
import {
  DEFAULT_MAX_JSON_DEPTH,
  GRPC_MAX_JSON_DEPTH,
  MAX_JSON_DEPTH_CEILING,
} from '../../protocol/internal.js';
import {
  DATABASE_URL_ENV,
  DEFAULT_DATABASE_SCHEMA,
  openCluster,
  type ClusterSetup,
  databaseUrlOf,
  describeRetention,
  describeTaskStores,
  MAX_AGENT_HOPS,
  openTaskStore,
  parseTaskStoreKind,
  startHost,
  type PostgresStoreSettings,
  type PublicAddress,
  type ReloadOutcome,
  type TaskStoreKind,
} from '../../host/internal.js';
import { HOST_EXTENSIONS } from './host-extensions.js';
import { CLUSTER_OPTIONS, CLUSTER_USAGE, clusterFlags } from './cluster-flags.js';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connectionFlags } from './connection-flags.js';
import { RETENTION_OPTIONS, RETENTION_USAGE, retentionFlags } from './retention-flags.js';
import { isAgentModule, loadAgent, type ExampleRequest } from './load-agent.js';
import { asUsage, UsageError } from '../exit-codes.js';
import { PUBLIC_FLAG_OPTIONS, publicFlags } from './public-flags.js';
import { CONSOLE_OPTIONS, CONSOLE_USAGE, consoleFlags } from './console-flags.js';
import { loadPeer } from '../../peers/index.js';
import { clusterCheck, OpsFront, type ReadinessCheck } from '../../host/internal.js';
import {
  openServeProcess,
  PROCESS_OPTIONS,
  PROCESS_USAGE,
  processSettings,
  shutDown,
  type ServeProcess,
} from './serve-process.js';

/** Usage text of `serve`. */
export const SERVE_USAGE = `Usage: concord serve <agents-dir|config.json5|agent.md|agent-module> [options]

Options:
  --port <n>            port to listen on (default 4000; 0 picks a free port)
  --host <addr>         address to bind (default 127.0.0.1)
  --grpc-port <n>       also serve the gRPC binding (A2A 1.0 and 0.3) on this port (0 picks one)
  --public-url <url>    the URL clients reach the HTTP listener at (behind a proxy); the cards
                        list it instead of the bound address (default: $CONCORD_PUBLIC_URL, else
                        the config's publicUrl)
  --grpc-public-url <u> where clients reach the gRPC listener: host:port, or a URL (then listed
                        as such for 0.3 clients; default: $CONCORD_GRPC_PUBLIC_URL, grpcPublicUrl)
  --trust-proxy         list the scheme and host the proxy's Forwarded / X-Forwarded-* headers
                        name (only if every client comes through it; also $CONCORD_TRUST_PROXY=1)
${CONNECTION_USAGE}
  --data-dir <dir>      where the SQLite task stores (and the push keys) live (default ./.concord)
  --store <kind>        sqlite (default, durable), memory, or postgres (several instances, one database)
  --database-url <url>  the PostgreSQL database of --store postgres (default: $${DATABASE_URL_ENV})
  --database-schema <s> the schema of the tables (default concord; hosted agents get concord_<id>)
  --no-migrate          do not migrate the schema at start (run \`concord db migrate\` first)
${RETENTION_USAGE}
${CLUSTER_USAGE}
  --push-allow <entry>  let webhooks reach this host name, IP or CIDR block although it is private
                        (e.g. 127.0.0.1 for a receiver on this machine); repeatable
  --no-push             do not offer push notifications
  --max-json-depth <n>  refuse requests nesting objects and arrays deeper than this (default
                        ${DEFAULT_MAX_JSON_DEPTH}; at most ${GRPC_MAX_JSON_DEPTH} with --grpc-port)
  --internal-port <n>   also serve every agent, exposed or not, on 127.0.0.1:<n> (host only)
  --max-agent-hops <n>  how many agent-to-agent sends one chain may make, 1-64 (default: the
                        config's maxAgentHops, else 8); a send past it is refused (host only)
  --watch               dev mode: reload when a definition, the config or a handler changes (host only)
${CONSOLE_USAGE}
${PROCESS_USAGE}
  --help                show this help

Every listener also answers /healthz and /readyz (docs/guides/operate.md).`;

/** Runs `serve`; resolves when the server has stopped. */
export async function serveCommand(args: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string', default: '.concord' },
      store: { type: 'string', default: 'sqlite' },
      'database-url': { type: 'string' },
      'database-schema': { type: 'string' },
      'no-migrate': { type: 'boolean', default: false },
      ...RETENTION_OPTIONS,
      ...CLUSTER_OPTIONS,
      ...CONNECTION_OPTIONS,
      'push-allow': { type: 'string', multiple: true },
      'no-push': { type: 'boolean', default: false },
      'max-json-depth': { type: 'string' },
      'internal-port': { type: 'string' },
      'grpc-port': { type: 'string' },
      ...PUBLIC_FLAG_OPTIONS,
      'max-agent-hops': { type: 'string' },
      watch: { type: 'boolean', default: false },
      ...CONSOLE_OPTIONS,
      ...PROCESS_OPTIONS,
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help === true) {
    out(SERVE_USAGE);
    return 0;
  }
  const target = positionals[0];
  if (target === undefined) throw new UsageError(`missing the agent to serve\n\n${SERVE_USAGE}`);
  if (!existsSync(target)) throw new UsageError(`${target}: no such file or directory`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: expected 0-65535, got ${values.port}`);
  const store = asUsage(() => parseTaskStoreKind(values.store ?? 'sqlite'));
  const stores = storeFlags(store, values);
  const cluster = clusterFlags(store, values);
  const connections = connectionFlags(values);
  const grpcPort = portFlag(values['grpc-port'], '--grpc-port');
  const maxJsonDepth = depthFlag(values['max-json-depth'], grpcPort !== undefined);
  const address = publicFlags(values, process.env);
  const pushAllow = values['push-allow'] ?? [];
  for (const entry of pushAllow) {
    const problem = pushAllowProblem(entry);
    if (problem !== undefined) throw new UsageError(`--push-allow: ${problem}`);
  }
  const sinks = { out: process.stdout, err: process.stderr };
  const settings = processSettings(values, process.env, sinks);
  // A serving process, before it loads anything: docs/performance.md, 'No allocation-site
  // pretenuring' and 'Heap growth limit' (the CLI owns the process, so the policy is its own).
  disablePretenuring();
  limitHeapGrowth();
  const proc = await openServeProcess(settings, sinks);
  if (!isAgentModule(target)) {
    return serveHost(
      target,
      { ...values, port, grpcPort, stores, cluster, connections, maxJsonDepth, address },
      proc,
    );
  }
  if (values.console === true)
    throw new UsageError('--console: the console is served by a host of agents, not a code agent module');
  const line = proc.line;

  const dataDir = resolve(values['data-dir'] ?? '.concord');
  mkdirSync(dataDir, { recursive: true });
  const agent = await loadAgent(target, { dataDir, store, env: process.env, log: (text) => line(text) });
  const { store: taskStore, where } = await openTaskStore({
    ...stores,
    kind: store,
    dataDir,
    env: process.env,
    onError: proc.onError,
  });
  const joined = await joinCluster(store, stores.postgres, cluster, proc.onError);
  let push: PushOptions | undefined;
  if (values['no-push'] !== true) {
    // Keys kept in the data directory, so a restart opens the secrets it sealed (decision 0088).
    const keys = await loadPushKeys(store !== 'memory' ? { dir: dataDir } : {});
    push = { ...keys, allow: pushAllow };
  }
  const server = createA2AServer({
    ...agent.serverOptions,
    agentCard: agent.agentCard,
    executor: agent.executor,
    store: taskStore,
    ...(push === undefined ? {} : { push }),
    ...(joined.cluster === undefined ? {} : { cluster: joined.cluster }),
    ...(joined.cluster === undefined && cluster.orphans !== undefined ? { orphans: cluster.orphans } : {}),
    ...(maxJsonDepth === undefined ? {} : { maxJsonDepth }),
    onError: proc.onError,
  });
  const checks: ReadinessCheck[] = [];
  if (taskStore.ping !== undefined) checks.push({ name: 'store', check: () => taskStore.ping!() });
  if (joined.cluster !== undefined) checks.push(clusterCheck(joined.cluster));
  const front = new OpsFront(server, { checks: () => checks, metrics: proc.telemetry?.scrape });
  // gRPC first, so the card already lists it when the HTTP listener starts answering.
  let grpc: RunningGrpcServer | undefined;
  if (grpcPort !== undefined) {
    // Loaded only when asked for: other commands never load @grpc/grpc-js.
    const { listenGrpc } = await loadPeer('grpcServer', () => import('../../server/grpc/index.js'));
    grpc = await listenGrpc(server, {
      port: grpcPort,
      host: values.host ?? '127.0.0.1',
      publicTarget: address.grpcPublicUrl,
      shutdownGraceMs: proc.shutdownGraceMs,
      onAccess: proc.onAccess,
    });
  }
  const { publicUrl, trustProxy } = address;
  const running = await listen(front, {
    ...connections,
    port,
    host: values.host ?? '127.0.0.1',
    publicUrl,
    trustProxy,
    shutdownGraceMs: proc.shutdownGraceMs,
    onAccess: proc.onAccess,
  });
  const url = running.url;
  logMigrations(proc, [taskStore]);
  line(`Concord is serving "${agent.agentCard.name}" at ${url}`, { event: 'listening', url });
  if (publicUrl !== undefined) line(`  public URL: ${publicUrl} (the card lists it)`);
  if (grpc !== undefined)
    line(`  gRPC: ${grpc.target} (lf.a2a.v1.A2AService, a2a.v1.A2AService, health, reflection)`);
  line(`  task store: ${where}`);
  line(`  task retention: ${describeRetention({ kind: store, ...stores })}`);
  if (joined.cluster !== undefined) line(`  cluster: ${joined.description}`);
  line(
    `  push notifications: ${push === undefined ? 'off' : `on${pushAllow.length > 0 ? ` (webhooks may reach ${pushAllow.join(', ')})` : ''}`}`,
  );
  line(`  agent card: ${url}.well-known/agent-card.json`);
  describeOps(proc, url, line);
  line('  try it:');
  line(
    `  curl -s ${url} -H 'content-type: application/json' -H 'A2A-Version: 1.0' -d '${tryItBody(agent.exampleRequest)}'`,
  );

  const signal = await proc.stopped;
  return shutDown(proc, signal, {
    drain: () => front.drain(),
    async close() {
      await grpc?.close();
      await running.close();
      await joined.cluster?.close();
      await agent.close?.();
    },
  });
}

/**
 * One lifecycle record per store with a schema: the version it was migrated from and to, or that
 * it was already current (decision 0158).
 */
function logMigrations(proc: ServeProcess, stores: Iterable<TaskStore>): void {
  for (const store of stores) {
    const migration = store.schemaMigration;
    if (migration === undefined) continue;
    const { from, to } = migration;
    proc.logger.info(
      { event: 'migrations', from, to },
      from === to
        ? `task store schema at version ${to}`
        : `task store schema migrated from version ${from} to ${to}`,
    );
  }
}

/** The banner's lines for the operations routes and the telemetry. */
function describeOps(proc: ServeProcess, url: string, out: ServeProcess['line']): void {
  out(`  health: ${url}healthz, readiness: ${url}readyz`);
  for (const line of proc.telemetry?.describe ?? []) out(`  ${line}`);
}

/** The `--max-agent-hops` value, or undefined when the flag is absent (decision 0148). */
function maxAgentHopsFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_AGENT_HOPS)) {
    throw new UsageError(`--max-agent-hops: expected an integer from 1 to ${MAX_AGENT_HOPS}, got ${value}`);
  }
  return limit;
}

/** A port flag's value, or undefined when the flag is absent. */
function portFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${flag}: expected 0-65535, got ${value}`);
  return port;
}

/** `--max-json-depth`: checked before anything starts, against gRPC's bound when it is served. */
function depthFlag(value: string | undefined, grpc: boolean): number | undefined {
  if (value === undefined) return undefined;
  const depth = Number(value);
  const most = grpc ? GRPC_MAX_JSON_DEPTH : MAX_JSON_DEPTH_CEILING;
  if (!/^\d+$/.test(value) || depth < 1 || depth > most) {
    const why = grpc ? ' (gRPC cannot carry deeper values back out)' : '';
    throw new UsageError(`--max-json-depth: expected 1-${most}${why}, got ${value}`);
  }
  return depth;
}

/** Joins the cluster of a code agent's store (none unless the store is PostgreSQL or `--bus` says so). */
function joinCluster(
  kind: TaskStoreKind,
  postgres: PostgresStoreSettings | undefined,
  setup: ClusterSetup,
  onError: (error: unknown, where: string) => void,
): ReturnType<typeof openCluster> {
  const env = process.env;
  const databaseUrl = kind === 'postgres' ? databaseUrlOf({ postgres, env }) : undefined;
  return openCluster(
    {
      kind,
      schema: postgres?.schema ?? DEFAULT_DATABASE_SCHEMA,
      databaseUrl,
    },
    setup,
    { env, onError },
  );
}

/** The store settings of the flags (the PostgreSQL ones only matter for `--store postgres`). */
function storeFlags(
  kind: TaskStoreKind,
  values: {
    'database-url'?: string | undefined;
    'database-schema'?: string | undefined;
    'no-migrate'?: boolean | undefined;
    retention?: string | undefined;
    'retention-max-tasks'?: string | undefined;
    'retention-interval'?: string | undefined;
  },
): StoreFlags {
  const out: StoreFlags = {};
  if (kind === 'postgres') {
    out.postgres = {
      url: values['database-url'],
      schema: values['database-schema'],
      ...(values['no-migrate'] === true ? { migrate: false } : {}),
    };
    // Before anything loads: a missing URL is the first thing to say.
    const postgres = out.postgres;
    asUsage(() => databaseUrlOf({ postgres, env: process.env }));
  } else if (values['database-url'] !== undefined) {
    throw new UsageError(`--database-url: only for --store postgres (the store is ${kind})`);
  }
  const retention = retentionFlags(kind, values);
  if (retention !== undefined) out.retention = retention;
  return out;
}

/** The store settings of the flags; no retention means the host's default (decision 0151). */
interface StoreFlags {
  postgres?: PostgresStoreSettings;
  retention?: RetentionOptions | false;
}

interface HostFlags {
  stores: StoreFlags;
  cluster: ClusterSetup;
  connections: ConnectionOptions;
  port: number;
  'push-allow'?: string[] | undefined;
  'no-push'?: boolean | undefined;
  host?: string | undefined;
  'data-dir'?: string | undefined;
  store?: string | undefined;
  'internal-port'?: string | undefined;
  grpcPort?: number | undefined;
  maxJsonDepth?: number | undefined;
  'max-agent-hops'?: string | undefined;
  address: PublicAddress;
  watch?: boolean | undefined;
  console?: boolean | undefined;
  'no-console'?: boolean | undefined;
  'console-trace-url'?: string | undefined;
}

async function serveHost(target: string, flags: HostFlags, proc: ServeProcess): Promise<number> {
  const out = proc.line;
  let internalPort: number | undefined;
  if (flags['internal-port'] !== undefined) {
    internalPort = Number(flags['internal-port']);
    if (!Number.isInteger(internalPort) || internalPort < 0 || internalPort > 65535)
      throw new UsageError(`--internal-port: expected 0-65535, got ${flags['internal-port']}`);
  }
  const maxAgentHops = maxAgentHopsFlag(flags['max-agent-hops']);
  const consoleSettings = consoleFlags(flags, process.env, proc.telemetry?.tracesRecording === true);
  const running = await startHost(target, {
    port: flags.port,
    host: flags.host ?? '127.0.0.1',
    store: parseTaskStoreKind(flags.store ?? 'sqlite'),
    dataDir: flags['data-dir'] ?? '.concord',
    ...flags.stores,
    cluster: flags.cluster,
    connections: flags.connections,
    internalPort,
    grpcPort: flags.grpcPort,
    maxJsonDepth: flags.maxJsonDepth,
    maxAgentHops,
    ...flags.address,
    watch: flags.watch === true,
    extensions: HOST_EXTENSIONS,
    push: { enabled: flags['no-push'] !== true, allow: flags['push-allow'] ?? [] },
    onError: proc.onError,
    onReload: (outcome) => reported(outcome, proc),
    onMcpLog: (server, line) => proc.logger.warn({ mcpServer: server }, `[mcp ${server}] ${line}`),
    onAccess: proc.onAccess,
    shutdownGraceMs: proc.shutdownGraceMs,
    metrics: proc.telemetry?.scrape,
    console: consoleSettings,
  });
  const { url, config } = running;
  logMigrations(proc, new Set(running.stores.values()));
  out(`Concord is hosting ${config.agents.length} agent(s) at ${url}`, { event: 'listening', url });
  if (running.publicUrl !== undefined) out(`  public URL: ${running.publicUrl} (the cards list it)`);
  for (const agent of config.agents) {
    const where = `${url}agents/${encodeURIComponent(agent.id)}/`;
    out(`  ${agent.exposed ? 'public  ' : 'internal'} ${agent.id}: ${where}.well-known/agent-card.json`);
  }
  const exposed = config.agents.filter((agent) => agent.exposed);
  if (exposed.length === 1) out(`  root: ${url} also serves ${exposed[0]!.id} (the only public agent)`);
  out(`  listing: ${url}agents`);
  if (running.internalUrl !== undefined) out(`  internal listener: ${running.internalUrl}`);
  for (const where of running.consoleUrls) out(`  console: ${where}`, { event: 'console', url: where });
  if (running.grpcTarget !== undefined) out(`  gRPC: ${running.grpcTarget} serves ${exposed[0]!.id}`);
  const push = config.push ?? { enabled: true, allow: [] };
  const allowed = [...push.allow, ...(flags['push-allow'] ?? [])];
  const on = push.enabled && flags['no-push'] !== true;
  out(
    `  push notifications: ${on ? `on${allowed.length > 0 ? ` (webhooks may reach ${allowed.join(', ')})` : ''}` : 'off'}`,
  );
  out(
    `  task stores: ${describeTaskStores({
      kind: parseTaskStoreKind(flags.store ?? 'sqlite'),
      dataDir: resolve(flags['data-dir'] ?? '.concord'),
      env: process.env,
      ...flags.stores,
    })}`,
  );
  out(
    `  task retention: ${describeRetention({ kind: parseTaskStoreKind(flags.store ?? 'sqlite'), ...flags.stores })}`,
  );
  const cluster = running.host.cluster;
  if (cluster !== undefined) out(`  cluster: instance ${cluster.instanceId} (agents joined under their ids)`);
  describeOps(proc, running.internalUrl ?? url, out);
  const signal = await proc.stopped;
  return shutDown(proc, signal, { drain: () => running.drain(), close: () => running.close() });
}

/** One line per reload: what changed, or why the host still serves what it served before. */
function reported(outcome: ReloadOutcome, proc: ServeProcess): void {
  const out = proc.line;
  if (!outcome.ok) {
    proc.logger.error(
      `[concord] not reloaded, still serving the previous definitions: ${outcome.error.message}`,
    );
    return;
  }
  const what = [
    ...(outcome.host.length > 0 ? [`host config (${outcome.host.join(', ')})`] : []),
    ...outcome.changed,
  ];
  out(`  reloaded: ${what.length > 0 ? what.join(', ') : 'nothing changed'}`);
  for (const note of outcome.pending) proc.logger.warn(`[concord] ${note}`);
}

/** The JSON-RPC body of the banner's curl: the agent's example request, or a plain "hello". */
function tryItBody(example: ExampleRequest | undefined): string {
  const message = { messageId: 'm1', role: 'ROLE_USER', parts: example?.parts ?? [{ text: 'hello' }] };
  const params =
    example?.configuration === undefined ? { message } : { message, configuration: example.configuration };
  // Single quotes end the shell's quoting; JSON never needs them, so escape them for the shell.
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params }).replaceAll("'", "'\\''");
}
