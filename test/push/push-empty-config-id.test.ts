/**
 * Both SDK generations create a 0.3 push config under `tasks/{id}/pushNotificationConfigs/` (an
 * empty config id) and leave the id to the server; Concord accepts that name and mints the id
 * (decision 0136; for 0.3 the minted id is the task id, decision 0086), over HTTP+JSON and
 * gRPC, and reads a snake_case (proto field name) body the same way, 1.0 included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { protoLoaderClient03 } from '../helpers/grpc-driver.js';
import { message, rpc, startPushServer, type PushServer } from './helpers/push-server.js';

const HOOK = 'https://hooks.example/a2a';

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

async function newTask(): Promise<string> {
  const { body } = await rpc(server.url, 'SendMessage', { message: message('hi') });
  return ((body.result as { task: { id: string } }).task as { id: string }).id;
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('0.3 push-config create with an empty config id', () => {
  it('HTTP+JSON: the name `tasks/{id}/pushNotificationConfigs/` is accepted and the id minted', async () => {
    const taskId = await newTask();
    const created = await post(`tasks/${taskId}/pushNotificationConfigs`, {
      name: `tasks/${taskId}/pushNotificationConfigs/`,
      pushNotificationConfig: { url: HOOK },
    });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      name: `tasks/${taskId}/pushNotificationConfigs/${taskId}`,
      pushNotificationConfig: { id: taskId, url: HOOK },
    });
    const read = await fetch(`${server.url}v1/tasks/${taskId}/pushNotificationConfigs/${taskId}`);
    expect(read.status).toBe(200);
  });

  it('HTTP+JSON: the same body in proto field names (snake_case) is read the same way', async () => {
    const taskId = await newTask();
    const created = await post(`tasks/${taskId}/pushNotificationConfigs`, {
      name: `tasks/${taskId}/pushNotificationConfigs/`,
      push_notification_config: { url: HOOK, id: 'mine' },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ name: `tasks/${taskId}/pushNotificationConfigs/mine` });
  });

  it('HTTP+JSON: a name that is not a push-config name is still refused, naming /name', async () => {
    const taskId = await newTask();
    const created = await post(`tasks/${taskId}/pushNotificationConfigs`, {
      name: `tasks/${taskId}/other/`,
      pushNotificationConfig: { url: HOOK },
    });
    expect(created.status).toBe(400);
    expect(JSON.stringify(created.json)).toContain('/name');
  });

  it('1.0: a create in proto field names (task_id) is read on HTTP+JSON and JSON-RPC', async () => {
    const taskId = await newTask();
    const response = await fetch(`${server.url}tasks/${taskId}/pushNotificationConfigs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ task_id: taskId, id: 'rest-snake', url: HOOK }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ taskId, id: 'rest-snake', url: HOOK });
    const { body } = await rpc(server.url, 'CreateTaskPushNotificationConfig', {
      task_id: taskId,
      id: 'rpc-snake',
      url: HOOK,
    });
    expect(body.result).toMatchObject({ taskId, id: 'rpc-snake', url: HOOK });
  });

  it('gRPC: CreateTaskPushNotificationConfig with the empty config id is accepted and the id minted', async () => {
    const taskId = await newTask();
    const client = protoLoaderClient03<{
      CreateTaskPushNotificationConfig(
        request: unknown,
        callback: (
          error: Error | null,
          value?: { name: string; push_notification_config: { id: string } },
        ) => void,
      ): void;
    }>(grpc.target);
    try {
      const answer = await new Promise<{ name: string; push_notification_config: { id: string } }>(
        (resolve, reject) =>
          client.CreateTaskPushNotificationConfig(
            {
              parent: `tasks/${taskId}`,
              config_id: '',
              config: {
                name: `tasks/${taskId}/pushNotificationConfigs/`,
                push_notification_config: { url: HOOK },
              },
            },
            (error, value) => (error === null && value !== undefined ? resolve(value) : reject(error)),
          ),
      );
      expect(answer.name).toBe(`tasks/${taskId}/pushNotificationConfigs/${taskId}`);
      expect(answer.push_notification_config.id).toBe(taskId);
    } finally {
      client.close();
    }
  });
});
