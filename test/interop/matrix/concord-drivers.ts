/**
 * Drivers for Concord's own callers: the public client (src/client, `A2AClient.connect` with the
 * interface under test preferred) and the `concord` CLI as a process (`send` with `--push-url`,
 * `send --stream`, `get`, `list`, `cancel`, `subscribe`, `push-config create/get/list/delete`
 * with `--json`, and `card`, `card --extended --token`), so the CLI has every cell the client has.
 */
import { A2AClient, CardCache, bearer, type ClientBinding } from '../../../src/client/internal.js';
import type {
  Message,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from '../../../src/protocol/index.js';
import { concord, ndjson, startConcord } from '../../cli/cli-process.js';
import {
  stateName,
  type ClientRow,
  type Driver,
  type NEvent,
  type NTask,
  type ServerUnderTest,
} from './driver.js';

function taskOf(t: Task): NTask {
  return {
    id: t.id,
    contextId: t.contextId,
    state: stateName(t.status.state),
    texts: (t.artifacts ?? []).flatMap((a) => a.parts.flatMap((p) => (p.text === undefined ? [] : [p.text]))),
    historyLength: t.history?.length ?? 0,
  };
}

function eventOf(e: StreamResponse): NEvent {
  if ('task' in e) return { kind: 'task', id: e.task.id, state: stateName(e.task.status.state) };
  if ('statusUpdate' in e) return { kind: 'status', state: stateName(e.statusUpdate.status.state) };
  if ('artifactUpdate' in e) {
    const u = e.artifactUpdate;
    return {
      kind: 'artifact',
      text: u.artifact.parts[0]?.text ?? '',
      append: u.append === true,
      lastChunk: u.lastChunk === true,
    };
  }
  return { kind: 'message' };
}

const configOf = (c: TaskPushNotificationConfig) => ({
  taskId: c.taskId,
  id: c.id ?? '',
  url: c.url,
  ...(c.token === undefined ? {} : { token: c.token }),
});

const cardOf = (c: { name: string; skills: { id: string }[] }) => ({
  name: c.name,
  skills: c.skills.map((s) => s.id),
});

function message(text: string, o: { taskId?: string; contextId?: string }): Message {
  return {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text }],
    ...(o.taskId === undefined ? {} : { taskId: o.taskId }),
    ...(o.contextId === undefined ? {} : { contextId: o.contextId }),
  };
}

async function connectClient(
  binding: ClientBinding,
  version: ClientRow['version'],
  server: ServerUnderTest,
): Promise<Driver> {
  const open = (withToken: boolean) =>
    A2AClient.connect(server.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: [binding], versions: [version] },
      ...(withToken ? { auth: bearer(server.token) } : {}),
    });
  const client = await open(false);
  const chosen = client.transport;
  if (chosen.protocolBinding !== binding || chosen.protocolVersion !== version)
    throw new Error(`the client chose ${chosen.protocolBinding} ${chosen.protocolVersion}`);
  const collect = async (events: AsyncGenerator<StreamResponse>, attached?: () => Promise<void>) => {
    const out: NEvent[] = [];
    for await (const e of events) {
      out.push(eventOf(e));
      if (out.length === 1 && attached !== undefined) await attached();
    }
    return out;
  };
  const answer = (r: { task: Task } | { message: Message }) => {
    if (!('task' in r)) throw new Error(`expected a task, got ${JSON.stringify(r)}`);
    return taskOf(r.task);
  };
  return {
    card: async () => {
      const fresh = await open(false);
      fresh.close();
      return cardOf(fresh.card);
    },
    extendedCard: async () => {
      const authed = await open(true);
      try {
        return cardOf(await authed.getExtendedAgentCard());
      } finally {
        authed.close();
      }
    },
    sendsPush: true,
    send: async (text, o = {}) =>
      answer(
        await client.sendMessage({
          message: message(text, o),
          configuration: {
            ...(o.returnImmediately === true ? { returnImmediately: true } : {}),
            ...(o.push === undefined
              ? {}
              : { taskPushNotificationConfig: { taskId: '', url: o.push.url, token: o.push.token } }),
          },
        }),
      ),
    stream: (text) => collect(client.sendStreamingMessage({ message: message(text, {}) })),
    get: async (id, historyLength) =>
      taskOf(await client.getTask({ id, ...(historyLength === undefined ? {} : { historyLength }) })),
    list: async (contextId, pageSize, pageToken) => {
      const page = await client.listTasks({
        contextId,
        pageSize,
        ...(pageToken === undefined ? {} : { pageToken }),
      });
      return {
        ids: page.tasks.map((t) => t.id),
        totalSize: page.totalSize,
        nextPageToken: page.nextPageToken ?? '',
      };
    },
    cancel: async (id) => taskOf(await client.cancelTask({ id })),
    resubscribe: (id, attached) => collect(client.subscribeToTask({ id }), attached),
    pushCreate: async ({ id, token, ...rest }) =>
      configOf(
        await client.createTaskPushNotificationConfig({
          ...rest,
          ...(id === '' ? {} : { id }),
          ...(token === undefined ? {} : { token }),
        }),
      ),
    pushGet: async (taskId, id) => configOf(await client.getTaskPushNotificationConfig({ taskId, id })),
    pushList: async (taskId) =>
      (await client.listTaskPushNotificationConfigs({ taskId })).configs.map(configOf),
    pushDelete: (taskId, id) => client.deleteTaskPushNotificationConfig({ taskId, id }),
    close: () => client.close(),
  };
}

/** Runs the CLI and returns its NDJSON objects; a non-zero exit throws with its stderr. */
async function cli(args: string[]): Promise<Record<string, unknown>[]> {
  const run = await concord([...args, '--json']);
  if (run.code !== 0) throw new Error(`concord ${args[0]} exited ${run.code}: ${run.stderr}${run.stdout}`);
  return ndjson(run.stdout);
}

