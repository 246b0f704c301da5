/**
 * Push-config CRUD on both versions and both bindings, over a real socket (A2A 1.0 §3.1.7-3.1.10,
 * 0.3 `tasks/pushNotificationConfig/*`, A2A 1.0 §3.1.7-§3.1.10, §11.3.3): create answers with the assigned id and
 * without the token or the credentials (decision 0088), get and list read the same view, delete is
 * idempotent and its config cannot be read afterwards; bad configs are -32602 / 400 naming the
 * field in the call's own wire shape, inline ones in a send included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PUSH_CONFIGS_PER_TASK } from '../../src/server/internal.js';
import { jsonRpcWireError, restWireError, type WireError } from '../helpers/drivers.js';
import { message, rpc, startPushServer, type PushServer } from './helpers/push-server.js';

let server: PushServer;
const HOOK = 'https://hooks.example/a2a';

beforeAll(async () => {
  // A fixed public answer for every name: the tests do not depend on the machine's DNS.
  server = await startPushServer({
    push: { resolve: async () => [{ address: '93.184.216.34', family: 4 }] },
  });
});
afterAll(async () => {
  await server.close();
});

type Result = { ok: true; value: unknown; status: number } | { ok: false; error: WireError };

/** One (binding, version) as the wire speaks it. */
interface Wire {
  name: string;
  create(
    taskId: string,
    config: { url: string; id?: string; token?: string; scheme?: string; credentials?: string },
  ): Promise<Result>;
  get(taskId: string, id: string): Promise<Result>;
  list(taskId: string): Promise<Result>;
  remove(taskId: string, id: string): Promise<Result>;
  /** The configs of a list result. */
  configs(value: unknown): unknown[];
  /** The public view the wire returns for a stored config. */
  view(taskId: string, id: string, url: string, scheme?: string): unknown;
  deleted: unknown;
  /** The pointer prefix of a config's fields in a create. */
  fields: string;
}

async function rpcResult(method: string, params: unknown, version: '0.3' | '1.0'): Promise<Result> {
  const { status, body } = await rpc(server.url, method, params, version);
  if ('error' in body) return { ok: false, error: jsonRpcWireError(status, body) };
  return { ok: true, value: body.result, status };
}

