/**
 * Interop, direction (a): Concord's client (src/client) against an agent served by the official
 * TypeScript SDK (`@a2a-js/sdk` 1.3.0) over real sockets, once per interface the SDK serves:
 * JSON-RPC, HTTP+JSON and gRPC, each in 1.0 and (the SDK's legacyCompat) 0.3. Each runs send,
 * stream, get and cancel (and list in 1.0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, A2AClientError, CardCache, type ClientBinding } from '../../src/client/internal.js';
import type { Message, ProtocolVersion, StreamResponse, Task } from '../../src/protocol/index.js';
import { startSdkServer, type SdkServer } from './helpers/sdk-server.js';

function text(value: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: value }], ...extra };
}

function taskOf(response: { task: Task } | { message: Message }): Task {
  if (!('task' in response)) throw new Error(`expected a task, got ${JSON.stringify(response)}`);
  return response.task;
}

function stateOf(event: StreamResponse | undefined): string | undefined {
  if (event === undefined) return undefined;
  if ('task' in event) return event.task.status.state;
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  return undefined;
}

const INTERFACES: [ClientBinding, ProtocolVersion][] = [
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '1.0'],
  ['JSONRPC', '0.3'],
  ['HTTP+JSON', '0.3'],
  ['GRPC', '1.0'],
  ['GRPC', '0.3'],
];

let sdk: SdkServer;
beforeAll(async () => {
  sdk = await startSdkServer({ grpc: true });
});
afterAll(async () => {
  await sdk.close();
});

describe.each(INTERFACES)('Concord client -> SDK server over %s %s', (binding, version) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(sdk.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: [binding], versions: [version] },
    });
  });
  afterAll(() => client.close());

  it('resolves the SDK card and picks the interface it declares', () => {
    expect(client.card.name).toBe('SDK Echo');
    expect(client.transport).toMatchObject({ protocolBinding: binding, protocolVersion: version });
    expect(client.transport.url).toBe(
      binding === 'JSONRPC' ? sdk.url : binding === 'GRPC' ? sdk.grpcTarget : sdk.restUrl,
    );
  });

  it('sends: the completed task with its artifact', async () => {
    const task = taskOf(await client.sendMessage({ message: text('hello sdk') }));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts[0]?.text).toBe('echo: hello sdk');
  });

  it('streams: the task first, every chunk in order, then completed', async () => {
    const events: StreamResponse[] = [];
    for await (const event of client.sendStreamingMessage({ message: text('stream 3') })) events.push(event);
    expect('task' in events[0]!).toBe(true);
    const chunks = events.flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate] : []));
    expect(chunks.map((c) => c.artifact.parts[0]?.text)).toEqual([
      'chunk 1 of 3\n',
      'chunk 2 of 3\n',
      'chunk 3 of 3\n',
    ]);
    expect(chunks.map((c) => c.append === true)).toEqual([false, true, true]);
    expect(chunks.map((c) => c.lastChunk === true)).toEqual([false, false, true]);
    expect(stateOf(events.at(-1))).toBe('TASK_STATE_COMPLETED');
  });

  it('gets a task with historyLength, and TaskNotFound for an unknown id', async () => {
    const task = taskOf(await client.sendMessage({ message: text('remember me') }));
    const got = await client.getTask({ id: task.id, historyLength: 1 });
    expect(got.id).toBe(task.id);
    expect(got.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.history?.length ?? 0).toBeLessThanOrEqual(1);
    const error = await client.getTask({ id: 'no-such-task' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect(error).toMatchObject({ type: 'TaskNotFoundError', code: -32001 });
  });

  it('cancels a waiting task; cancel is idempotent, a completed task is not cancelable', async () => {
    const task = taskOf(
      await client.sendMessage({ message: text('wait'), configuration: { returnImmediately: true } }),
    );
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
    const canceled = await client.cancelTask({ id: task.id });
    expect(canceled.id).toBe(task.id);
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect((await client.getTask({ id: task.id })).status.state).toBe('TASK_STATE_CANCELED');
    // A repeated cancel answers the canceled task (cancel is idempotent, A2A 1.0 §3.3.1).
    expect((await client.cancelTask({ id: task.id })).status.state).toBe('TASK_STATE_CANCELED');
    const done = taskOf(await client.sendMessage({ message: text('done') }));
    const refused = await client.cancelTask({ id: done.id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(A2AClientError);
    expect(refused).toMatchObject({ type: 'TaskNotCancelableError', code: -32002 });
  });

  if (version === '1.0') {
    it('lists tasks of one context with paging', async () => {
      const contextId = crypto.randomUUID();
      for (let i = 0; i < 3; i++) await client.sendMessage({ message: text(`m${i}`, { contextId }) });
      const first = await client.listTasks({ contextId, pageSize: 2 });
      expect(first.tasks).toHaveLength(2);
      expect(first.totalSize).toBe(3);
      const second = await client.listTasks({ contextId, pageSize: 2, pageToken: first.nextPageToken });
      expect(new Set([...first.tasks, ...second.tasks].map((t) => t.id)).size).toBe(3);
      expect(second.nextPageToken).toBe('');
    });
  }
});
