/**
 * Decision 0143, over real sockets: the request forms the 0.3 conformance kit (a2a-tck) sends are
 * read, on HTTP+JSON, JSON-RPC and gRPC: REST message bodies in proto names with `parts` and no
 * `role`, gRPC `ROLE_UNSPECIFIED`, the full CreateTaskPushNotificationConfigRequest as a REST
 * create body, `tasks/get` / `tasks/cancel` by `taskId` or `name`, and a push get of `default`.
 * What stays meaningless is still refused, naming its JSON Pointer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { protoLoaderClient03 } from '../helpers/grpc-driver.js';
import { rpc, startPushServer, type PushServer } from '../push/helpers/push-server.js';

const HOOK = 'https://example.com/webhook';

type Json = Record<string, unknown>;

let server: PushServer;
let grpc: RunningGrpcServer;

beforeAll(async () => {
  server = await startPushServer({
    push: { resolve: async () => [{ address: '93.184.216.34', family: 4 }] },
  });
  grpc = await listenGrpc(server.a2a, { shutdownGraceMs: 200 });
});
afterAll(async () => {
  await grpc.close();
  await server.close();
});

async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${server.url}v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

/** The 0.3 kit's REST send body: proto names, `parts`, no `role`, no `kind`. */
function kitMessage(text: string, extra: Json = {}): Json {
  return { message_id: `tck-${crypto.randomUUID()}`, parts: [{ text }], ...extra };
}

interface RestTask {
  id: string;
  contextId: string;
  status: { state: string };
  history?: { role: string; messageId: string }[];
  artifacts?: { parts: Json[] }[];
}

async function rpc03(method: string, params: unknown): Promise<Json> {
  return (await rpc(server.url, method, params, '0.3')).body;
}

async function openTask03(): Promise<string> {
  const body = await rpc03('message/send', {
    message: {
      kind: 'message',
      messageId: crypto.randomUUID(),
      role: 'user',
      parts: [{ kind: 'text', text: 'ask' }],
    },
  });
  return (body.result as { id: string }).id;
}

