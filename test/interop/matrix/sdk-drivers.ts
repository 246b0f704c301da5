/**
 * Drivers for the official SDK's clients: `@a2a-js/sdk` 1.3 (its ClientFactory with the
 * JSON-RPC, REST and gRPC transport factories, 1.0 or, through `legacyCompat`, 0.3) and the 0.3.x
 * line (`@a2a-js/sdk-v03`, installed beside it as an npm alias; 0.3 only, its own factories).
 * Each connects the way a user of that SDK would: resolve the card, keep the interface under test.
 */
import { Role, TaskState, type AgentCard, type Message, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import * as v03 from '@a2a-js/sdk-v03/client';
import {
  GrpcTransport as GrpcTransport03,
  GrpcTransportFactory as GrpcTransportFactory03,
} from '@a2a-js/sdk-v03/client/grpc';
import type * as v03Types from '@a2a-js/sdk-v03';
import {
  stateName,
  type ClientRow,
  type Driver,
  type NEvent,
  type NTask,
  type SendOptions,
  type ServerUnderTest,
} from './driver.js';

const TRANSPORT_03 = {
  JSONRPC: v03.JsonRpcTransport,
  'HTTP+JSON': v03.RestTransport,
  GRPC: GrpcTransport03,
} as const;

const legacyCompat = { enabled: true };
/** Streams end on their own; this only keeps a hanging one from outliving its test. */
const STREAM_LIMIT_MS = 8_000;

function text13(t: Task): NTask {
  return {
    id: t.id,
    contextId: t.contextId,
    state: stateName(t.status?.state),
    texts: t.artifacts.flatMap((a) =>
      a.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])),
    ),
    historyLength: t.history.length,
  };
}

function event13(e: StreamResponse): NEvent {
  const p = e.payload;
  switch (p?.$case) {
    case 'task':
      return { kind: 'task', id: p.value.id, state: stateName(p.value.status?.state) };
    case 'statusUpdate':
      return { kind: 'status', state: stateName(p.value.status?.state) };
    case 'artifactUpdate': {
      const content = p.value.artifact?.parts[0]?.content;
      return {
        kind: 'artifact',
        text: content?.$case === 'text' ? content.value : '',
        append: p.value.append,
        lastChunk: p.value.lastChunk,
      };
    }
    default:
      return { kind: 'message' };
  }
}

