/**
 * The client's push-config operations (decision 0019) against a server that really keeps push
 * configs: the official SDK (`@a2a-js/sdk` 1.3.0) with its in-memory push store, over real sockets
 * on each interface it serves. Create, get, list and delete round-trip through Concord's request
 * and response encodings for both versions and bindings, and a deleted config is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, A2AClientError, CardCache, type ClientBinding } from '../../src/client/internal.js';
import type { ProtocolVersion, Task } from '../../src/protocol/index.js';
import { startSdkServer, type SdkServer } from './helpers/sdk-server.js';

const INTERFACES: [ClientBinding, ProtocolVersion][] = [
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '1.0'],
  ['JSONRPC', '0.3'],
  ['HTTP+JSON', '0.3'],
];

let sdk: SdkServer;
beforeAll(async () => {
  sdk = await startSdkServer({ push: true });
});
afterAll(async () => {
  await sdk.close();
});

describe.each(INTERFACES)('push-config CRUD over %s %s', (binding, version) => {
  let client: A2AClient;
  let task: Task;
  beforeAll(async () => {
    client = await A2AClient.connect(sdk.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: [binding], versions: [version] },
    });
    // A task that stays working, so the configs belong to a live task.
    const sent = await client.sendMessage({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'wait' }] },
      configuration: { returnImmediately: true },
    });
    if (!('task' in sent)) throw new Error('expected a task');
    task = sent.task;
  });
  afterAll(async () => {
    await client.cancelTask({ id: task.id }).catch(() => undefined);
    client.close();
  });

  it('creates, reads, lists and deletes a config', async () => {
    expect(client.card.capabilities.pushNotifications).toBe(true);
    const created = await client.createTaskPushNotificationConfig({
      taskId: task.id,
      id: `hook-${version}-${binding}`,
      url: 'https://receiver.example.com/a2a/hook',
      token: 'opaque-token-1',
    });
    expect(created).toMatchObject({
      taskId: task.id,
      id: `hook-${version}-${binding}`,
      url: 'https://receiver.example.com/a2a/hook',
      token: 'opaque-token-1',
    });

    const read = await client.getTaskPushNotificationConfig({ taskId: task.id, id: created.id! });
    expect(read).toMatchObject({ taskId: task.id, id: created.id, url: created.url });

    const listed = await client.listTaskPushNotificationConfigs({ taskId: task.id });
    expect(listed.configs.map((c) => c.id)).toEqual([created.id]);
    expect(listed.configs[0]).toMatchObject({ taskId: task.id, url: created.url });

    await client.deleteTaskPushNotificationConfig({ taskId: task.id, id: created.id! });
    const after = await client.listTaskPushNotificationConfigs({ taskId: task.id });
    expect(after.configs).toEqual([]);
    const gone = await client
      .getTaskPushNotificationConfig({ taskId: task.id, id: created.id! })
      .catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(A2AClientError);
  });
});
