/**
 * What one binding accepts, every binding can answer with (decision 0144). A task
 * created over HTTP+JSON 1.0 (the shallowest envelope, so its values are the deepest any request
 * can hold) with a part's data and the message's metadata nested to the bound, and echoed by the
 * agent into an artifact, is read back whole on every binding and version: GetTask on all six,
 * ListTasks on the four that have it (0.3 REST `GET /v1/tasks` among them), a gRPC stream, and
 * the official SDK's gRPC clients (1.3 for 1.0, 0.3.x for 0.3). Before the bound, a task nested
 * ~50 levels was accepted and then gave INTERNAL on every gRPC read; at the largest bound a
 * gRPC listener takes (40) the same holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { GrpcTransportFactory as GrpcTransportFactory03 } from '@a2a-js/sdk-v03/client/grpc';
import {
  GRPC_MAX_JSON_DEPTH,
  type Message,
  type SendMessageRequest,
  type Task,
} from '../../src/protocol/internal.js';
import { createA2AServer, type A2AServer, type AgentExecutor } from '../../src/server/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { jsonRpcDriver, ok, restDriver, taskOf, type Driver } from '../helpers/drivers.js';
import { grpcDriver } from '../helpers/grpc-driver.js';
import { locateNested, nested, WIRE_ROUTES, wireDocument, wireSend } from '../helpers/wire-sends.js';

/** Echoes the message's parts and metadata into an artifact, then completes. */
const echoing: AgentExecutor = {
  execute(context, updater) {
    const { parts, metadata } = context.message;
    updater.addArtifact(parts, { name: 'echo', ...(metadata === undefined ? {} : { metadata }) });
    updater.complete();
  },
};

const card = {
  name: 'deep echo',
  description: 'echoes what it gets',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain', 'application/json'],
  skills: [],
};

interface Served {
  a2a: A2AServer;
  http: RunningServer;
  grpc: RunningGrpcServer;
  errors: unknown[];
}

async function serve(maxJsonDepth?: number): Promise<Served> {
  const errors: unknown[] = [];
  const a2a = createA2AServer({
    agentCard: card,
    executor: echoing,
    onError: (error) => errors.push(error),
    ...(maxJsonDepth === undefined ? {} : { maxJsonDepth }),
  });
  const grpc = await listenGrpc(a2a, { shutdownGraceMs: 500 });
  const http = await listen(a2a, { port: 0 });
  return { a2a, http, grpc, errors };
}

const REST_10 = WIRE_ROUTES.find((r) => r.name === 'HTTP+JSON 1.0')!;

/**
 * The deepest message HTTP+JSON 1.0 takes under `max`: a data part and the message's metadata,
 * each filling the body to exactly `max` levels where it sits.
 */
function deepest(max: number): {
  request: SendMessageRequest;
  data: unknown;
  metadata: Record<string, unknown>;
} {
  const shaped = (data: unknown, metadata: Record<string, unknown>): SendMessageRequest => ({
    message: {
      messageId: `deep-${max}`,
      role: 'ROLE_USER',
      parts: [{ text: 'deep' }, { data }],
      metadata,
    },
  });
  const at = (probe: SendMessageRequest) => locateNested(wireDocument(REST_10, probe))!.level;
  const dataLevel = at(shaped(nested(1), {}));
  const metadataLevel = at(shaped(1, nested(1)));
  const data = nested(max - dataLevel + 1);
  const metadata = nested(max - metadataLevel + 1);
  return { request: shaped(data, metadata), data, metadata };
}

/** The task holds the deep values as sent: in its history and in the agent's artifact. */
function expectWhole(task: Task, id: string, data: unknown, metadata: unknown, name: string): void {
  expect(task.id, name).toBe(id);
  const sent = task.history?.find((m: Message) => m.messageId.startsWith('deep-'));
  expect(sent?.parts[1]?.data, name).toEqual(data);
  expect(sent?.metadata, name).toEqual(metadata);
  expect(task.artifacts?.[0]?.parts[1]?.data, name).toEqual(data);
  expect(task.artifacts?.[0]?.metadata, name).toEqual(metadata);
}

