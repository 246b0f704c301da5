/** Starts the echo example on a real socket for integration tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createA2AServer, type A2AServer, type A2AServerOptions } from '../../src/server/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { createMemoryTaskStore, type TaskStore } from '../../src/store/index.js';
import { openSqliteTaskStore } from '../../src/store/sqlite/index.js';
import { openTestPostgresStore } from './postgres.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

/** A running echo server and how to stop it. */
export interface EchoServer {
  url: string;
  a2a: A2AServer;
  running: RunningServer;
  store: TaskStore;
  errors: unknown[];
  /** The gRPC listener, when started with `grpc: true`. */
  grpc?: RunningGrpcServer;
  close(): Promise<void>;
}

/**
 * Starts the echo agent; `store: 'sqlite'` uses a fresh temp file, `store: 'postgres'` a fresh
 * schema of CONCORD_TEST_POSTGRES_URL (helpers/postgres.ts).
 */
export async function startEcho(
  options: { store?: 'memory' | 'sqlite' | 'postgres'; grpc?: boolean } & Omit<
    Partial<A2AServerOptions>,
    'store'
  > = {},
): Promise<EchoServer> {
  let dir: string | undefined;
  let store: TaskStore;
  if (options.store === 'postgres') {
    store = await openTestPostgresStore();
  } else if (options.store === 'sqlite') {
    dir = mkdtempSync(join(tmpdir(), 'concord-it-'));
    store = openSqliteTaskStore({ path: join(dir, 'tasks.db') });
  } else {
    store = createMemoryTaskStore();
  }
  const errors: unknown[] = [];
  const { store: _kind, grpc: withGrpc, ...rest } = options;
  const server = createA2AServer({
    agentCard: echo.agentCard,
    executor: echo.executor,
    store,
    onError: (error) => errors.push(error),
    ...rest,
  });
  const grpc = withGrpc === true ? await listenGrpc(server, { shutdownGraceMs: 500 }) : undefined;
  const running = await listen(server, { port: 0 });
  return {
    url: running.url,
    a2a: server,
    running,
    store,
    errors,
    ...(grpc === undefined ? {} : { grpc }),
    async close() {
      await grpc?.close();
      await running.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
