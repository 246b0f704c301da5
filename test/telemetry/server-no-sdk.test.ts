/**
 * With no OpenTelemetry SDK registered (a library user who wants none; decision 0157): every
 * binding answers as before, streams end, the push POST carries no `traceparent` even when the
 * caller sent one, the outbox stores no trace context, and access entries carry no trace id.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../src/server/adapters/node.js';
import { createA2AServer, type AccessEntry, type AgentExecutor } from '../../src/server/index.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
import { instruments } from '../../src/telemetry/index.js';
import { allDrivers, ok, taskOf, userText } from '../helpers/drivers.js';
import { message, startPushServer, type PushServer } from '../push/helpers/push-server.js';
import { startReceiver, type WebhookReceiver } from '../push/helpers/webhook-receiver.js';
import { traceparent, until } from './test-sdk.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

let server: PushServer | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

describe('server telemetry without an SDK', () => {
  it('records nothing, and every binding still answers (streams included)', async () => {
    expect(instruments().on).toBe(false);
    const access: AccessEntry[] = [];
    const a2a = createA2AServer({
      agentCard: echo.agentCard,
      executor: echo.executor as AgentExecutor,
      store: createMemoryTaskStore(),
    });
    const running = await listen(a2a, { port: 0, onAccess: (entry) => access.push(entry) });
    try {
      const parent = traceparent();
      for (const driver of allDrivers(running.url, { traceparent: parent.header })) {
        const task = taskOf(await driver.send(userText('hello')));
        ok(await driver.getTask(task.id));
        expect((await driver.getTask('missing')).ok).toBe(false);
        const streamed = await driver.stream(userText('stream 2'));
        expect(streamed.closedByServer).toBe(true);
        expect(streamed.items.length).toBeGreaterThan(2);
      }
      await until(() => access.length === 16);
      for (const entry of access) expect(entry.traceId).toBeUndefined();
      expect(access.filter((e) => e.operation === 'SendStreamingMessage')).toHaveLength(4);
    } finally {
      await running.close();
    }
  });

  it('adds no traceparent to push POSTs and keeps none with the outbox entry', async () => {
    receiver = await startReceiver();
    server = await startPushServer({ store: 'sqlite' });
    const parent = traceparent();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', traceparent: parent.header },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: message('hello'),
          configuration: { taskPushNotificationConfig: { url: receiver.url('/hook') } },
        },
      }),
    });
    expect(response.status).toBe(200);
    const deliveries = await receiver.waitFor(1);
    for (const delivery of deliveries) {
      expect(delivery.headers.traceparent).toBeUndefined();
      expect(delivery.headers.tracestate).toBeUndefined();
    }
    // Entries are deleted once delivered; a receiver that refuses keeps the next one queued.
    receiver.fallback = 500;
    await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', traceparent: parent.header },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'SendMessage',
        params: {
          message: message('again'),
          configuration: { taskPushNotificationConfig: { url: receiver.url('/hook') } },
        },
      }),
    });
    const db = new Database(server.file!, { readonly: true });
    try {
      const rows = db.prepare('SELECT trace_context FROM push_outbox').all() as { trace_context: unknown }[];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.trace_context).toBeNull();
    } finally {
      db.close();
    }
  });
});
