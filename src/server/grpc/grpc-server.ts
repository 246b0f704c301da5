/**
 * `listenGrpc`: serves an A2AServer's agent over gRPC (digest §4) on a port of its own, beside
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
import type { GrpcService } from '../../protocol/grpc/index.js';
import type { A2AServer } from '../a2a-server.js';
import { advertisedHost } from '../adapters/advertised-host.js';
import { streamHandler, unaryHandler, type ServiceBinding } from './grpc-handlers.js';
import { grpcSchema, reflectionPackage } from './grpc-schema-loader.js';

/** Options of `listenGrpc`. */
export interface ListenGrpcOptions {
  /** Port to bind (default 0: a free port). */
  port?: number;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /**
   * Transport security (default: plaintext, for loopback and TLS-terminating proxies). A2A asks for
   * TLS in production (digest §10.1): pass `ServerCredentials.createSsl(...)`.
   */
  credentials?: ServerCredentials;
  /** The `host:port` the card advertises (default: the bound address; the machine's name for wildcards). */
  publicTarget?: string;
  /** Largest request message in bytes (default: the server's `maxBodyBytes`, 1 MiB). */
  maxMessageBytes?: number;
  /** Milliseconds `close()` lets running calls finish before cancelling them (default 10 s). */
  shutdownGraceMs?: number;
}

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
  const schema = grpcSchema();
  const v1 = schema.services['1.0'];
  const v0 = schema.services['0.3'];
  const maxBytes = options.maxMessageBytes ?? a2a.maxBodyBytes;
  const server = new Server({ 'grpc.max_receive_message_length': maxBytes });
  for (const [service, other] of [
    [v1, v0],
    [v0, v1],
  ] as const) {
    server.addService(
      definitionOf(service),
      implementationOf({ server: a2a, service, other, status: schema.status }),
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
