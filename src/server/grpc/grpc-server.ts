/**
 * `listenGrpc`: serves an A2AServer's agent over gRPC (A2A 1.0 §10) on a port of its own, beside
 * the HTTP bindings and on the same RequestHandler, store and running tasks. Both services are
 * served — `lf.a2a.v1.A2AService` (1.0) and `a2a.v1.A2AService` (0.3) — together with the standard
 * health service (`grpc.health.v1.Health`) and server reflection (v1 and v1alpha), so grpcurl and
 * load balancers can talk to it. Once bound, the card lists the gRPC interfaces as `host:port`.
 */
import {
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import { GRPC_MAX_JSON_DEPTH } from '../../protocol/internal.js';
import type { GrpcService } from '../../protocol/grpc/index.js';
import type { A2AServer } from '../a2a-server.js';
import { advertisedHost } from '../adapters/advertised-host.js';
import { streamHandler, unaryHandler, type ServiceBinding } from './grpc-handlers.js';
import { grpcSchema, reflectionPackage } from './grpc-schema-loader.js';
import type { AccessHook } from '../common/access-entry.js';

/** Options of `listenGrpc`. */
export interface ListenGrpcOptions {
  /** Port to bind (default 0: a free port). */
  port?: number | undefined;
  /** Address to bind (default 127.0.0.1). */
  host?: string | undefined;
  /**
   * Transport security (default: plaintext, for loopback and TLS-terminating proxies). A2A asks for
   * TLS in production (A2A 1.0 §7.1): pass `ServerCredentials.createSsl(...)`.
   */
  credentials?: ServerCredentials | undefined;
  /** The `host:port` the card advertises (default: the bound address; the machine's name for wildcards). */
  publicTarget?: string | undefined;
  /** Largest request message in bytes (default: the server's `maxBodyBytes`, 1 MiB). */
  maxMessageBytes?: number | undefined;
  /** Milliseconds `close()` lets running calls finish before cancelling them (default 10 s). */
  shutdownGraceMs?: number | undefined;
  /**
   * Milliseconds a connection may go without a call before it is closed with GOAWAY (default
   * 5 min; clients reconnect on their next call). It also ends connections that never speak:
   * grpc-js otherwise keeps them forever (decision 0146).
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Milliseconds between keepalive pings to each client (default 2 min); a ping unanswered for
   * 20 s closes the connection, so a vanished peer does not hold a stream open (decision 0146).
   */
  keepaliveMs?: number | undefined;
  /**
   * Receives one entry per answered call (decision 0158): method `GRPC`, the method path as target,
   * the gRPC status code as status, once the status is sent (a stream's end).
   */
  onAccess?: AccessHook | undefined;
}

/** The default `idleTimeoutMs` of `listenGrpc`. */
export const GRPC_IDLE_TIMEOUT_MS = 5 * 60_000;
/** The default `keepaliveMs` of `listenGrpc`. */
export const GRPC_KEEPALIVE_MS = 2 * 60_000;

/** A running gRPC listener. */
export interface RunningGrpcServer {
  /** `host:port` as the card lists it. */
  target: string;
  port: number;
  /** The grpc-js server (to add services of your own). */
  server: Server;
  /** The health service; its statuses turn NOT_SERVING when `close()` starts. */
  health: HealthImplementation;
  /** Stops accepting calls, lets running ones finish (up to the grace), withdraws the card entries. */
  close(): Promise<void>;
}

/** Every RPC of `service` as pass-through bytes: the handlers decode and encode themselves. */
function definitionOf(service: GrpcService): ServiceDefinition {
  const bytes = (b: Buffer): Buffer => b;
  return Object.fromEntries(
    service.methods.map((m) => [
      m.name,
      {
        path: m.path,
        requestStream: false,
        responseStream: m.responseStream,
        requestSerialize: bytes,
        requestDeserialize: bytes,
        responseSerialize: bytes,
        responseDeserialize: bytes,
        originalName: m.name,
      },
    ]),
  ) as ServiceDefinition;
}

function implementationOf(binding: ServiceBinding): UntypedServiceImplementation {
  return Object.fromEntries(
    binding.service.methods.map((m) => [
      m.name,
      m.responseStream ? streamHandler(binding, m) : unaryHandler(binding, m),
    ]),
  ) as UntypedServiceImplementation;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`${name}: expected a positive integer, got ${String(value)}`);
  }
  return value;
}

function bindAsync(server: Server, address: string, credentials: ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, credentials, (error, port) => (error === null ? resolve(port) : reject(error)));
  });
}

/** Serves `a2a` over gRPC; resolves once bound, with the card updated to list the gRPC interfaces. */
export async function listenGrpc(
  a2a: A2AServer,
  options: ListenGrpcOptions = {},
): Promise<RunningGrpcServer> {
  // Whatever one binding accepts, every other must be able to answer with (decision 0144).
  if (a2a.maxJsonDepth > GRPC_MAX_JSON_DEPTH) {
    throw new TypeError(
      `listenGrpc: the server's maxJsonDepth ${a2a.maxJsonDepth} is deeper than gRPC can carry back out; use at most ${GRPC_MAX_JSON_DEPTH}`,
    );
  }
  const schema = grpcSchema();
  const v1 = schema.services['1.0'];
  const v0 = schema.services['0.3'];
  const maxBytes = options.maxMessageBytes ?? a2a.maxBodyBytes;
  const server = new Server({
    'grpc.max_receive_message_length': maxBytes,
    'grpc.max_connection_idle_ms': positive(options.idleTimeoutMs, GRPC_IDLE_TIMEOUT_MS, 'idleTimeoutMs'),
    'grpc.keepalive_time_ms': positive(options.keepaliveMs, GRPC_KEEPALIVE_MS, 'keepaliveMs'),
    'grpc.keepalive_timeout_ms': 20_000,
  });
  for (const [service, other] of [
    [v1, v0],
    [v0, v1],
  ] as const) {
    server.addService(
      definitionOf(service),
      implementationOf({ server: a2a, service, other, status: schema.status, onAccess: options.onAccess }),
    );
  }
  const health = new HealthImplementation({ '': 'SERVING', [v1.name]: 'SERVING', [v0.name]: 'SERVING' });
  health.addToServer(server);
  new ReflectionService(reflectionPackage()).addToServer(server);

  const host = options.host ?? '127.0.0.1';
  const bindHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const port = await bindAsync(
    server,
    `${bindHost}:${options.port ?? 0}`,
    options.credentials ?? ServerCredentials.createInsecure(),
  );
  // A wildcard bind advertises the machine's name, never a loopback one (decision 0149).
  const target = options.publicTarget ?? `${advertisedHost(host)}:${port}`;
  a2a.setGrpcTarget(target);

  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    for (const name of ['', v1.name, v0.name]) health.setStatus(name, 'NOT_SERVING');
    a2a.setGrpcTarget(undefined);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.forceShutdown(), options.shutdownGraceMs ?? 10_000);
      timer.unref();
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  };
  return { target, port, server, health, close: () => (closing ??= close()) };
}