function drivers(served: Served): Driver[] {
  const url = served.http.url;
  const target = served.grpc.target;
  return [
    jsonRpcDriver(url, '0.3'),
    jsonRpcDriver(url, '1.0'),
    restDriver(url, '0.3'),
    restDriver(url, '1.0'),
    grpcDriver(target, '0.3'),
    grpcDriver(target, '1.0'),
  ];
}

/** Every listing read: JSON-RPC 1.0, both REST versions (0.3 `GET /v1/tasks`), gRPC 1.0. */
const LISTS = new Set(['JSON-RPC 1.0', 'HTTP+JSON 0.3', 'HTTP+JSON 1.0', 'gRPC 1.0']);

async function readEverywhere(served: Served, max: number): Promise<void> {
  const { request, data, metadata } = deepest(max);
  const created = await wireSend({ url: served.http.url, grpcTarget: served.grpc.target }, REST_10, request);
  expect(created.ok, JSON.stringify(created).slice(0, 300)).toBe(true);
  if (!created.ok) return;
  const id = taskOf({ ok: true, value: created.value, httpStatus: 200 }).id;
  for (const driver of drivers(served)) {
    try {
      expectWhole(ok(await driver.getTask(id, 10)), id, data, metadata, `${driver.name} GetTask`);
      if (!LISTS.has(driver.name)) continue;
      const page = ok(await driver.listTasks({ historyLength: 10, includeArtifacts: true }));
      const listed = page.tasks.find((t) => t.id === id);
      expect(listed, `${driver.name} ListTasks`).toBeDefined();
      expectWhole(listed!, id, data, metadata, `${driver.name} ListTasks`);
    } finally {
      driver.close?.();
    }
  }

  // A stream's events wrap the task once more (StreamResponse), the deepest answer envelope. (Over
  // 0.3 the same data sits one level deeper, in a DataPart, so that request is past the bound.)
  const stream = grpcDriver(served.grpc.target, '1.0');
  try {
    const streamed = await stream.stream({ ...request.message, messageId: 'deep-stream' });
    expect(streamed.error, 'gRPC 1.0 stream').toBeUndefined();
    expect(JSON.stringify(streamed.items.at(-1)?.event)).toContain('TASK_STATE_COMPLETED');
    expect(JSON.stringify(streamed.items)).toContain(JSON.stringify(data));
  } finally {
    stream.close?.();
  }

  // The official SDK's gRPC clients decode with their own protobuf runtime.
  const sdk13 = await new GrpcTransportFactory({}).create(served.grpc.target, served.a2a.agentCard as never);
  const got13 = await sdk13.getTask({ tenant: '', id, historyLength: 10 });
  const listed13 = await sdk13.listTasks({
    tenant: '',
    contextId: '',
    status: 0,
    pageSize: 50,
    pageToken: '',
    historyLength: 10,
    statusTimestampAfter: undefined,
    includeArtifacts: true,
  });
  const sdk03 = await new GrpcTransportFactory03().create(served.grpc.target, served.a2a.agentCard as never);
  const got03 = await sdk03.getTask({ id, historyLength: 10 });
  for (const [name, read] of [
    ['SDK 1.3 gRPC GetTask', got13],
    ['SDK 1.3 gRPC ListTasks', listed13.tasks.find((t) => t.id === id)],
    ['SDK 0.3 gRPC GetTask', got03],
  ] as const) {
    const text = JSON.stringify(read);
    expect(text, name).toContain(JSON.stringify(data));
    expect(text, name).toContain(JSON.stringify(metadata));
  }
  expect(served.errors).toEqual([]);
}

describe('a task nested to the bound is readable on every binding', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(async () => {
    await served.grpc.close();
    await served.http.close();
  });

  it('at the default bound (32): created over HTTP+JSON 1.0, read on all six, streamed, and by the SDKs', async () => {
    await readEverywhere(served, 32);
  });
});

describe(`at the largest bound a gRPC listener takes (${GRPC_MAX_JSON_DEPTH})`, () => {
  it('the deepest task is still readable on every binding and by the SDKs', async () => {
    const served = await serve(GRPC_MAX_JSON_DEPTH);
    try {
      await readEverywhere(served, GRPC_MAX_JSON_DEPTH);
    } finally {
      await served.grpc.close();
      await served.http.close();
    }
  });
});
