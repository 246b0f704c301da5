/**
 * Every internal error Concord answers reaches the server's `onError` hook (decision
 * 0144): -32603 on JSON-RPC, HTTP 500 on HTTP+JSON, INTERNAL on gRPC, both versions each, for a
 * task store that fails on reads, on listing (the 0.3 `GET /v1/tasks` of the issue), on a stream
 * and on a commit (reported once, though the task run and the binding both see it), and for a card
 * signer that fails. The client learns nothing of the cause; the hook gets the error itself and
 * where it happened. A hook that throws does not cost the client its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AServer, type A2AServer, type A2AServerOptions } from '../../src/server/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { createMemoryTaskStore, type TaskStore } from '../../src/store/index.js';
import { jsonRpcDriver, restDriver, userText, type Driver, type WireError } from '../helpers/drivers.js';
import { grpcDriver } from '../helpers/grpc-driver.js';

/** A memory store whose methods named in `broken` reject with their own error. */
function failingStore(broken: readonly (keyof TaskStore)[]): {
  store: TaskStore;
  thrown: Map<string, Error>;
} {
  const inner = createMemoryTaskStore();
  const thrown = new Map<string, Error>();
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof name === 'string' && (broken as readonly string[]).includes(name)) {
        return () => {
          const error = new Error(`the disk is on fire (${name})`);
          thrown.set(name, error);
          return Promise.reject(error);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, thrown };
}