async function rest(method: string, path: string, version: '0.3' | '1.0', body?: unknown): Promise<Result> {
  const response = await fetch(`${server.url}${version === '0.3' ? 'v1/' : ''}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(version === '1.0' ? { 'a2a-version': '1.0' } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) return { ok: false, error: restWireError(response.status, json) };
  return { ok: true, value: json, status: response.status };
}

const auth10 = (c: { scheme?: string; credentials?: string }) =>
  c.scheme === undefined
    ? {}
    : {
        authentication: {
          scheme: c.scheme,
          ...(c.credentials === undefined ? {} : { credentials: c.credentials }),
        },
      };
const auth03 = (c: { scheme?: string; credentials?: string }) =>
  c.scheme === undefined
    ? {}
    : {
        authentication: {
          schemes: [c.scheme],
          ...(c.credentials === undefined ? {} : { credentials: c.credentials }),
        },
      };
const inner = (c: { url: string; id?: string; token?: string }) => ({
  url: c.url,
  ...(c.id === undefined ? {} : { id: c.id }),
  ...(c.token === undefined ? {} : { token: c.token }),
});

const WIRES: Wire[] = [
  {
    name: 'JSON-RPC 1.0',
    create: (taskId, c) =>
      rpcResult('CreateTaskPushNotificationConfig', { taskId, ...inner(c), ...auth10(c) }, '1.0'),
    get: (taskId, id) => rpcResult('GetTaskPushNotificationConfig', { taskId, id }, '1.0'),
    list: (taskId) => rpcResult('ListTaskPushNotificationConfigs', { taskId }, '1.0'),
    remove: (taskId, id) => rpcResult('DeleteTaskPushNotificationConfig', { taskId, id }, '1.0'),
    configs: (v) => (v as { configs: unknown[] }).configs,
    view: (taskId, id, url, scheme) => ({
      taskId,
      id,
      url,
      ...(scheme === undefined ? {} : { authentication: { scheme } }),
    }),
    deleted: {},
    fields: '',
  },
  {
    name: 'HTTP+JSON 1.0',
    create: (taskId, c) =>
      rest('POST', `tasks/${taskId}/pushNotificationConfigs`, '1.0', { ...inner(c), ...auth10(c) }),
    get: (taskId, id) => rest('GET', `tasks/${taskId}/pushNotificationConfigs/${id}`, '1.0'),
    list: (taskId) => rest('GET', `tasks/${taskId}/pushNotificationConfigs`, '1.0'),
    remove: (taskId, id) => rest('DELETE', `tasks/${taskId}/pushNotificationConfigs/${id}`, '1.0'),
    configs: (v) => (v as { configs: unknown[] }).configs,
    view: (taskId, id, url, scheme) => ({
      taskId,
      id,
      url,
      ...(scheme === undefined ? {} : { authentication: { scheme } }),
    }),
    deleted: {},
    fields: '',
  },
  {
    name: 'JSON-RPC 0.3',
    create: (taskId, c) =>
      rpcResult(
        'tasks/pushNotificationConfig/set',
        { taskId, pushNotificationConfig: { ...inner(c), ...auth03(c) } },
        '0.3',
      ),
    get: (taskId, id) =>
      rpcResult('tasks/pushNotificationConfig/get', { id: taskId, pushNotificationConfigId: id }, '0.3'),
    list: (taskId) => rpcResult('tasks/pushNotificationConfig/list', { id: taskId }, '0.3'),
    remove: (taskId, id) =>
      rpcResult('tasks/pushNotificationConfig/delete', { id: taskId, pushNotificationConfigId: id }, '0.3'),
    configs: (v) => v as unknown[],
    view: (taskId, id, url, scheme) => ({
      taskId,
      pushNotificationConfig: {
        id,
        url,
        ...(scheme === undefined ? {} : { authentication: { schemes: [scheme] } }),
      },
    }),
    deleted: null,
    fields: '/pushNotificationConfig',
  },
  {
    name: 'HTTP+JSON 0.3',
    create: (taskId, c) =>
      rest('POST', `tasks/${taskId}/pushNotificationConfigs`, '0.3', {
        pushNotificationConfig: { ...inner(c), ...auth03(c) },
      }),
    get: (taskId, id) => rest('GET', `tasks/${taskId}/pushNotificationConfigs/${id}`, '0.3'),
    list: (taskId) => rest('GET', `tasks/${taskId}/pushNotificationConfigs`, '0.3'),
    remove: (taskId, id) => rest('DELETE', `tasks/${taskId}/pushNotificationConfigs/${id}`, '0.3'),
    configs: (v) => (v as { configs: unknown[] }).configs,
    view: (taskId, id, url, scheme) => ({
      name: `tasks/${taskId}/pushNotificationConfigs/${id}`,
      pushNotificationConfig: {
        id,
        url,
        ...(scheme === undefined ? {} : { authentication: { schemes: [scheme] } }),
      },
    }),
    deleted: null,
    fields: '/pushNotificationConfig',
  },
];

/** A task that stays open (the echo agent's `wait`). */
async function openTask(): Promise<string> {
  const { body } = await rpc(server.url, 'SendMessage', {
    message: message('wait'),
    configuration: { returnImmediately: true },
  });
  return (body.result as { task: { id: string } }).task.id;
}

function failed(result: Result): WireError {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

function value(result: Result): unknown {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error.body)}`);
  return result.value;
}

