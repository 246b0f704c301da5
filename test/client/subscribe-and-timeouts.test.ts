/**
 * The client calls the audit found untested: `subscribeToTask` resuming after a cut connection
 * with every event once, a per-call `timeoutMs` overriding the client's, and a successful
 * `getExtendedAgentCard` replacing the card for the session. Push-config CRUD has no success path
 * to test against Concord yet: its server does not support push notifications (operations.test.ts
 * checks that the calls go through and come back PushNotificationNotSupported).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  A2AClient,
  A2AClientError,
  CardCache,
  bearer,
  type A2AConnectOptions,
} from '../../src/client/index.js';
import type { StreamResponse, Task } from '../../src/protocol/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startJsonServer } from './helpers/json-server.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echoAgent from '../../examples/echo/agent.mjs';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

const fast: A2AConnectOptions = {
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

async function echoBehindProxy(): Promise<{ echo: EchoServer; proxy: TcpProxy }> {
  const proxy = await startTcpProxy();
  const echo = await startEcho({ baseUrl: proxy.url });
  proxy.target.port = Number(new URL(echo.url).port);
  cleanup.push(
    () => echo.close(),
    () => proxy.close(),
  );
  return { echo, proxy };
}

describe.each([
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '1.0'],
  ['JSONRPC', '0.3'],
  ['HTTP+JSON', '0.3'],
] as const)('subscribeToTask over %s %s', (binding, version) => {
  it('resumes after a cut with Last-Event-ID and delivers each event once', async () => {
    const { proxy } = await echoBehindProxy();
    const prefer = { bindings: [binding], versions: [version] };
    const client = await A2AClient.connect(proxy.url, { ...fast, prefer, cardCache: new CardCache() });
    const sent = await client.sendMessage({
      ...message('stream 5'),
      configuration: { returnImmediately: true },
    });
    const task = (sent as { task: Task }).task;
    proxy.faults.cutStreamAfterEvents = 2;
    const seen: string[] = [];
    for await (const e of client.subscribeToTask({ id: task.id })) seen.push(describeEvent(e));
    const chunks = seen.filter((s) => s.startsWith('artifact:'));
    // Each chunk arrives exactly once, in order, whichever ones the first snapshot already held.
    expect(new Set(chunks).size).toBe(chunks.length);
    const numbers = chunks.map((c) => Number(/chunk (\d)/.exec(c)?.[1]));
    expect(numbers).toEqual([...numbers].sort());
    expect(seen.at(-1)).toBe('status:TASK_STATE_COMPLETED');
    const resumed = proxy.requests.filter((r) => /last-event-id: \d+/i.test(r));
    expect(resumed).toHaveLength(1);
    const final = await client.getTask({ id: task.id });
    expect(final.artifacts?.[0]?.parts.map((p) => p.text).join('')).toBe(
      [1, 2, 3, 4, 5].map((i) => `chunk ${i} of 5\n`).join(''),
    );
  });
});

describe('per-call timeoutMs', () => {
  it('overrides the client timeout for one call: TIMEOUT quickly, other calls unaffected', async () => {
    const echo = await startEcho();
    cleanup.push(() => echo.close());
    const card = await (
      await fetch(`${echo.url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json();
    const server = await startJsonServer({
      '/.well-known/agent-card.json': () => ({
        body: {
          ...(card as object),
          supportedInterfaces: [
            { url: `${server.url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          ],
        },
      }),
      '/rpc': { hang: true },
    });
    cleanup.push(() => server.close());
    const client = await A2AClient.connect(server.url, {
      ...fast,
      timeoutMs: 60_000,
      cardCache: new CardCache(),
    });
    const started = performance.now();
    const timedOut = await client.getTask({ id: 't' }, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ kind: 'TIMEOUT' });
    expect((timedOut as Error).message).toContain('100 ms');
    const sendTimedOut = await client.sendMessage(message('hi'), { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(sendTimedOut).toMatchObject({ kind: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('getExtendedAgentCard', () => {
  it('returns the extended card to an authenticated caller and uses it from then on', async () => {
    const base = echoAgent.agentCard as Record<string, unknown>;
    const echo = await startEcho({
      agentCard: {
        ...base,
        capabilities: { streaming: true, extendedAgentCard: true },
        securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { jwt: { list: [] } } }],
      } as never,
      extendedAgentCard: {
        ...base,
        name: 'Echo Agent (partners)',
        capabilities: { streaming: true, extendedAgentCard: true },
        skills: [
          ...(base.skills as unknown[]),
          { id: 'secret', name: 'Secret', description: 'Partners only', tags: ['partner'] },
        ],
      } as never,
      authenticate: (request) =>
        request.header('authorization') === 'Bearer partner' ? { name: 'partner' } : undefined,
    });
    cleanup.push(() => echo.close());
    for (const [binding, version] of [
      ['JSONRPC', '1.0'],
      ['HTTP+JSON', '1.0'],
      ['JSONRPC', '0.3'],
      ['HTTP+JSON', '0.3'],
    ] as const) {
      const options = {
        ...fast,
        cardCache: new CardCache(),
        prefer: { bindings: [binding], versions: [version] },
      };
      const client = await A2AClient.connect(echo.url, { ...options, auth: bearer('partner') });
      expect(client.card.name).toBe('Echo Agent');
      const extended = await client.getExtendedAgentCard();
      expect(extended.name).toBe('Echo Agent (partners)');
      expect(extended.skills.map((s) => s.id)).toContain('secret');
      expect(client.card).toBe(extended);
      const anonymous = await A2AClient.connect(echo.url, options);
      const refused = await anonymous.getExtendedAgentCard().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(A2AClientError);
      expect(refused).toMatchObject({ type: 'UnauthenticatedError' });
    }
  });
});
