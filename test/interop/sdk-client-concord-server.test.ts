/**
 * Interop, direction (b): the official TypeScript SDK's client (`@a2a-js/sdk` 1.3.0,
 * ClientFactory with its JSON-RPC, REST and gRPC transport factories, 0.3 through `legacyCompat`)
 * against Concord's server serving the echo example on a real socket. Each interface Concord's
 * card declares runs send, stream, get and cancel (and list in 1.0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, TaskState, type AgentCard, type Message, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

type Binding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
const legacyCompat = { enabled: true };

function userMessage(text: string): Message {
  return {
    messageId: crypto.randomUUID(),
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    contextId: '',
    taskId: '',
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function request(text: string, returnImmediately = false) {
  return {
    tenant: '',
    message: userMessage(text),
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately,
    },
    metadata: undefined,
  };
}

function textOf(task: Task): string | undefined {
  const content = task.artifacts[0]?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
}

function asTask(result: Message | Task): Task {
  if (!('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
}

let echo: EchoServer;
let card: AgentCard;
beforeAll(async () => {
  echo = await startEcho({ grpc: true });
  card = await new DefaultAgentCardResolver({ legacyCompat }).resolve(echo.url);
});
afterAll(async () => {
  await echo.close();
});

const INTERFACES: [Binding, '1.0' | '0.3'][] = [
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '1.0'],
  ['JSONRPC', '0.3'],
  ['HTTP+JSON', '0.3'],
  ['GRPC', '1.0'],
  ['GRPC', '0.3'],
];

describe.each(INTERFACES)('SDK client -> Concord server over %s %s', (binding, version) => {
  let client: Client;
  beforeAll(async () => {
    // The SDK picks the first interface of a binding; keep only the one under test.
    const only = card.supportedInterfaces.filter(
      (i) => i.protocolBinding === binding && i.protocolVersion === version,
    );
    expect(only).toHaveLength(1);
    const factory = new ClientFactory({
      transports: [
        new JsonRpcTransportFactory({ legacyCompat }),
        new RestTransportFactory({ legacyCompat }),
        new GrpcTransportFactory({ legacyCompat }),
      ],
      cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
    });
    client = await factory.createFromAgentCard({ ...card, supportedInterfaces: only });
    expect(client.protocolVersion).toBe(version);
  });

  it('sends: the completed task with its artifact', async () => {
    const task = asTask(await client.sendMessage(request('hello from the sdk')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task)).toBe('echo: hello from the sdk');
  });

  it('streams `stream 3`: the task, three chunks in order, then completed', async () => {
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(request('stream 3'))) events.push(event);
    expect(events[0]?.payload?.$case).toBe('task');
    const chunks = events.flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value] : []));
    expect(
      chunks.map((c) => {
        const content = c.artifact?.parts[0]?.content;
        return content?.$case === 'text' ? content.value : undefined;
      }),
    ).toEqual(['chunk 1 of 3\n', 'chunk 2 of 3\n', 'chunk 3 of 3\n']);
    // SDK 1.3.0's 0.3 REST and 0.3 gRPC transports lose `append` when they convert the 0.3 proto
    // event (compat/v0_3 `_FromProto.taskArtifactUpdateEvent` copies lastChunk only); Concord sends
    // it (`append: true` on chunks 2 and 3, checked on the wire by test/check and, over gRPC, by the
    // conformance suite's gRPC 0.3 driver). Everywhere else it arrives.
    const sdkDropsAppend = binding !== 'JSONRPC' && version === '0.3';
    expect(chunks.map((c) => c.append)).toEqual(sdkDropsAppend ? [false, false, false] : [false, true, true]);
    expect(chunks.map((c) => c.lastChunk)).toEqual([false, false, true]);
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' ? last.value.status?.state : undefined).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });

  it('gets the task with historyLength; an unknown id is an error', async () => {
    const sent = asTask(await client.sendMessage(request('keep this')));
    const got = await client.getTask({ tenant: '', id: sent.id, historyLength: 1 });
    expect(got.id).toBe(sent.id);
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(got.history.length).toBeLessThanOrEqual(1);
    expect(textOf(got)).toBe('echo: keep this');
    await expect(client.getTask({ tenant: '', id: 'no-such-task' })).rejects.toThrow(/not found/i);
  });

  it('cancels a waiting task', async () => {
    const task = asTask(await client.sendMessage(request('wait', true)));
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(task.status?.state);
    const canceled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    expect(canceled.id).toBe(task.id);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const got = await client.getTask({ tenant: '', id: task.id });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask({ tenant: '', id: task.id, metadata: undefined })).rejects.toThrow(
      /cancel/i,
    );
  });

  if (version === '1.0') {
    it('lists tasks of one context with paging', async () => {
      const contextId = crypto.randomUUID();
      for (let i = 0; i < 3; i++) {
        const r = request(`m${i}`);
        await client.sendMessage({ ...r, message: { ...r.message, contextId } });
      }
      const first = await client.listTasks({
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 2,
        pageToken: '',
        includeArtifacts: false,
      } as Parameters<Client['listTasks']>[0]);
      expect(first.tasks).toHaveLength(2);
      expect(first.totalSize).toBe(3);
      expect(first.nextPageToken).not.toBe('');
    });
  }
});