function message13(text: string, taskId = '', contextId = ''): Message {
  return {
    messageId: crypto.randomUUID(),
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    contextId,
    taskId,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function sendRequest13(text: string, o: SendOptions) {
  return {
    tenant: '',
    message: message13(text, o.taskId, o.contextId),
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig:
        o.push === undefined
          ? undefined
          : {
              tenant: '',
              id: '',
              taskId: '',
              url: o.push.url,
              token: o.push.token,
              authentication: undefined,
            },
      returnImmediately: o.returnImmediately === true,
    },
    metadata: undefined,
  };
}

function asTask13(result: Message | Task): Task {
  if (!('status' in result)) throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

const cardOf = (c: { name: string; skills: { id: string }[] }) => ({
  name: c.name,
  skills: c.skills.map((s) => s.id),
});

/** Connects the 1.3 SDK to the one interface of the card with this binding and version. */
async function connect13(
  binding: ClientRow['binding'],
  version: ClientRow['version'],
  { url, token }: ServerUnderTest,
): Promise<Driver> {
  const resolver = new DefaultAgentCardResolver({ legacyCompat });
  const card: AgentCard = await resolver.resolve(url);
  const only = card.supportedInterfaces.filter(
    (i) => i.protocolBinding === binding && i.protocolVersion === version,
  );
  if (only.length === 0) throw new Error(`the card lists no ${binding} ${version} interface`);
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ legacyCompat }),
      new RestTransportFactory({ legacyCompat }),
      new GrpcTransportFactory({ legacyCompat }),
    ],
    cardResolver: resolver,
  });
  // The SDK picks the first interface of a binding; the card given to it keeps only this one.
  const client: Client = await factory.createFromAgentCard({
    ...card,
    supportedInterfaces: only.slice(0, 1),
  });
  if (client.protocolVersion !== version)
    throw new Error(`the SDK chose ${client.protocolVersion}, not ${version}`);
  const collect = async (events: AsyncGenerator<StreamResponse>, attached?: () => Promise<void>) => {
    const out: NEvent[] = [];
    for await (const e of events) {
      out.push(event13(e));
      if (out.length === 1 && attached !== undefined) await attached();
    }
    return out;
  };
  const signal = () => ({ signal: AbortSignal.timeout(STREAM_LIMIT_MS) });
  return {
    card: async () => cardOf(await resolver.resolve(url)),
    extendedCard: async () =>
      cardOf(await client.getAgentCard({ serviceParameters: { authorization: `Bearer ${token}` } })),
    sendsPush: true,
    send: async (text, o = {}) => text13(asTask13(await client.sendMessage(sendRequest13(text, o)))),
    stream: (text) => collect(client.sendMessageStream(sendRequest13(text, {}), signal())),
    get: async (id, historyLength) =>
      text13(
        await client.getTask({ tenant: '', id, ...(historyLength === undefined ? {} : { historyLength }) }),
      ),
    list: async (contextId, pageSize, pageToken = '') => {
      const page = await client.listTasks({
        tenant: '',
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize,
        pageToken,
        statusTimestampAfter: undefined,
      });
      return {
        ids: page.tasks.map((t) => t.id),
        totalSize: page.totalSize,
        nextPageToken: page.nextPageToken,
      };
    },
    cancel: async (id) => text13(await client.cancelTask({ tenant: '', id, metadata: undefined })),
    resubscribe: (id, attached) => collect(client.resubscribeTask({ tenant: '', id }, signal()), attached),
    pushCreate: async (c) => {
      const made = await client.createTaskPushNotificationConfig({
        tenant: '',
        id: c.id,
        taskId: c.taskId,
        url: c.url,
        token: c.token ?? '',
        authentication: undefined,
      });
      return { taskId: made.taskId, id: made.id, url: made.url, token: made.token };
    },
    pushGet: async (taskId, id) => {
      const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId, id });
      return { taskId: got.taskId, id: got.id, url: got.url, token: got.token };
    },
    pushList: async (taskId) => {
      const listed = await client.listTaskPushNotificationConfig({
        tenant: '',
        taskId,
        pageSize: 0,
        pageToken: '',
      });
      return listed.configs.map((c) => ({ taskId: c.taskId, id: c.id, url: c.url, token: c.token }));
    },
    pushDelete: (taskId, id) => client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id }),
    close: () => undefined,
  };
}

function task03(t: v03Types.Task): NTask {
  return {
    id: t.id,
    contextId: t.contextId,
    state: stateName(t.status.state),
    texts: (t.artifacts ?? []).flatMap((a) => a.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : []))),
    historyLength: t.history?.length ?? 0,
  };
}

function event03(
  e: v03Types.Message | v03Types.Task | v03Types.TaskStatusUpdateEvent | v03Types.TaskArtifactUpdateEvent,
): NEvent {
  switch (e.kind) {
    case 'task':
      return { kind: 'task', id: e.id, state: stateName(e.status.state) };
    case 'status-update':
      return { kind: 'status', state: stateName(e.status.state) };
    case 'artifact-update': {
      const part = e.artifact.parts[0];
      return {
        kind: 'artifact',
        text: part?.kind === 'text' ? part.text : '',
        append: e.append === true,
        lastChunk: e.lastChunk === true,
      };
    }
    default:
      return { kind: 'message' };
  }
}

function params03(text: string, o: SendOptions) {
  const message: v03Types.Message = {
    kind: 'message',
    messageId: crypto.randomUUID(),
    role: 'user',
    parts: [{ kind: 'text', text }],
    ...(o.taskId === undefined ? {} : { taskId: o.taskId }),
    ...(o.contextId === undefined ? {} : { contextId: o.contextId }),
  };
  // 0.3's `blocking: false` is 1.0's returnImmediately (A2A 1.0 §3.2.2).
  return {
    message,
    configuration: {
      blocking: o.returnImmediately !== true,
      ...(o.push === undefined ? {} : { pushNotificationConfig: { url: o.push.url, token: o.push.token } }),
    },
  };
}