describe('push config CRUD', () => {
  it('the card offers push notifications', async () => {
    const card = (await (
      await fetch(`${server.url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json()) as {
      capabilities: Record<string, unknown>;
    };
    expect(card.capabilities.pushNotifications).toBe(true);
    const v03 = (await (await fetch(`${server.url}.well-known/agent-card.json`)).json()) as {
      capabilities: Record<string, unknown>;
    };
    expect(v03.capabilities.pushNotifications).toBe(true);
  });

  describe.each(WIRES)('$name', (wire) => {
    it('creates, reads, lists and deletes a config, never echoing the token or the credentials', async () => {
      const taskId = await openTask();
      const created = value(
        await wire.create(taskId, {
          url: HOOK,
          id: 'c1',
          token: 'tok-SECRET',
          scheme: 'Basic',
          credentials: 'Y3JlZDpTRUNSRVQ=',
        }),
      );
      expect(created).toEqual(wire.view(taskId, 'c1', HOOK, 'Basic'));
      expect(JSON.stringify(created)).not.toMatch(/SECRET|Y3JlZDpTRUNSRVQ/);
      const read = value(await wire.get(taskId, 'c1'));
      expect(read).toEqual(created);
      value(await wire.create(taskId, { url: `${HOOK}/2`, id: 'c2' }));
      const listed = wire.configs(value(await wire.list(taskId)));
      expect(listed).toEqual([created, wire.view(taskId, 'c2', `${HOOK}/2`)]);
      expect(JSON.stringify(listed)).not.toMatch(/SECRET/);
      expect(value(await wire.remove(taskId, 'c1'))).toEqual(wire.deleted);
      // Idempotent (A2A 1.0 §3.1.10), and gone for good.
      expect(value(await wire.remove(taskId, 'c1'))).toEqual(wire.deleted);
      const gone = failed(await wire.get(taskId, 'c1'));
      expect(gone.code).toBe(-32001);
      expect(gone.message).toContain('c1');
      expect(wire.configs(value(await wire.list(taskId)))).toEqual([wire.view(taskId, 'c2', `${HOOK}/2`)]);
    });

    it('assigns an id: a new one in 1.0, the task id in 0.3 (decision 0086)', async () => {
      const taskId = await openTask();
      const created = value(await wire.create(taskId, { url: HOOK })) as Record<string, unknown>;
      const id =
        wire.fields === '' ? (created.id as string) : (created.pushNotificationConfig as { id: string }).id;
      if (wire.fields === '') expect(id).not.toBe(taskId);
      else expect(id).toBe(taskId);
      expect(id.length).toBeGreaterThan(0);
    });

    it('refuses bad configs with -32602 / 400 naming the field', async () => {
      const taskId = await openTask();
      const cases: [Parameters<Wire['create']>[1], string, RegExp][] = [
        [{ url: 'http://10.1.2.3/hook' }, 'url', /10\.1\.2\.3, private 10\.0\.0\.0\/8/],
        [{ url: 'http://hooks.example/plain' }, 'url', /must be an https URL/],
        [{ url: 'not a url' }, 'url', /not an absolute URL/],
        [{ url: 'https://user:pw@hooks.example/' }, 'url', /user name or password/],
        [{ url: HOOK, token: 'two\nlines' }, 'token', /printable ASCII/],
        [{ url: HOOK, scheme: 'Basic' }, 'authentication/credentials', /required for the Basic scheme/],
      ];
      for (const [config, field, reason] of cases) {
        const error = failed(await wire.create(taskId, config));
        expect(error.code, JSON.stringify(config)).toBe(-32602);
        if (wire.name.startsWith('HTTP')) expect(error.httpStatus).toBe(400);
        expect(error.violations[0]?.field).toBe(`${wire.fields}/${field}`);
        expect(error.violations[0]?.description).toMatch(reason);
      }
      expect(wire.configs(value(await wire.list(taskId)))).toEqual([]);
    });

    it('answers TaskNotFound for the configs of a task that does not exist', async () => {
      for (const result of [
        await wire.create('no-such-task', { url: HOOK }),
        await wire.get('no-such-task', 'c1'),
        await wire.list('no-such-task'),
        await wire.remove('no-such-task', 'c1'),
      ]) {
        const error = failed(result);
        expect(error.code).toBe(-32001);
        if (wire.name.startsWith('HTTP')) expect(error.httpStatus).toBe(404);
      }
    });
  });

  it(`refuses a ${MAX_PUSH_CONFIGS_PER_TASK + 1}th config of one task, but lets one be replaced`, async () => {
    const taskId = await openTask();
    for (let i = 0; i < MAX_PUSH_CONFIGS_PER_TASK; i++)
      value(await WIRES[0]!.create(taskId, { url: HOOK, id: `c${i}` }));
    const error = failed(await WIRES[0]!.create(taskId, { url: HOOK, id: 'one-more' }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/already has 10 push configs/);
    value(await WIRES[0]!.create(taskId, { url: `${HOOK}/replaced`, id: 'c3' }));
    const listed = WIRES[0]!.configs(value(await WIRES[0]!.list(taskId))) as { id: string; url: string }[];
    expect(listed.find((c) => c.id === 'c3')?.url).toBe(`${HOOK}/replaced`);
  });

  it('pages 1.0 lists with pageSize and pageToken', async () => {
    const taskId = await openTask();
    for (const id of ['a', 'b', 'c']) value(await WIRES[0]!.create(taskId, { url: HOOK, id }));
    const first = value(
      await rpcResult('ListTaskPushNotificationConfigs', { taskId, pageSize: 2 }, '1.0'),
    ) as {
      configs: { id: string }[];
      nextPageToken: string;
    };
    expect(first.configs.map((c) => c.id)).toEqual(['a', 'b']);
    const second = value(
      await rpcResult(
        'ListTaskPushNotificationConfigs',
        { taskId, pageSize: 2, pageToken: first.nextPageToken },
        '1.0',
      ),
    ) as { configs: { id: string }[]; nextPageToken?: string };
    expect(second.configs.map((c) => c.id)).toEqual(['c']);
    expect(second.nextPageToken ?? '').toBe('');
    const bad = failed(
      await rpcResult('ListTaskPushNotificationConfigs', { taskId, pageToken: 'zz' }, '1.0'),
    );
    expect(bad.violations[0]?.field).toBe('/pageToken');
  });

  it('requires the task id of a 1.0 create and the config id of a 0.3 delete', async () => {
    const noTask = failed(await rpcResult('CreateTaskPushNotificationConfig', { url: HOOK }, '1.0'));
    expect(noTask.violations[0]?.field).toBe('/taskId');
    const taskId = await openTask();
    const noId = failed(await rpcResult('tasks/pushNotificationConfig/delete', { id: taskId }, '0.3'));
    expect(noId.code).toBe(-32602);
    expect(noId.violations[0]?.field).toBe('/pushNotificationConfigId');
  });

  it('checks a config given inline with a send, naming its place in each wire shape', async () => {
    const bad = { url: 'http://169.254.169.254/latest/meta-data/' };
    const v10 = failed(
      await rpcResult(
        'SendMessage',
        { message: message('hi'), configuration: { taskPushNotificationConfig: bad } },
        '1.0',
      ),
    );
    expect(v10.violations[0]?.field).toBe('/configuration/taskPushNotificationConfig/url');
    expect(v10.violations[0]?.description).toMatch(/link-local 169\.254\.0\.0\/16/);
    const msg03 = { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    const rpc03 = failed(
      await rpcResult(
        'message/send',
        { message: msg03, configuration: { pushNotificationConfig: bad } },
        '0.3',
      ),
    );
    expect(rpc03.violations[0]?.field).toBe('/configuration/pushNotificationConfig/url');
    const rest03 = failed(
      await rest('POST', 'message:send', '0.3', {
        message: { messageId: 'm2', role: 'ROLE_USER', content: [{ text: 'hi' }] },
        configuration: { pushNotification: bad },
      }),
    );
    expect(rest03.violations[0]?.field).toBe('/configuration/pushNotification/url');
    // Nothing was created for any of them.
    const listed = (await server.store.list({ tenant: '', owner: '', pageSize: 100 })).tasks;
    expect(listed.some((t) => t.history?.some((m) => m.messageId === 'm1' || m.messageId === 'm2'))).toBe(
      false,
    );
  });

  it('creates an inline config with the task, readable afterwards', async () => {
    const { body } = await rpc(server.url, 'SendMessage', {
      message: message('hello'),
      configuration: { taskPushNotificationConfig: { url: HOOK, id: 'inline', token: 'tok-inline' } },
    });
    const taskId = (body.result as { task: { id: string } }).task.id;
    expect(value(await WIRES[0]!.get(taskId, 'inline'))).toEqual({ taskId, id: 'inline', url: HOOK });
  });
});
