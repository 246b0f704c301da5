/**
 * Decision 0136, liberal reading: a server answers with one off-spec item at a time (an
 * unknown TaskState, a part `{}`, `parts: []`, a missing `artifactId`, a missing history
 * `messageId`) over JSON-RPC and HTTP+JSON, 1.0 and 0.3, in getTask, listTasks and a stream event;
 * the client returns the rest of the answer and reports a warning naming the item. `reading:
 * 'strict'` refuses the same answers, and `concord list` prints the page with the warning on stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, A2ALocalError, type A2AReadWarning } from '../../src/client/internal.js';
import type { WireCodec } from '../../src/protocol/codec.js';
import type { AgentCard, ProtocolVersion, Task } from '../../src/protocol/index.js';
import type { ClientBinding } from '../../src/client/internal.js';
import { v0_3JsonRpcCodec, v0_3RestCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { concord } from '../cli/cli-process.js';
import { startJsonServer, type JsonServer, type Recorded, type Reply } from './helpers/json-server.js';

type Json = Record<string, unknown>;

const TASK: Task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: 'TASK_STATE_COMPLETED', timestamp: '2025-08-01T10:00:00.000Z' },
  history: [
    { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'a' }, { text: 'b' }] },
    { messageId: 'm-2', role: 'ROLE_AGENT', parts: [{ text: 'c' }] },
  ],
  artifacts: [
    { artifactId: 'art-1', parts: [{ text: 'x' }, { text: 'y' }] },
    { artifactId: 'art-2', parts: [{ text: 'z' }] },
  ],
};

interface Wire {
  binding: ClientBinding;
  version: ProtocolVersion;
  codec: WireCodec;
  /** The message parts member of this dialect. */
  partsKey: string;
  /** An unknown state in this dialect's spelling. */
  unknownState: string;
}

const WIRES: Wire[] = [
  {
    binding: 'JSONRPC',
    version: '1.0',
    codec: v1_0Codec,
    partsKey: 'parts',
    unknownState: 'TASK_STATE_PONDERING',
  },
  {
    binding: 'HTTP+JSON',
    version: '1.0',
    codec: v1_0Codec,
    partsKey: 'parts',
    unknownState: 'TASK_STATE_PONDERING',
  },
  {
    binding: 'JSONRPC',
    version: '0.3',
    codec: v0_3JsonRpcCodec,
    partsKey: 'parts',
    unknownState: 'pondering',
  },
  {
    binding: 'HTTP+JSON',
    version: '0.3',
    codec: v0_3RestCodec,
    partsKey: 'content',
    unknownState: 'TASK_STATE_PONDERING',
  },
];

/** One off-spec item: how it is made on the wire, what the client returns, where the warning points. */
interface OddItem {
  name: string;
  spoil(task: Json, wire: Wire): void;
  check(task: Task, wire: Wire): void;
  at(wire: Wire): string;
}

const items = (task: Json, key: string): Json[] => task[key] as Json[];

