/**
 * Keep-alive connections (decision 0137), counted on the server: a client reuses its
 * connections across calls instead of opening (and leaving in TIME_WAIT) one per call, closes
 * them on `close()`, replaces one the server closed meanwhile, and still runs the SSRF guard on
 * every request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type A2AConnectOptions } from '../../src/client/index.js';
import { startFront, type Front } from './helpers/a2a-front.js';

let front: Front;
afterEach(async () => front?.close());

const options: A2AConnectOptions = { allowPrivateNetworks: true, cardCache: false, retry: { retries: 0 } };

function message(text: string) {
  return { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text }] } };
}

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

describe('keep-alive', () => {
  it('runs the card fetch and 40 calls over one connection', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    for (let i = 0; i < 20; i++) {
      const sent = await client.sendMessage(message(`call ${i}`));
      await client.getTask({ id: 'task' in sent ? sent.task.id : '' });
    }
    expect(front.requests).toHaveLength(41);
    expect(front.accepted).toBe(1);
    client.close();
  });

  it('serves concurrent calls from a pool no larger than the concurrency', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    for (let round = 0; round < 4; round++) {
      await Promise.all(Array.from({ length: 8 }, (_, i) => client.sendMessage(message(`r${round} c${i}`))));
    }
    expect(front.requests).toHaveLength(33);
    expect(front.accepted).toBeLessThanOrEqual(8);
    client.close();
  });

  it('closes its connections on close()', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    await client.sendMessage(message('hello'));
    expect(front.accepted).toBe(1);
    expect(front.closed).toBe(0);
    client.close();
    await until(() => front.closed === 1);
    expect(front.closed).toBe(1);
  });

  it('sends a call with an Idempotency-Key again on a new connection when the kept-alive one was reset, outside the retry policy', async () => {
    front = await startFront();
    // The server drops the first connection when its second request arrives.
    front.routes.set('/', (request) =>
      request.connection === 1 && front.requests.filter((r) => r.connection === 1).length === 2
        ? { status: 0, reset: true }
        : undefined,
    );
    const client = await A2AClient.connect(front.url, options);
    const sent = await client.sendMessage(message('after a reset'));
    expect('task' in sent && sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(front.requests.map((r) => `${r.connection} ${r.method} ${r.path}`)).toEqual([
      '1 GET /.well-known/agent-card.json',
      '1 POST /',
      '2 POST /',
    ]);
    client.close();
  });

  it('does not send a call without an Idempotency-Key again after such a reset', async () => {
    front = await startFront();
    front.routes.set('/', (request) =>
      request.connection === 1 && front.requests.filter((r) => r.connection === 1).length === 2
        ? { status: 0, reset: true }
        : undefined,
    );
    const client = await A2AClient.connect(front.url, options);
    const error = await client
      .sendMessage(message('no key'), { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'NETWORK' });
    expect(front.requests).toHaveLength(2);
    client.close();
  });

  it('resolves and checks the target on every request while it reuses the connection', async () => {
    front = await startFront();
    let lookups = 0;
    let failing = false;
    const agent = `http://agent.test:${front.port}/`;
    const client = await A2AClient.connect(agent, {
      ...options,
      allowPrivateNetworks: false,
      allowedHosts: ['agent.test'],
      resolve: async () => {
        lookups++;
        if (failing) throw new Error('no such host');
        return [{ address: '127.0.0.1', family: 4 }];
      },
      // The card names 127.0.0.1; the calls go to the name the test resolves.
      transport: { url: agent, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    });
    await client.sendMessage(message('one'));
    await client.sendMessage(message('two'));
    expect(lookups).toBe(3);
    expect(front.accepted).toBe(1);
    // The check gates the reuse: with the name gone, the idle pooled connection is not used.
    failing = true;
    const error = await client.sendMessage(message('three')).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'NETWORK' });
    expect((error as Error).message).toMatch(/Cannot resolve agent\.test/);
    expect(front.requests).toHaveLength(3);
    client.close();
  });
});