/** The CLI's `--json` objects are canonical StreamResponses or Tasks (1.0 ProtoJSON). */
function cliTask(objects: Record<string, unknown>[]): NTask {
  const last = objects.at(-1);
  const task = (last !== undefined && 'task' in last ? last.task : last) as Task | undefined;
  if (task?.status === undefined) throw new Error(`expected a task, got ${JSON.stringify(objects)}`);
  return taskOf(task);
}

/** `--binding` of the CLI for a row's binding. */
const CLI_BINDING = { JSONRPC: 'jsonrpc', 'HTTP+JSON': 'rest', GRPC: 'grpc' } as const;

async function connectCli(
  binding: ClientRow['binding'],
  version: ClientRow['version'],
  server: ServerUnderTest,
): Promise<Driver> {
  const flags = ['--binding', CLI_BINDING[binding], '--a2a-version', version];
  // `concord card <url>` prints the card as JSON on stdout (its lint verdict goes to stderr); a
  // lint error (an interface that does not answer, a gRPC one included) exits 1 and fails the cell.
  const card = async (extra: string[]) => {
    const run = await concord(['card', server.url, '--card-version', version, ...extra]);
    if (run.code !== 0) throw new Error(`concord card exited ${run.code}: ${run.stderr}`);
    return cardOf(JSON.parse(run.stdout) as { name: string; skills: { id: string }[] });
  };
  const pushConfig = async (args: string[]) => {
    const [config] = await cli(['push-config', args[0]!, server.url, ...args.slice(1), ...flags]);
    return configOf(config as unknown as TaskPushNotificationConfig);
  };
  return {
    card: () => card([]),
    extendedCard: () => card(['--extended', '--token', server.token, '--binding', CLI_BINDING[binding]]),
    sendsPush: true,
    send: async (text, o = {}) =>
      cliTask(
        await cli([
          'send',
          server.url,
          text,
          ...flags,
          ...(o.taskId === undefined ? [] : ['--task', o.taskId]),
          ...(o.contextId === undefined ? [] : ['--context', o.contextId]),
          ...(o.returnImmediately === true ? ['--no-wait'] : []),
          ...(o.push === undefined ? [] : ['--push-url', o.push.url, '--push-token', o.push.token]),
        ]),
      ),
    stream: async (text) =>
      (await cli(['send', server.url, text, '--stream', ...flags])).map((o) => eventOf(o as StreamResponse)),
    get: async (id, historyLength) =>
      cliTask(
        await cli([
          'get',
          server.url,
          id,
          ...flags,
          ...(historyLength === undefined ? [] : ['--history', String(historyLength)]),
        ]),
      ),
    list: async (contextId, pageSize, pageToken) => {
      const [page] = (await cli([
        'list',
        server.url,
        ...flags,
        '--context',
        contextId,
        '--page-size',
        String(pageSize),
        ...(pageToken === undefined ? [] : ['--page-token', pageToken]),
      ])) as { tasks?: Task[]; totalSize?: number; nextPageToken?: string }[];
      return {
        ids: (page?.tasks ?? []).map((t) => t.id),
        totalSize: page?.totalSize,
        nextPageToken: page?.nextPageToken ?? '',
      };
    },
    cancel: async (id) => cliTask(await cli(['cancel', server.url, id, ...flags])),
    resubscribe: async (id, attached) => {
      const live = startConcord(['subscribe', server.url, id, ...flags, '--json', '--stream']);
      await live.until((s) => s.includes('\n'));
      await attached();
      const run = await live.exited;
      // A task that ended canceled (the operation cancels it) still exits 0 (decision 0169).
      if (run.code !== 0) throw new Error(`concord subscribe exited ${run.code}: ${run.stderr}${run.stdout}`);
      return ndjson(run.stdout).map((o) => eventOf(o as StreamResponse));
    },
    pushCreate: ({ taskId, id, url, token }) =>
      pushConfig([
        'create',
        taskId,
        '--push-url',
        url,
        ...(id === '' ? [] : ['--id', id]),
        ...(token === undefined ? [] : ['--push-token', token]),
      ]),
    pushGet: (taskId, id) => pushConfig(['get', taskId, id]),
    pushList: async (taskId) => {
      const [page] = await cli(['push-config', 'list', server.url, taskId, ...flags]);
      return ((page?.configs ?? []) as TaskPushNotificationConfig[]).map(configOf);
    },
    pushDelete: async (taskId, id) => {
      await cli(['push-config', 'delete', server.url, taskId, id, ...flags]);
    },
    close: () => undefined,
  };
}

const BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;
const VERSIONS = ['1.0', '0.3'] as const;

/** Concord's client on every interface. */
export const CONCORD_CLIENT_ROWS: ClientRow[] = BINDINGS.flatMap((binding) =>
  VERSIONS.map((version): ClientRow => ({
    client: 'concord client',
    binding,
    version,
    connect: (server) => connectClient(binding, version, server),
  })),
);

/**
 * The CLI once per binding, each binding in one version (JSON-RPC 1.0, HTTP+JSON 0.3, gRPC 1.0):
 * every wire path under it is the client's, which the client rows cover on all six interfaces;
 * what the CLI adds (flags, output, exit codes) does not depend on the pairing, and each CLI cell
 * costs a process start per call.
 */
export const CONCORD_CLI_ROWS: ClientRow[] = (
  [
    ['JSONRPC', '1.0'],
    ['HTTP+JSON', '0.3'],
    ['GRPC', '1.0'],
  ] as const
).map(([binding, version]): ClientRow => ({
  client: 'concord cli',
  binding,
  version,
  connect: (server) => connectCli(binding, version, server),
}));