function asTask03(result: v03Types.Message | v03Types.Task): v03Types.Task {
  if (result.kind !== 'task') throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

/** Connects the 0.3.x SDK, preferring the transport under test (its card is the 0.3 card). */
async function connect03(binding: ClientRow['binding'], { url, token }: ServerUnderTest): Promise<Driver> {
  const resolver = new v03.DefaultAgentCardResolver();
  const factory = new v03.ClientFactory({
    transports: [
      new v03.JsonRpcTransportFactory(),
      new v03.RestTransportFactory(),
      new GrpcTransportFactory03(),
    ],
    preferredTransports: [binding],
    cardResolver: resolver,
  });
  const card = await resolver.resolve(url);
  const client = await factory.createFromAgentCard(card);
  // The 0.3 line takes the preferred transport when the card offers it, else falls back silently.
  if (!(client.transport instanceof TRANSPORT_03[binding]))
    throw new Error(`the 0.3 SDK chose ${client.transport.constructor.name}, not ${binding}`);
  const collect = async (
    events: AsyncGenerator<Parameters<typeof event03>[0]>,
    attached?: () => Promise<void>,
  ) => {
    const out: NEvent[] = [];
    for await (const e of events) {
      out.push(event03(e));
      if (out.length === 1 && attached !== undefined) await attached();
    }
    return out;
  };
  const signal = () => ({ signal: AbortSignal.timeout(STREAM_LIMIT_MS) });
  const config03 = (c: v03Types.TaskPushNotificationConfig) => ({
    taskId: c.taskId,
    id: c.pushNotificationConfig.id ?? '',
    url: c.pushNotificationConfig.url,
    ...(c.pushNotificationConfig.token === undefined ? {} : { token: c.pushNotificationConfig.token }),
  });
  return {
    card: async () => cardOf(await resolver.resolve(url)),
    extendedCard: async () =>
      cardOf(await client.getAgentCard({ serviceParameters: { authorization: `Bearer ${token}` } })),
    sendsPush: true,
    send: async (text, o = {}) => task03(asTask03(await client.sendMessage(params03(text, o)))),
    stream: (text) => collect(client.sendMessageStream(params03(text, {}), signal())),
    get: async (id, historyLength) =>
      task03(await client.getTask({ id, ...(historyLength === undefined ? {} : { historyLength }) })),
    cancel: async (id) => task03(await client.cancelTask({ id })),
    resubscribe: (id, attached) => collect(client.resubscribeTask({ id }, signal()), attached),
    pushCreate: async (c) =>
      config03(
        await client.setTaskPushNotificationConfig({
          taskId: c.taskId,
          pushNotificationConfig: {
            ...(c.id === '' ? {} : { id: c.id }),
            url: c.url,
            ...(c.token === undefined ? {} : { token: c.token }),
          },
        }),
      ),
    pushGet: async (taskId, id) =>
      // Its Client types the params as TaskIdParams but passes them on whole to the transport.
      config03(
        await client.getTaskPushNotificationConfig({
          id: taskId,
          pushNotificationConfigId: id,
        } as v03Types.TaskIdParams),
      ),
    pushList: async (taskId) => (await client.listTaskPushNotificationConfig({ id: taskId })).map(config03),
    pushDelete: (taskId, id) =>
      client.deleteTaskPushNotificationConfig({ id: taskId, pushNotificationConfigId: id }),
    close: () => undefined,
  };
}

/** The SDK rows of the matrix (the 1.3 line in 1.0 and 0.3 compat mode; the 0.3.x line). */
export const SDK_CLIENTS: ClientRow[] = [
  ...(['JSONRPC', 'HTTP+JSON', 'GRPC'] as const).flatMap((binding) =>
    (['1.0', '0.3'] as const).map((version): ClientRow => ({
      client: 'sdk 1.3',
      binding,
      version,
      ...(binding !== 'JSONRPC' && version === '0.3'
        ? {
            limits: {
              dropsAppend:
                "SDK 1.3's 0.3 REST/gRPC transports rebuild artifact updates from the 0.3 proto and copy lastChunk only (compat/v0_3 _FromProto.taskArtifactUpdateEvent)",
            },
          }
        : {}),
      connect: (server) => connect13(binding, version, server),
    })),
  ),
  ...(['JSONRPC', 'HTTP+JSON', 'GRPC'] as const).map((binding): ClientRow => ({
    client: 'sdk 0.3',
    binding,
    version: '0.3',
    ...(binding === 'JSONRPC'
      ? {}
      : {
          limits: {
            dropsAppend:
              "SDK 0.3.14's REST/gRPC transports rebuild artifact updates from the proto and copy lastChunk only (FromProto.taskArtifactUpdateEvent)",
          },
        }),
    connect: (server) => connect03(binding, server),
  })),
];