const card = {
  name: 'fragile',
  description: 'its store fails',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

interface Reported {
  error: unknown;
  where: string;
}

interface Running {
  a2a: A2AServer;
  http: RunningServer;
  grpc: RunningGrpcServer;
  reported: Reported[];
  drivers: Driver[];
  close(): Promise<void>;
}

async function start(store: TaskStore, extra: Partial<A2AServerOptions> = {}): Promise<Running> {
  const reported: Reported[] = [];
  const a2a = createA2AServer({
    agentCard: card,
    executor: {
      execute(_context, updater) {
        updater.complete();
      },
    },
    store,
    onError: (error, where) => reported.push({ error, where }),
    ...extra,
  });
  const grpc = await listenGrpc(a2a, { shutdownGraceMs: 200 });
  const http = await listen(a2a, { port: 0 });
  const drivers = [
    jsonRpcDriver(http.url, '0.3'),
    jsonRpcDriver(http.url, '1.0'),
    restDriver(http.url, '0.3'),
    restDriver(http.url, '1.0'),
    grpcDriver(grpc.target, '0.3'),
    grpcDriver(grpc.target, '1.0'),
  ];
  return {
    a2a,
    http,
    grpc,
    reported,
    drivers,
    async close() {
      for (const driver of drivers) driver.close?.();
      await grpc.close();
      await http.close();
    },
  };
}

/** The internal error as each binding answers it, and nothing of the cause. */
function expectInternal(error: WireError | undefined, driver: Driver): void {
  expect(error, driver.name).toBeDefined();
  expect(error!.code, driver.name).toBe(-32603);
  if (driver.binding === 'GRPC') expect(error!.grpcStatus, driver.name).toBe(13);
  else expect(error!.httpStatus, driver.name).toBe(driver.binding === 'JSONRPC' ? 200 : 500);
  expect(error!.message, driver.name).not.toContain('fire');
}

/** Where each binding says an answer came from. */
const WHERE: Record<string, RegExp> = {
  'JSON-RPC 0.3': /^JSON-RPC tasks\/get \(A2A 0\.3\)$/,
  'JSON-RPC 1.0': /^JSON-RPC GetTask \(A2A 1\.0\)$/,
  'HTTP+JSON 0.3': /^HTTP\+JSON GET \/v1\/tasks\/t-1 \(A2A 0\.3\)$/,
  'HTTP+JSON 1.0': /^HTTP\+JSON GET \/tasks\/t-1 \(A2A 1\.0\)$/,
  'gRPC 0.3': /^gRPC \/a2a\.v1\.A2AService\/GetTask$/,
  'gRPC 1.0': /^gRPC \/lf\.a2a\.v1\.A2AService\/GetTask$/,
};

describe('a store that fails on reads', () => {
  let running: Running;
  let thrown: Map<string, Error>;
  beforeAll(async () => {
    const failing = failingStore(['get', 'list']);
    thrown = failing.thrown;
    running = await start(failing.store);
  });
  afterAll(async () => {
    await running.close();
  });

  it('GetTask on every binding and version: the hook gets the store error and the binding', async () => {
    for (const driver of running.drivers) {
      running.reported.length = 0;
      const outcome = await driver.getTask('t-1');
      expectInternal(outcome.ok ? undefined : outcome.error, driver);
      expect(running.reported, driver.name).toHaveLength(1);
      expect(running.reported[0]!.error).toBe(thrown.get('get'));
      expect(running.reported[0]!.where).toMatch(WHERE[driver.name]!);
    }
  });

  it('ListTasks where it exists (0.3 GET /v1/tasks included): reported', async () => {
    for (const driver of running.drivers.filter((d) => d.name !== 'JSON-RPC 0.3' && d.name !== 'gRPC 0.3')) {
      running.reported.length = 0;
      const outcome = await driver.listTasks({});
      expectInternal(outcome.ok ? undefined : outcome.error, driver);
      expect(
        running.reported.map((r) => r.error),
        driver.name,
      ).toEqual([thrown.get('list')]);
    }
  });

  it('a stream that fails before its first event: reported on every binding', async () => {
    for (const driver of running.drivers) {
      running.reported.length = 0;
      const outcome = await driver.subscribe('t-1');
      expectInternal(outcome.error, driver);
      expect(
        running.reported.map((r) => r.error),
        driver.name,
      ).toEqual([thrown.get('get')]);
      expect(running.reported[0]!.where, driver.name).toMatch(
        /SubscribeToTask|tasks\/resubscribe|:subscribe|TaskSubscription/,
      );
    }
  });
});

describe('a store that fails on commits', () => {
  it('a send on every binding answers internal, and the hook hears of each failure once', async () => {
    const failing = failingStore(['commit']);
    const running = await start(failing.store);
    try {
      for (const driver of running.drivers) {
        running.reported.length = 0;
        const outcome = await driver.send(userText('hello'));
        expectInternal(outcome.ok ? undefined : outcome.error, driver);
        // Reported by the task run (where it failed); the binding answering it adds no second report.
        expect(running.reported, driver.name).toHaveLength(1);
        expect(running.reported[0]!.error).toBe(failing.thrown.get('commit'));
        expect(running.reported[0]!.where).toMatch(/^store commit of task /);
      }
    } finally {
      await running.close();
    }
  });
});

describe('around the bindings', () => {
  it('a card signer that fails: HTTP 500, reported', async () => {
    const failure = new Error('the signing key is offline');
    const running = await start(createMemoryTaskStore(), {
      signCard: () => Promise.reject(failure),
    });
    try {
      const response = await fetch(new URL('.well-known/agent-card.json', running.http.url));
      expect(response.status).toBe(500);
      expect(await response.text()).not.toContain('offline');
      expect(running.reported).toEqual([{ error: failure, where: 'rendering the A2A 0.3 agent card' }]);
    } finally {
      await running.close();
    }
  });

  it('a hook that throws does not cost the client its answer', async () => {
    const failing = failingStore(['get']);
    const a2a = createA2AServer({
      agentCard: card,
      executor: { execute: () => undefined },
      store: failing.store,
      onError: () => {
        throw new Error('the log is full');
      },
    });
    const http = await listen(a2a, { port: 0 });
    try {
      const outcome = await restDriver(http.url, '1.0').getTask('t-1');
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.httpStatus).toBe(500);
    } finally {
      await http.close();
    }
  });
});