describe('0.3 REST message bodies as the kit sends them', () => {
  it('reads {message:{message_id, parts, no role}} as a user message, and a follow-up by task_id/context_id', async () => {
    const first = await rest('POST', 'message:send', { message: kitMessage('ask') });
    expect(first.status).toBe(200);
    const task = first.json.task as RestTask;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.history?.[0]?.role).toBe('ROLE_USER');
    const next = await rest('POST', 'message:send', {
      message: kitMessage('red', { task_id: task.id, context_id: task.contextId }),
    });
    expect(next.status).toBe(200);
    const done = next.json.task as RestTask;
    expect(done.id).toBe(task.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.history?.every((m) => typeof m.role === 'string')).toBe(true);
  });

  it('reads role ROLE_UNSPECIFIED (and 0) as user; the stream endpoint reads the same body', async () => {
    for (const role of ['ROLE_UNSPECIFIED', 0]) {
      const sent = await rest('POST', 'message:send', { message: kitMessage('hello', { role }) });
      expect(sent.status).toBe(200);
      expect((sent.json.task as RestTask).history?.[0]?.role).toBe('ROLE_USER');
    }
    const response = await fetch(`${server.url}v1/message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ message: kitMessage('hello') }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('TASK_STATE_COMPLETED');
  });

  it('reads the kit file part {file:{mime_type, file_with_uri|file_with_bytes}} and data part {data:{data}}', async () => {
    const sent = await rest('POST', 'message:send', {
      message: kitMessage('', {
        parts: [
          { file: { mime_type: 'text/plain', file_with_uri: 'https://example.com/a.txt' } },
          { file: { mime_type: 'text/plain', file_with_bytes: Buffer.from('hi').toString('base64') } },
          { data: { data: { answer: 42 } } },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    const task = sent.json.task as RestTask;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(task.artifacts)).toContain('"answer":42');
  });

  it('refuses parts and content together, an unknown role, and still requires the role on JSON-RPC', async () => {
    const both = await rest('POST', 'message:send', {
      message: kitMessage('x', { content: [{ text: 'y' }] }),
    });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.json)).toContain('/message/parts');
    const odd = await rest('POST', 'message:send', { message: kitMessage('x', { role: 'ROLE_ROBOT' }) });
    expect(odd.status).toBe(400);
    expect(JSON.stringify(odd.json)).toContain('/message/role');
    const body = await rpc03('message/send', {
      message: { kind: 'message', messageId: 'm', parts: [{ kind: 'text', text: 'x' }] },
    });
    expect((body.error as { code: number }).code).toBe(-32602);
    expect(JSON.stringify(body.error)).toContain('/params/message/role');
  });
});

describe('0.3 gRPC SendMessage with ROLE_UNSPECIFIED', () => {
  it('reads an unset role as user, as the kit sends it when a test omits role', async () => {
    type Answer = { task?: { status: { state: string }; history: { role: string }[] } };
    const client = protoLoaderClient03<{
      SendMessage(request: unknown, callback: (error: Error | null, value?: Answer) => void): void;
    }>(grpc.target);
    try {
      const answer = await new Promise<Answer>((resolve, reject) =>
        client.SendMessage(
          {
            request: {
              message_id: `tck-${crypto.randomUUID()}`,
              context_id: '',
              task_id: '',
              role: 'ROLE_UNSPECIFIED',
              content: [{ text: 'hello' }],
            },
            configuration: { accepted_output_modes: [], history_length: 0, blocking: true },
          },
          (error, value) => (error === null && value !== undefined ? resolve(value) : reject(error)),
        ),
      );
      expect(answer.task?.status.state).toBe('TASK_STATE_COMPLETED');
      expect(answer.task?.history[0]?.role).toBe('ROLE_USER');
    } finally {
      client.close();
    }
  });
});

describe('0.3 REST push create with the full CreateTaskPushNotificationConfigRequest', () => {
  function kitBody(taskId: string, extra: Json = {}): Json {
    return {
      parent: `tasks/${taskId}`,
      config_id: 'default',
      config: {
        name: `tasks/${taskId}/pushNotificationConfigs/default`,
        push_notification_config: { id: 'default', url: HOOK, token: '', authentication: {} },
      },
      ...extra,
    };
  }

  it('creates the config and answers in camelCase; token "" and authentication {} are absent', async () => {
    const taskId = await openTask03();
    const created = await rest('POST', `tasks/${taskId}/pushNotificationConfigs`, kitBody(taskId));
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      name: `tasks/${taskId}/pushNotificationConfigs/default`,
      pushNotificationConfig: { id: 'default', url: HOOK },
    });
    const read = await rest('GET', `tasks/${taskId}/pushNotificationConfigs/default`);
    expect(read.status).toBe(200);
    expect((read.json.pushNotificationConfig as Json).url).toBe(HOOK);
  });

  it('config_id names a config whose inner config has no id', async () => {
    const taskId = await openTask03();
    const created = await rest('POST', `tasks/${taskId}/pushNotificationConfigs`, {
      parent: `tasks/${taskId}`,
      config_id: 'mine',
      config: { push_notification_config: { url: HOOK } },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ pushNotificationConfig: { id: 'mine', url: HOOK } });
  });

  it('refuses a parent naming another task and a config_id contradicting the config id', async () => {
    const taskId = await openTask03();
    const other = await rest(
      'POST',
      `tasks/${taskId}/pushNotificationConfigs`,
      kitBody(taskId, { parent: 'tasks/someone-else' }),
    );
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.json)).toContain('/parent');
    const clash = await rest(
      'POST',
      `tasks/${taskId}/pushNotificationConfigs`,
      kitBody(taskId, { config_id: 'another' }),
    );
    expect(clash.status).toBe(400);
    expect(JSON.stringify(clash.json)).toContain('/config_id');
    const noUrl = await rest('POST', `tasks/${taskId}/pushNotificationConfigs`, {
      parent: `tasks/${taskId}`,
      config: { push_notification_config: { id: 'x' } },
    });
    expect(noUrl.status).toBe(400);
    expect(JSON.stringify(noUrl.json)).toContain('/config/push_notification_config/url');
  });
});

describe('0.3 JSON-RPC tasks/get and tasks/cancel by taskId or name', () => {
  it('reads {taskId} and {name:"tasks/<id>"} like {id}', async () => {
    const taskId = await openTask03();
    const got = await rpc03('tasks/get', { taskId, historyLength: 1 });
    expect((got.result as { id: string }).id).toBe(taskId);
    expect((got.result as { history: unknown[] }).history).toHaveLength(1);
    const named = await rpc03('tasks/get', { name: `tasks/${taskId}` });
    expect((named.result as { id: string }).id).toBe(taskId);
    const canceled = await rpc03('tasks/cancel', { taskId });
    expect((canceled.result as { status: { state: string } }).status.state).toBe('canceled');
  });

  it('answers an unknown taskId with -32001 and contradicting ids with -32602 naming the member', async () => {
    const missing = await rpc03('tasks/get', { taskId: `non-existent-${crypto.randomUUID()}` });
    expect((missing.error as { code: number }).code).toBe(-32001);
    const taskId = await openTask03();
    const clash = await rpc03('tasks/cancel', { id: taskId, taskId: 'other' });
    expect((clash.error as { code: number }).code).toBe(-32602);
    expect(JSON.stringify(clash.error)).toContain('/params/taskId');
    const badName = await rpc03('tasks/get', { name: taskId });
    expect(JSON.stringify(badName.error)).toContain('/params/name');
    const otherName = await rpc03('tasks/get', { id: taskId, name: 'not a resource name' });
    expect((otherName.result as { id: string }).id).toBe(taskId);
    const none = await rpc03('tasks/get', {});
    expect(JSON.stringify(none.error)).toContain('/params/id');
  });
});

describe('0.3 JSON-RPC push get with the id "default"', () => {
  it('reads the default config of a config set without an id; a config stored as "default" wins', async () => {
    const taskId = await openTask03();
    const set = await rpc03('tasks/pushNotificationConfig/set', {
      taskId,
      pushNotificationConfig: { url: HOOK },
    });
    expect((set.result as { pushNotificationConfig: { id: string } }).pushNotificationConfig.id).toBe(taskId);
    const got = await rpc03('tasks/pushNotificationConfig/get', {
      id: taskId,
      pushNotificationConfigId: 'default',
    });
    expect((got.result as { pushNotificationConfig: { url: string } }).pushNotificationConfig.url).toBe(HOOK);

    const own = 'https://example.com/own';
    await rpc03('tasks/pushNotificationConfig/set', {
      taskId,
      pushNotificationConfig: { id: 'default', url: own },
    });
    const mine = await rpc03('tasks/pushNotificationConfig/get', {
      id: taskId,
      pushNotificationConfigId: 'default',
    });
    expect((mine.result as { pushNotificationConfig: { url: string } }).pushNotificationConfig.url).toBe(own);

    const other = await rpc03('tasks/pushNotificationConfig/get', {
      id: taskId,
      pushNotificationConfigId: 'nope',
    });
    expect((other.error as { code: number }).code).toBe(-32001);
  });

  it('delete of "default" removes the default config when none is stored under that id', async () => {
    const taskId = await openTask03();
    await rpc03('tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url: HOOK } });
    const deleted = await rpc03('tasks/pushNotificationConfig/delete', {
      id: taskId,
      pushNotificationConfigId: 'default',
    });
    expect(deleted.result).toBeNull();
    const list = await rpc03('tasks/pushNotificationConfig/list', { id: taskId });
    expect(list.result).toEqual([]);
  });

  it('1.0 keeps "default" an ordinary id', async () => {
    const taskId = await openTask03();
    await rpc03('tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url: HOOK } });
    const { body } = await rpc(server.url, 'GetTaskPushNotificationConfig', { taskId, id: 'default' });
    expect((body.error as { code: number }).code).toBe(-32001);
  });
});
