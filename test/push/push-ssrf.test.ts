/**
 * The SSRF guard on webhooks (A2A 1.0 §13.2, decision 0090), through the front door: configs aimed
 * at loopback, private, link-local, unique-local and metadata addresses are refused at creation
 * unless the operator allowed them (by host or CIDR block); a name that resolved to a public
 * address when the config was made but resolves to a private one at delivery is refused then
 * (nothing reaches the receiver, the entry is a dead letter saying why); and the connection goes
 * to the address that was checked (DNS pinned).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/net/index.js';
import { jsonRpcWireError } from '../helpers/drivers.js';
import { eventually, message, rpc, startPushServer, type PushServer } from './helpers/push-server.js';
import { startReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

let server: PushServer | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

/** A resolver whose answers the test changes, as a hostile DNS server would. */
function switchable(initial: string): { resolve: HostResolver; answer: string } {
  const state = {
    answer: initial,
    resolve: async () => [{ address: state.answer, family: (state.answer.includes(':') ? 6 : 4) as 4 | 6 }],
  };
  return state;
}

async function openTask(url: string): Promise<string> {
  const { body } = await rpc(url, 'SendMessage', {
    message: message('wait'),
    configuration: { returnImmediately: true },
  });
  return (body.result as { task: { id: string } }).task.id;
}

describe('push SSRF guard', () => {
  it.each([
    ['http://127.0.0.1:9/hook', /127\.0\.0\.1, loopback/],
    ['http://localhost:9/hook', /localhost resolves to 127\.0\.0\.1, loopback/],
    ['http://10.1.2.3/hook', /private 10\.0\.0\.0\/8/],
    ['http://192.168.1.10/hook', /private 192\.168\.0\.0\/16/],
    ['http://169.254.169.254/latest/meta-data/', /link-local 169\.254\.0\.0\/16 \(cloud metadata/],
    ['http://100.100.100.200/latest/meta-data/', /shared address space 100\.64\.0\.0\/10/],
    ['http://[::1]:9/hook', /loopback ::1/],
    ['http://[fd00:ec2::254]/latest/meta-data/', /unique-local fc00::\/7/],
    ['http://[::ffff:10.0.0.1]/hook', /IPv4-mapped private 10\.0\.0\.0\/8/],
    ['http://0.0.0.0:9/hook', /unspecified/],
    ['https://metadata.internal/computeMetadata/v1/', /metadata\.internal resolves to 169\.254\.169\.254/],
  ])('refuses a config for %s at creation', async (url, reason) => {
    const names: Record<string, string> = { localhost: '127.0.0.1', 'metadata.internal': '169.254.169.254' };
    const resolve: HostResolver = async (host) => [{ address: names[host] ?? '93.184.216.34', family: 4 }];
    server = await startPushServer({ push: { allow: [], resolve } });
    const taskId = await openTask(server.url);
    const { status, body } = await rpc(server.url, 'CreateTaskPushNotificationConfig', { taskId, url });
    const error = jsonRpcWireError(status, body);
    expect(error.code).toBe(-32602);
    expect(error.violations[0]?.field).toBe('/url');
    expect(error.violations[0]?.description).toMatch(reason);
    expect(error.violations[0]?.description).toMatch(/--push-allow/);
  });

  it('accepts private targets the operator allowed, by CIDR block or by host name', async () => {
    server = await startPushServer({
      push: { allow: ['10.0.0.0/8', 'hooks.internal'], resolve: switchable('192.168.7.7').resolve },
    });
    const taskId = await openTask(server.url);
    for (const url of ['http://10.20.30.40/hook', 'http://hooks.internal/hook']) {
      const { body } = await rpc(server.url, 'CreateTaskPushNotificationConfig', { taskId, url });
      expect(body.result).toMatchObject({ taskId, url });
    }
    const { status, body } = await rpc(server.url, 'CreateTaskPushNotificationConfig', {
      taskId,
      url: 'http://11.0.0.1/hook',
    });
    expect(jsonRpcWireError(status, body).violations[0]?.description).toMatch(/must be an https URL/);
  });

  it('refuses at delivery a name that resolves to a private address by then, and connects nowhere', async () => {
    receiver = await startReceiver();
    const dns = switchable('93.184.216.34');
    server = await startPushServer({ push: { allow: ['93.184.216.0/24'], resolve: dns.resolve } });
    const hook = `http://hooks.example:${receiver.port}/hook`;
    const taskId = await openTask(server.url);
    const created = await rpc(server.url, 'CreateTaskPushNotificationConfig', {
      taskId,
      url: hook,
      id: 'rebind',
    });
    expect(created.body.result).toMatchObject({ id: 'rebind', url: hook });
    // The name now points at this machine, where the receiver listens.
    dns.answer = '127.0.0.1';
    await rpc(server.url, 'CancelTask', { id: taskId });
    const page = await eventually(async () => {
      const letters = await server!.push.listDeadLetters();
      return letters.deadLetters.length > 0 ? letters : undefined;
    });
    expect(page.deadLetters[0]).toMatchObject({ taskId, configId: 'rebind', attempts: 1 });
    expect(page.deadLetters[0]!.reason).toMatch(/hooks\.example resolves to 127\.0\.0\.1, loopback/);
    expect(receiver.received).toEqual([]);
  });

  it('connects to the address it checked, whatever the name', async () => {
    receiver = await startReceiver();
    server = await startPushServer({
      push: { allow: ['127.0.0.1'], resolve: switchable('127.0.0.1').resolve },
    });
    const hook = `http://hooks.local:${receiver.port}/pinned`;
    await rpc(server.url, 'SendMessage', {
      message: message('hello'),
      configuration: { taskPushNotificationConfig: { url: hook } },
    });
    const [first] = await receiver.waitFor(1);
    expect(first!.path).toBe('/pinned');
    expect(first!.headers.host).toBe(`hooks.local:${receiver.port}`);
  });
});
