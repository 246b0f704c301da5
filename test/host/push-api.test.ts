// The owner's push deliveries API over real HTTP (decision 0159): a task whose webhook keeps
// failing shows its pending deliveries with their attempts and last error, then its dead letters;
// a requeue puts one back; the public listener of a host without security answers 404; bad input
// gets 400 naming the field; an agent without push answers 404.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../src/host/index.js';

const HANDLER = join(import.meta.dirname, '../integration/fixtures/host/echo-handler.mjs');

interface Delivery {
  id: number;
  taskId: string;
  configId: string;
  firstSeq: number;
  lastSeq: number;
  deliveredSeq: number;
  attempts: number;
  lastError?: string;
  createdAt: string;
}
interface DeadLetter extends Delivery {
  url: string;
  reason: string;
  failedAt: string;
}

let dir: string;
let host: RunningHost;
let hook: Server;
let hookUrl: string;
let hits = 0;

beforeAll(async () => {
  // A webhook that always fails, so deliveries are retried and then given up.
  hook = createServer((request, response) => {
    hits++;
    request.resume();
    response.writeHead(500).end('down');
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
  dir = mkdtempSync(join(tmpdir(), 'concord-push-api-'));
  // Three tries 300 ms then 600 ms apart: long enough to see a delivery pending, short enough to die.
  writeFileSync(
    join(dir, 'concord.config.json5'),
    JSON.stringify({
      push: { allow: ['127.0.0.1'], timeoutMs: 1000, retry: { maxAttempts: 3, initialDelayMs: 300 } },
      agents: {
        list: [
          { id: 'echo', description: 'Echoes', exposed: true, handler: HANDLER },
          { id: 'quiet', description: 'Echoes too', exposed: true, handler: HANDLER },
        ],
      },
    }),
  );
  host = await startHost(dir, { port: 0, internalPort: 0, store: 'memory', env: {} });
});

afterAll(async () => {
  await host?.close();
  await new Promise<void>((resolve) => hook?.close(() => resolve()));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function sendWithPush(agent: string): Promise<string> {
  const response = await fetch(`${host.url}agents/${agent}/message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
      configuration: {
        taskPushNotificationConfig: { taskId: '', id: 'hook', url: hookUrl, token: 'sekrit' },
      },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { task: { id: string } }).task.id;
}

async function get<T>(url: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as T };
}

async function until<T>(read: () => Promise<T | undefined>, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('push deliveries API', () => {
  it('shows pending deliveries with attempts and the last error, then dead letters, and requeues one', async () => {
    const taskId = await sendWithPush('echo');
    const push = `${host.internalUrl}agents/echo/push`;

    const failing = await until(async () => {
      const { status, body } = await get<{ deliveries: Delivery[] }>(
        `${push}/deliveries?taskId=${encodeURIComponent(taskId)}`,
      );
      expect(status).toBe(200);
      return body.deliveries.find((d) => d.lastError !== undefined);
    });
    expect(failing).toMatchObject({ taskId, configId: 'hook', lastError: expect.stringMatching(/500/) });
    expect(failing.attempts).toBeGreaterThanOrEqual(1);
    expect(Object.keys(failing).sort()).toEqual(
      [
        'attempts',
        'configId',
        'createdAt',
        'deliveredSeq',
        'firstSeq',
        'id',
        'lastError',
        'lastSeq',
        'taskId',
      ].sort(),
    );
    // Another task's deliveries are not listed.
    const other = await get<{ deliveries: Delivery[] }>(`${push}/deliveries?taskId=nope`);
    expect(other.body.deliveries).toEqual([]);

    const dead = await until(async () => {
      const { body } = await get<{ deadLetters: DeadLetter[]; nextPageToken: string }>(
        `${push}/dead-letters?taskId=${encodeURIComponent(taskId)}`,
      );
      return body.deadLetters.find((d) => d.id === failing.id);
    });
    expect(dead).toMatchObject({ taskId, configId: 'hook', url: hookUrl, attempts: 3 });
    expect(dead.reason).toMatch(/3 attempts/);
    expect(Number.isNaN(Date.parse(dead.failedAt))).toBe(false);
    const text = JSON.stringify(dead);
    expect(text).not.toContain('sekrit');
    expect(text).not.toContain('"events"');
    expect(hits).toBeGreaterThanOrEqual(3);
    // Filtered by another task, the page holds none of them.
    const filtered = await get<{ deadLetters: DeadLetter[] }>(`${push}/dead-letters?taskId=nope`);
    expect(filtered.body.deadLetters).toEqual([]);

    const requeued = await fetch(`${push}/dead-letters/${dead.id}:requeue`, { method: 'POST' });
    expect(requeued.status).toBe(200);
    expect(await requeued.json()).toEqual({ requeued: true });
    // Back in the outbox (it fails again later, but first it is pending once more).
    const again = await get<{ deliveries: Delivery[] }>(
      `${push}/deliveries?taskId=${encodeURIComponent(taskId)}`,
    );
    expect(again.body.deliveries.map((d) => d.id)).toContain(dead.id);
    const letters = await get<{ deadLetters: DeadLetter[] }>(`${push}/dead-letters`);
    expect(letters.body.deadLetters.map((d) => d.id)).not.toContain(dead.id);
  });

  it('refuses bad input with 400 naming the field, and an unknown dead letter with 404 naming it', async () => {
    const push = `${host.internalUrl}agents/echo/push`;
    const missing = await get<{ error: { status: string; message: string; details: unknown[] } }>(
      `${push}/deliveries`,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error.status).toBe('INVALID_ARGUMENT');
    expect(JSON.stringify(missing.body.error.details)).toContain('"taskId"');

    const badId = await fetch(`${push}/dead-letters/abc:requeue`, { method: 'POST' });
    expect(badId.status).toBe(400);
    expect(JSON.stringify(await badId.json())).toContain('"id"');
    const zero = await fetch(`${push}/dead-letters/0:requeue`, { method: 'POST' });
    expect(zero.status).toBe(400);

    const unknown = await fetch(`${push}/dead-letters/999999:requeue`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('999999');

    const badSize = await fetch(`${push}/dead-letters?pageSize=0`);
    expect(badSize.status).toBe(400);
    const badToken = await fetch(`${push}/dead-letters?pageToken=xyz`);
    expect(badToken.status).toBe(400);
  });

  it('answers other methods and routes with 404, and 404 on the public listener', async () => {
    const push = `${host.internalUrl}agents/echo/push`;
    expect((await fetch(`${push}/deliveries?taskId=x`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${push}/dead-letters`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${push}/dead-letters/1:requeue`)).status).toBe(404);
    expect((await fetch(`${push}/elsewhere`)).status).toBe(404);

    const outside = await fetch(`${host.url}agents/echo/push/dead-letters`);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: { message: string } }).error.message).toMatch(
      /internal listener/,
    );
  });
});

describe('push deliveries API without push', () => {
  let quiet: RunningHost;
  beforeAll(async () => {
    quiet = await startHost(dir, {
      port: 0,
      internalPort: 0,
      store: 'memory',
      env: {},
      push: { enabled: false },
    });
  });
  afterAll(async () => {
    await quiet?.close();
  });

  it('answers 404 saying push is off', async () => {
    const response = await fetch(`${quiet.internalUrl}agents/quiet/push/dead-letters`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'push notifications are off for this agent',
    );
  });
});
