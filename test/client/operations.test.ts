/**
 * The client against the echo example on a real socket, once per interface (binding x version,
 * gRPC included), forced through the caller's preference: every operation, canonical in and out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A2AClient,
  A2AClientError,
  A2ALocalError,
  CardCache,
  type ClientBinding,
} from '../../src/client/internal.js';
import type { Message, ProtocolVersion, StreamResponse, Task } from '../../src/protocol/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

function text(value: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: value }], ...extra };
}

function taskOf(response: { task: Task } | { message: Message }): Task {
  if (!('task' in response)) throw new Error(`expected a task, got ${JSON.stringify(response)}`);
  return response.task;
}

async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const out: StreamResponse[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

const INTERFACES: [ClientBinding, ProtocolVersion][] = [
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '1.0'],
  ['JSONRPC', '0.3'],
  ['HTTP+JSON', '0.3'],
  ['GRPC', '1.0'],
  ['GRPC', '0.3'],
];

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho({ grpc: true });
});
afterAll(async () => {
  await echo.close();
});

describe.each(INTERFACES)('A2AClient over %s %s', (binding, version) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: [binding], versions: [version] },
    });
  });
  afterAll(() => client.close());

  it('chose the forced interface from the card', () => {
    expect(client.transport).toMatchObject({ protocolBinding: binding, protocolVersion: version });
    expect(client.card.name).toBe('Echo Agent');
  });

  it('sends blocking: the completed task with its artifact', async () => {
    const task = taskOf(await client.sendMessage({ message: text('hello') }));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts?.[0]?.parts[0]?.text).toContain('hello');
  });

  it('sends non-blocking, gets with historyLength, cancels', async () => {
    const task = taskOf(
      await client.sendMessage({ message: text('wait'), configuration: { returnImmediately: true } }),
    );
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
    const got = await client.getTask({ id: task.id, historyLength: 1 });
    expect(got.id).toBe(task.id);
    expect(got.history?.length ?? 0).toBeLessThanOrEqual(1);
    const canceled = await client.cancelTask({ id: task.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('streams `stream 3` as typed events: the task, three chunks, completion', async () => {
    const events = await collect(client.sendStreamingMessage({ message: text('stream 3') }));
    expect('task' in events[0]!).toBe(true);
    const chunks = events.filter((e) => 'artifactUpdate' in e);
    expect(chunks).toHaveLength(3);
    const last = events.at(-1)!;
    expect('statusUpdate' in last && last.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('subscribes to a working task and sees it canceled', async () => {
    const task = taskOf(
      await client.sendMessage({ message: text('wait'), configuration: { returnImmediately: true } }),
    );
    const seen: StreamResponse[] = [];
    const reading = (async () => {
      for await (const event of client.subscribeToTask({ id: task.id })) {
        seen.push(event);
        if (seen.length === 1) await client.cancelTask({ id: task.id });
      }
    })();
    await reading;
    expect('task' in seen[0]!).toBe(true);
    const last = seen.at(-1)!;
    const state =
      'task' in last
        ? last.task.status.state
        : 'statusUpdate' in last
          ? last.statusUpdate.status.state
          : undefined;
    expect(state).toBe('TASK_STATE_CANCELED');
  });

  it('asks for input, then completes on the follow-up', async () => {
    const asked = taskOf(await client.sendMessage({ message: text('ask') }));
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = taskOf(
      await client.sendMessage({ message: text('blue', { taskId: asked.id, contextId: asked.contextId }) }),
    );
    expect(done.id).toBe(asked.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts?.at(-1)?.parts[0]?.text).toBe('echo: blue');
  });

  it('maps a wire error: unknown task -> TaskNotFound with code, reason and status', async () => {
    const error = await client.getTask({ id: 'no-such-task' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect(error).toMatchObject({
      type: 'TaskNotFoundError',
      code: -32001,
      reason: 'TASK_NOT_FOUND',
      httpStatus: binding === 'JSONRPC' ? 200 : binding === 'GRPC' ? 0 : 404,
    });
    // gRPC NOT_FOUND (the catalog's gRPC column); undefined on the HTTP bindings.
    expect((error as A2AClientError).grpcStatus).toBe(binding === 'GRPC' ? 5 : undefined);
  });

  it('calls push-config CRUD through: the echo agent has no push support', async () => {
    const task = taskOf(await client.sendMessage({ message: text('hi') }));
    const error = await client
      .createTaskPushNotificationConfig({ taskId: task.id, url: 'https://example.com/hook' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'PushNotificationNotSupportedError', code: -32003 });
    const listed = await client.listTaskPushNotificationConfigs({ taskId: task.id }).catch((e: unknown) => e);
    expect(listed).toMatchObject({ code: -32003 });
  });

  it('asks for the extended card: not configured on the echo agent', async () => {
    const error = await client.getExtendedAgentCard().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect((error as A2AClientError).type).toMatch(/ExtendedAgentCardNotConfigured|UnsupportedOperation/);
  });

  if (version === '1.0') {
    it('lists tasks with paging', async () => {
      const contextId = crypto.randomUUID();
      for (let i = 0; i < 3; i++) await client.sendMessage({ message: text(`m${i}`, { contextId }) });
      const first = await client.listTasks({ contextId, pageSize: 2 });
      expect(first.tasks).toHaveLength(2);
      expect(first.totalSize).toBe(3);
      expect(first.nextPageToken).not.toBe('');
      const second = await client.listTasks({ contextId, pageSize: 2, pageToken: first.nextPageToken });
      expect(second.tasks).toHaveLength(1);
      const ids = new Set([...first.tasks, ...second.tasks].map((t) => t.id));
      expect(ids.size).toBe(3);
    });
  } else {
    it('refuses listTasks locally: 0.3 has no ListTasks', async () => {
      const error = await client.listTasks({}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(A2ALocalError);
      expect((error as A2ALocalError).kind).toBe('UNSUPPORTED_OPERATION');
    });
  }
});