const ODD_ITEMS: OddItem[] = [
  {
    name: 'an unknown TaskState',
    spoil: (task, wire) => ((task.status as Json).state = wire.unknownState),
    check: (task, wire) => {
      expect(task.status.state).toBe(wire.unknownState);
      expect(task.artifacts).toEqual(TASK.artifacts);
    },
    at: () => '/status/state',
  },
  {
    name: 'a part {}',
    spoil: (task, wire) => ((items(task, 'history')[0]![wire.partsKey] as unknown[])[1] = {}),
    check: (task) => {
      expect(task.history?.[0]?.parts).toEqual([{ text: 'a' }]);
      expect(task.history?.[1]).toEqual(TASK.history?.[1]);
    },
    at: (wire) => `/history/0/${wire.partsKey}/1`,
  },
  {
    name: 'parts: []',
    spoil: (task) => (items(task, 'artifacts')[0]!.parts = []),
    check: (task) => {
      expect(task.artifacts?.[0]).toEqual({ artifactId: 'art-1', parts: [] });
      expect(task.artifacts?.[1]).toEqual(TASK.artifacts?.[1]);
    },
    at: () => '/artifacts/0/parts',
  },
  {
    name: 'a missing artifactId',
    spoil: (task) => delete items(task, 'artifacts')[0]!.artifactId,
    check: (task) => {
      expect(task.artifacts?.[0]).toEqual({ artifactId: '', parts: [{ text: 'x' }, { text: 'y' }] });
      expect(task.artifacts?.[1]).toEqual(TASK.artifacts?.[1]);
    },
    at: () => '/artifacts/0/artifactId',
  },
  {
    name: 'a missing history messageId',
    spoil: (task) => delete items(task, 'history')[1]!.messageId,
    check: (task) => {
      expect(task.history?.[1]).toEqual({ ...TASK.history?.[1], messageId: '' });
      expect(task.history?.[0]).toEqual(TASK.history?.[0]);
    },
    at: () => '/history/1/messageId',
  },
];

/** What the server answers: the task of each call in wire form, spoiled by the current item. */
let current: { wire: Wire; item: OddItem } | undefined;

function wireTask(spoiled: boolean): Json {
  const { wire, item } = current!;
  const task = JSON.parse(JSON.stringify(wire.codec.encodeTask(TASK))) as Json;
  if (spoiled) item.spoil(task, wire);
  return task;
}

function listPage(): Json {
  return { tasks: [wireTask(false), wireTask(true)], nextPageToken: '', pageSize: 2, totalSize: 2 };
}

/** A stream event holding the spoiled task, in the dialect's StreamResponse form. */
function streamEvent(): Json {
  return current!.wire.codec === v0_3JsonRpcCodec ? wireTask(true) : { task: wireTask(true) };
}

