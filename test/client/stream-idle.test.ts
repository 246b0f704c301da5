/**
 * The stream idle timeout (decision 0137) over real sockets: a server that goes silent mid-stream
 * (the proxy stops forwarding, the connection stays open) is treated as a dropped stream and
 * resumed with Last-Event-ID within the idle timeout; heartbeat comments keep a quiet stream alive.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, CardCache, type A2AConnectOptions } from '../../src/client/index.js';
import type { StreamResponse } from '../../src/protocol/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

async function echoBehindProxy(heartbeatMs?: number): Promise<{ echo: EchoServer; proxy: TcpProxy }> {
  const proxy = await startTcpProxy();
  const echo = await startEcho(
    heartbeatMs === undefined ? { baseUrl: proxy.url } : { baseUrl: proxy.url, heartbeatMs },
  );
  proxy.target.port = Number(new URL(echo.url).port);
  cleanup.push(
    () => echo.close(),
    () => proxy.close(),
  );
  return { echo, proxy };
}

const options: A2AConnectOptions = {
  allowPrivateNetworks: true,
  retry: { retries: 0 },
  resume: { baseDelayMs: 5, maxDelayMs: 20 },
};

function message(text: string) {
  return { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text }] } };
}

function describeEvent(e: StreamResponse): string {
  if ('task' in e) return `task:${e.task.status.state}`;
  if ('statusUpdate' in e) return `status:${e.statusUpdate.status.state}`;
  if ('artifactUpdate' in e) return `artifact:${e.artifactUpdate.artifact.parts.map((p) => p.text).join('')}`;
  return 'message';
}

const subscribes = (proxy: TcpProxy): number =>
  proxy.requests.join('\n').match(/SubscribeToTask/g)?.length ?? 0;

describe('stream idle timeout', () => {
  it('resumes a stream whose server went silent, within the idle timeout', async () => {
    const { echo, proxy } = await echoBehindProxy();
    const direct = await A2AClient.connect(echo.url, { ...options, cardCache: new CardCache() });
    const expected: string[] = [];
    for await (const e of direct.sendStreamingMessage(message('stream 4'))) expected.push(describeEvent(e));
    direct.close();

    const client = await A2AClient.connect(proxy.url, {
      ...options,
      cardCache: new CardCache(),
      streamIdleTimeoutMs: 300,
    });
    proxy.faults.stallStreamAfterEvents = 2;
    const seen: { event: string; at: number }[] = [];
    const started = performance.now();
    for await (const e of client.sendStreamingMessage(message('stream 4'))) {
      seen.push({ event: describeEvent(e), at: performance.now() - started });
    }
    client.close();

    expect(seen.map((s) => s.event)).toEqual(expected);
    const resumed = proxy.requests.filter((r) => /last-event-id: 2/i.test(r));
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatch(/SubscribeToTask/);
    // Silent after the 2nd event: the 3rd came once the idle timeout had passed, not much later.
    const gap = (seen[2]?.at ?? 0) - (seen[1]?.at ?? 0);
    expect(gap).toBeGreaterThanOrEqual(250);
    expect(gap).toBeLessThan(2000);
  });

  it('does not send a stream that went silent before its first event again', async () => {
    // Its server is most likely still working, and one that ignores the key would run it twice.
    const { proxy } = await echoBehindProxy();
    const client = await A2AClient.connect(proxy.url, {
      ...options,
      retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
      cardCache: new CardCache(),
      streamIdleTimeoutMs: 300,
    });
    proxy.faults.stallStreamAfterEvents = 0;
    const error = await (async () => {
      for await (const e of client.sendStreamingMessage(message('stream 2'))) void e;
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'NETWORK' });
    expect((error as Error).message).toMatch(/sent nothing on the stream for 300 ms/);
    const sends = proxy.requests
      .join('')
      .split(/(?=POST )/)
      .filter((r) => /SendStreamingMessage/.test(r));
    expect(sends).toHaveLength(1);
    expect(subscribes(proxy)).toBe(0);
    client.close();
  });

  it("counts only the server's silence, not the time the caller spends on an event", async () => {
    const { proxy } = await echoBehindProxy();
    const client = await A2AClient.connect(proxy.url, {
      ...options,
      cardCache: new CardCache(),
      streamIdleTimeoutMs: 150,
    });
    const seen: string[] = [];
    for await (const e of client.sendStreamingMessage(message('stream 3'))) {
      seen.push(describeEvent(e));
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    client.close();
    expect(seen.at(-1)).toBe('status:TASK_STATE_COMPLETED');
    expect(subscribes(proxy)).toBe(0);
  });

  it('fails the stream with NETWORK when resumption is off', async () => {
    const { proxy } = await echoBehindProxy();
    const client = await A2AClient.connect(proxy.url, { ...options, cardCache: new CardCache() });
    proxy.faults.stallStreamAfterEvents = 2;
    const events: StreamResponse[] = [];
    const error = await (async () => {
      for await (const e of client.sendStreamingMessage(message('stream 4'), {
        idleTimeoutMs: 200,
        resume: { enabled: false },
      })) {
        events.push(e);
      }
    })().catch((e: unknown) => e);
    client.close();
    expect(events).toHaveLength(2);
    expect(error).toMatchObject({ kind: 'NETWORK' });
    expect((error as Error).message).toMatch(/sent nothing on the stream for 200 ms/);
  });

  it('keeps a quiet stream open while heartbeats arrive', async () => {
    const { proxy } = await echoBehindProxy(25);
    const client = await A2AClient.connect(proxy.url, {
      ...options,
      cardCache: new CardCache(),
      streamIdleTimeoutMs: 200,
    });
    const seen: string[] = [];
    let taskId = '';
    const reading = (async () => {
      for await (const e of client.sendStreamingMessage(message('wait'))) {
        seen.push(describeEvent(e));
        if ('task' in e) taskId = e.task.id;
      }
    })();
    // 'wait' sends its first events, then nothing but heartbeats, for far longer than 200 ms.
    await new Promise((r) => setTimeout(r, 800));
    expect(subscribes(proxy)).toBe(0);
    expect(seen).toEqual(['task:TASK_STATE_SUBMITTED', 'status:TASK_STATE_WORKING']);
    await client.cancelTask({ id: taskId });
    await reading;
    expect(seen.at(-1)).toMatch(/CANCELED/);
    expect(subscribes(proxy)).toBe(0);
    client.close();
  });
});
