/**
 * Sends carry an Idempotency-Key, the same on every retry of one send, and retries honour
 * Retry-After (decision 0137), over real sockets against Concord's own A2A handler with a
 * scripted front (503s and 429s, an answer lost after the agent ran).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, type A2AConnectOptions } from '../../src/client/index.js';
import type { StreamResponse } from '../../src/protocol/index.js';
import { startEcho } from '../helpers/echo-server.js';
import { startFront, type Front, type FrontReply, type FrontRequest } from './helpers/a2a-front.js';

let front: Front;
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await front?.close();
  while (cleanup.length > 0) await cleanup.pop()?.();
});

const options: A2AConnectOptions = {
  allowPrivateNetworks: true,
  cardCache: false,
  retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 3000 },
};

const UUID_FIELD = /^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$/;

function message(text: string) {
  return { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text }] } };
}

/** Answers the first `times` POSTs to `/` with `reply`; the rest reach the agent. */
function failFirst(times: number, reply: FrontReply): (request: FrontRequest) => FrontReply | undefined {
  let left = times;
  return (request) => {
    if (request.method !== 'POST' || left === 0) return undefined;
    left--;
    return reply;
  };
}

const posts = (): FrontRequest[] => front.requests.filter((r) => r.method === 'POST');
const keys = (): (string | string[] | undefined)[] => posts().map((r) => r.headers['idempotency-key']);

describe('Idempotency-Key and Retry-After', () => {
  it('retries a send answered 503 Retry-After: 1 after a second, with the same Idempotency-Key', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    front.routes.set('/', failFirst(1, { status: 503, headers: { 'retry-after': '1' } }));
    const sent = await client.sendMessage(message('hello'));
    expect('task' in sent && sent.task.status.state).toBe('TASK_STATE_COMPLETED');
    const [first, second] = posts();
    expect(posts()).toHaveLength(2);
    expect(first?.headers['idempotency-key']).toMatch(UUID_FIELD);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    client.close();
  });

  it('honours an HTTP-date Retry-After on a 429', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    const sent = await client.sendMessage(message('hello'));
    const id = 'task' in sent ? sent.task.id : '';
    // HTTP-dates have whole seconds: two seconds ahead is more than one second away.
    const at = new Date(Date.now() + 2000).toUTCString();
    front.routes.set('/', failFirst(1, { status: 429, headers: { 'retry-after': at } }));
    const before = posts().length;
    expect((await client.getTask({ id })).id).toBe(id);
    const [first, second] = posts().slice(before);
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    client.close();
  });

  it('gives up at once when Retry-After asks for longer than the policy allows', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    front.routes.set('/', failFirst(1, { status: 503, headers: { 'retry-after': '120' } }));
    const started = performance.now();
    const error = await client.sendMessage(message('hello')).catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 503 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(posts()).toHaveLength(1);
    client.close();
  });

  it('sends a fresh key per send, and the caller’s own key on every attempt', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    await client.sendMessage(message('one'));
    await client.sendMessage(message('two'));
    const [one, two] = keys();
    expect(one).toMatch(UUID_FIELD);
    expect(two).toMatch(UUID_FIELD);
    expect(one).not.toBe(two);

    front.requests.length = 0;
    front.routes.set('/', failFirst(1, { status: 503, headers: { 'retry-after': '0' } }));
    await client.sendMessage(message('three'), { idempotencyKey: 'order-42' });
    expect(keys()).toEqual(['"order-42"', '"order-42"']);
    expect(() => client.sendMessage(message('four'), { idempotencyKey: 'naïve' })).toThrow(RangeError);
    client.close();
  });

  it('retries opening a stream with the same key', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    front.routes.set('/', failFirst(1, { status: 503, headers: { 'retry-after': '0' } }));
    const events: StreamResponse[] = [];
    for await (const e of client.sendStreamingMessage(message('stream 2'), { idempotencyKey: 'stream-7' })) {
      events.push(e);
    }
    expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(keys()).toEqual(['"stream-7"', '"stream-7"']);
    client.close();
  });

  it('does not retry a send that timed out (it may still be running)', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    front.routes.set('/', failFirst(1, { status: 0, hang: true }));
    const error = await client.sendMessage(message('hello'), { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'TIMEOUT' });
    await new Promise((r) => setTimeout(r, 300));
    expect(posts()).toHaveLength(1);
    client.close();
  });

  it('sends no key with idempotencyKey: false and then never retries the send', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    front.routes.set('/', failFirst(1, { status: 503, headers: { 'retry-after': '0' } }));
    const error = await client
      .sendMessage(message('hello'), { idempotencyKey: false })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ httpStatus: 503 });
    expect(keys()).toEqual([undefined]);
    client.close();
  });

  it('gets the first task back when the answer to a send was lost after the agent ran it', async () => {
    front = await startFront();
    const client = await A2AClient.connect(front.url, options);
    front.routes.set('/', failFirst(1, { status: 0, dropAnswer: true }));
    const sent = await client.sendMessage(message('hello'));
    expect(posts()).toHaveLength(2);
    expect(keys()[1]).toBe(keys()[0]);
    // Concord deduplicated on the key (decision 0091): one task, the one returned.
    front.routes.delete('/');
    const { tasks } = await client.listTasks({});
    expect(tasks.map((t) => t.id)).toEqual(['task' in sent ? sent.task.id : '']);
    client.close();
  });

  it('sends the key as gRPC metadata, where Concord deduplicates on it too', async () => {
    const echo = await startEcho({ grpc: true });
    cleanup.push(() => echo.close());
    const client = await A2AClient.connect(echo.url, { ...options, prefer: { bindings: ['GRPC'] } });
    expect(client.transport.protocolBinding).toBe('GRPC');
    const request = message('hello');
    const first = await client.sendMessage(request, { idempotencyKey: 'grpc-1' });
    const again = await client.sendMessage(request, { idempotencyKey: 'grpc-1' });
    expect('task' in again && again.task.id).toBe('task' in first && first.task.id);
    const other = await client.sendMessage(message('hello'));
    expect('task' in other && other.task.id).not.toBe('task' in first && first.task.id);
    client.close();
  });
});
