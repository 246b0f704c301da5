/**
 * Resilience over real sockets: a stream cut mid-way resumes with every event exactly once;
 * idempotent calls are retried, sends only with their Idempotency-Key (test/client/
 * idempotency-and-retry-after.test.ts); timeouts and aborts are typed local errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, A2ALocalError, CardCache, type A2AConnectOptions } from '../../src/client/index.js';
import type { StreamResponse } from '../../src/protocol/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startJsonServer } from './helpers/json-server.js';
import { startTcpProxy, type ProxyFaults, type TcpProxy } from './helpers/tcp-proxy.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

/** Echo behind a faulty proxy; the card's interfaces name the proxy, so every call crosses it. */
async function echoBehindProxy(faults: ProxyFaults = {}): Promise<{ echo: EchoServer; proxy: TcpProxy }> {
  const proxy = await startTcpProxy();
  const echo = await startEcho({ baseUrl: proxy.url });
  proxy.target.port = Number(new URL(echo.url).port);
  cleanup.push(
    () => echo.close(),
    () => proxy.close(),
  );
  proxy.faults = faults;
  return { echo, proxy };
}

const fast: A2AConnectOptions = {
  allowPrivateNetworks: true,
  retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
  resume: { baseDelayMs: 5, maxDelayMs: 20 },
};

/**
 * A second client on the same card: it has no kept-alive connection yet, so its next call opens
 * one, which the proxy may refuse (decision 0137: each client pools its connections).
 */
function freshClient(client: A2AClient): A2AClient {
  const fresh = new A2AClient({ ...fast, card: client.card, transport: client.transport });
  cleanup.push(async () => fresh.close());
  return fresh;
}

function message(text: string) {
  return { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text }] } };
}

function describeEvent(e: StreamResponse): string {
  if ('task' in e) return `task:${e.task.status.state}`;
  if ('statusUpdate' in e) return `status:${e.statusUpdate.status.state}`;
  if ('artifactUpdate' in e) return `artifact:${e.artifactUpdate.artifact.parts.map((p) => p.text).join('')}`;
  return 'message';
}

describe.each([
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '1.0'],
  ['JSONRPC', '0.3'],
  ['HTTP+JSON', '0.3'],
] as const)('stream resumption over %s %s', (binding, version) => {
  it('re-attaches with Last-Event-ID after a cut and delivers every event exactly once', async () => {
    const { echo, proxy } = await echoBehindProxy();
    const prefer = { bindings: [binding], versions: [version] };
    // The reference: the same stream read directly, without faults.
    const direct = await A2AClient.connect(echo.url, { ...fast, prefer, cardCache: new CardCache() });
    const expected: string[] = [];
    for await (const e of direct.sendStreamingMessage(message('stream 4'))) expected.push(describeEvent(e));

    const client = await A2AClient.connect(proxy.url, { ...fast, prefer, cardCache: new CardCache() });
    proxy.faults.cutStreamAfterEvents = 2;
    const seen: string[] = [];
    for await (const e of client.sendStreamingMessage(message('stream 4'))) seen.push(describeEvent(e));

    expect(seen).toEqual(expected);
    expect(seen.filter((s) => s.startsWith('artifact:'))).toHaveLength(4);
    const resumed = proxy.requests.filter((r) => /last-event-id: 2/i.test(r));
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatch(
      version === '1.0' ? /SubscribeToTask|:subscribe/ : /tasks\/resubscribe|:subscribe/,
    );
  });
});

describe('retries', () => {
  it('retries an idempotent getTask after refused connections', async () => {
    const { proxy } = await echoBehindProxy();
    const client = await A2AClient.connect(proxy.url, { ...fast, cardCache: new CardCache() });
    const sent = await client.sendMessage(message('hello'));
    const id = 'task' in sent ? sent.task.id : '';
    proxy.faults.refuseFirst = proxy.connections + 2;
    const task = await freshClient(client).getTask({ id });
    expect(task.id).toBe(id);
    expect(proxy.faults.refuseFirst).toBeLessThan(proxy.connections);
  });

  it('gives up after the configured retries with NETWORK', async () => {
    const { proxy } = await echoBehindProxy();
    const client = await A2AClient.connect(proxy.url, { ...fast, cardCache: new CardCache() });
    const before = proxy.connections;
    proxy.faults.refuseFirst = before + 10;
    const error = await freshClient(client)
      .getTask({ id: 'x' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'NETWORK' });
    expect(proxy.connections - before).toBe(3);
  });

  it('never retries a sendMessage without an Idempotency-Key', async () => {
    const { proxy } = await echoBehindProxy();
    const client = await A2AClient.connect(proxy.url, { ...fast, cardCache: new CardCache() });
    const before = proxy.connections;
    proxy.faults.refuseFirst = before + 1;
    const error = await freshClient(client)
      .sendMessage(message('hello'), { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2ALocalError);
    expect((error as A2ALocalError).kind).toBe('NETWORK');
    expect(proxy.connections - before).toBe(1);
  });

  it('retries the card fetch', async () => {
    const { proxy } = await echoBehindProxy({ refuseFirst: 1 });
    const client = await A2AClient.connect(proxy.url, { ...fast, cardCache: new CardCache() });
    expect(client.card.name).toBe('Echo Agent');
    expect(proxy.connections).toBe(2);
  });
});

describe('timeouts and aborts', () => {
  it('times out with TIMEOUT and aborts with ABORTED', async () => {
    const server = await startJsonServer({ '/.well-known/agent-card.json': { hang: true } });
    cleanup.push(() => server.close());
    const options = { allowPrivateNetworks: true, cardCache: false as const, retry: { retries: 0 } };
    const timedOut = await A2AClient.connect(server.url, { ...options, timeoutMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(timedOut).toMatchObject({ kind: 'TIMEOUT' });
    const controller = new AbortController();
    const pending = A2AClient.connect(server.url, { ...options, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ kind: 'ABORTED' });
  });

  it('close() ends an open stream', async () => {
    const { echo } = await echoBehindProxy();
    const client = await A2AClient.connect(echo.url, { ...fast, cardCache: new CardCache() });
    const events: StreamResponse[] = [];
    const reading = (async () => {
      for await (const e of client.sendStreamingMessage(message('wait'))) {
        events.push(e);
        client.close();
      }
    })();
    await expect(reading).rejects.toMatchObject({ kind: 'ABORTED' });
    expect(events.length).toBeGreaterThan(0);
  });
});