function sse(data: unknown): Reply {
  return { headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(data)}\n\n` };
}

function jsonRpc(request: Recorded): Reply {
  const { id, method } = JSON.parse(request.body) as { id: number; method: string };
  const envelope = (result: unknown): Json => ({ jsonrpc: '2.0', id, result });
  if (/subscribe/i.test(method)) return sse(envelope(streamEvent()));
  if (/list/i.test(method)) return { body: envelope(listPage()) };
  return { body: envelope(wireTask(true)) };
}

let server: JsonServer;
beforeAll(async () => {
  server = await startJsonServer({
    '/': jsonRpc,
    '/tasks/t-1': () => ({ body: wireTask(true) }),
    '/tasks': () => ({ body: listPage() }),
    '/tasks/t-1:subscribe': () => sse(streamEvent()),
    '/v1/tasks/t-1': () => ({ body: wireTask(true) }),
    '/v1/tasks/t-1:subscribe': () => sse(streamEvent()),
    '/.well-known/agent-card.json': () => ({ body: v1_0Codec.encodeAgentCard(cardFor('JSONRPC', '1.0')) }),
    '/odd/.well-known/agent-card.json': () => {
      const card = v1_0Codec.encodeAgentCard(cardFor('JSONRPC', '1.0')) as Json;
      (card.skills as unknown[]).push({ id: 7, name: 'broken' });
      return { body: card };
    },
  });
});
afterAll(async () => {
  await server.close();
});

function cardFor(binding: ClientBinding, version: ProtocolVersion): AgentCard {
  return {
    name: 'odd',
    description: 'answers with one off-spec item',
    supportedInterfaces: [{ url: server.url, protocolBinding: binding, protocolVersion: version }],
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'odd', name: 'odd', description: 'odd answers', tags: ['test'] }],
  };
}

function clientFor(wire: Wire, warnings: A2AReadWarning[], reading?: 'strict'): A2AClient {
  return new A2AClient({
    card: cardFor(wire.binding, wire.version),
    transport: { url: server.url, protocolBinding: wire.binding, protocolVersion: wire.version },
    allowPrivateNetworks: true,
    retry: { retries: 0 },
    resume: { enabled: false },
    onWarning: (warning) => warnings.push(warning),
    ...(reading === undefined ? {} : { reading }),
  });
}

describe.each(WIRES)('a liberal client over $binding $version', (wire) => {
  const base = wire.binding === 'JSONRPC' ? '/result' : '';

  it.each(ODD_ITEMS)('getTask with $name returns the rest and a warning', async (item) => {
    current = { wire, item };
    const warnings: A2AReadWarning[] = [];
    const client = clientFor(wire, warnings);
    const task = await client.getTask({ id: 't-1' });
    expect(task.id).toBe('t-1');
    item.check(task, wire);
    expect(warnings.map((w) => w.path)).toEqual([`${base}${item.at(wire)}`]);
    expect(warnings[0]?.url).toContain(server.url);
    client.close();
  });

  it.each(ODD_ITEMS)('a stream event with $name is delivered with a warning', async (item) => {
    current = { wire, item };
    const warnings: A2AReadWarning[] = [];
    const client = clientFor(wire, warnings);
    const events = [];
    for await (const event of client.subscribeToTask({ id: 't-1' })) events.push(event);
    expect(events).toHaveLength(1);
    const task = (events[0] as { task: Task }).task;
    item.check(task, wire);
    const inEvent = wire.codec === v0_3JsonRpcCodec ? '' : '/task';
    expect(warnings.map((w) => w.path)).toEqual([`${base}${inEvent}${item.at(wire)}`]);
    client.close();
  });

  it('reading: strict refuses the same answer as BAD_RESPONSE', async () => {
    current = { wire, item: ODD_ITEMS[1]! };
    const client = clientFor(wire, [], 'strict');
    const error = await client.getTask({ id: 't-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2ALocalError);
    expect((error as A2ALocalError).kind).toBe('BAD_RESPONSE');
    client.close();
  });
});

describe.each(WIRES.filter((w) => w.version === '1.0'))('listTasks over $binding 1.0', (wire) => {
  const base = wire.binding === 'JSONRPC' ? '/result' : '';

  it.each(ODD_ITEMS)('a page with $name keeps every task and warns', async (item) => {
    current = { wire, item };
    const warnings: A2AReadWarning[] = [];
    const client = clientFor(wire, warnings);
    const page = await client.listTasks();
    expect(page.tasks).toHaveLength(2);
    expect(page.tasks[0]).toEqual(TASK);
    item.check(page.tasks[1]!, wire);
    expect(warnings.map((w) => w.path)).toEqual([`${base}/tasks/1${item.at(wire)}`]);
    client.close();
  });
});

describe('a card with an odd skill', () => {
  it('connect keeps the card without that skill and warns; strict reading refuses it', async () => {
    const warnings: A2AReadWarning[] = [];
    const client = await A2AClient.connect(`${server.url}odd/`, {
      allowPrivateNetworks: true,
      cardCache: false,
      onWarning: (w) => warnings.push(w),
    });
    expect(client.card.skills.map((skill) => skill.id)).toEqual(['odd']);
    expect(warnings.map((w) => w.path)).toEqual(['/skills/1']);
    client.close();
    const strict = await A2AClient.connect(`${server.url}odd/`, {
      allowPrivateNetworks: true,
      cardCache: false,
      reading: 'strict',
    }).catch((e: unknown) => e);
    expect((strict as A2ALocalError).kind).toBe('BAD_RESPONSE');
  });
});

describe('concord list against a server with an odd task', () => {
  it('prints the page, the unknown state as it came, and the warning on stderr', async () => {
    current = { wire: WIRES[0]!, item: ODD_ITEMS[0]! };
    const run = await concord(['list', server.url, '--allow-private']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Tasks: 2 of 2');
    expect(run.stdout).toContain('State: TASK_STATE_PONDERING');
    expect(run.stderr).toContain('/result/tasks/1/status/state');
  });
});
