/**
 * Push deliveries in the operation's trace (decision 0157), over real sockets: the webhook POST
 * carries a `traceparent` whose parent is the delivery's `SendPushNotification` CLIENT span, itself
 * below the agent's execution of the send that produced the events, also when the delivery is
 * made by another process from the SQLite outbox (the trace context is stored with the entry).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { ATTR, METRIC } from '../../src/telemetry/index.js';
import { POSTGRES_URL } from '../helpers/postgres.js';
import { message, startPushServer, type PushServer } from '../push/helpers/push-server.js';
import { startReceiver, type WebhookReceiver } from '../push/helpers/webhook-receiver.js';
import { registerSdk, traceparent, until } from './test-sdk.js';

const sdk = registerSdk();
let server: PushServer | undefined;
let receiver: WebhookReceiver | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** SendMessage with an inline push config to `hook`, under `header`; the task's id. */
async function sendWithPush(url: string, hook: string, header: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', traceparent: header },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: message('hello'), configuration: { taskPushNotificationConfig: { url: hook } } },
    }),
  });
  const body = (await response.json()) as { result: { task: { id: string } } };
  return body.result.task.id;
}

function pushSpans(traceId: string) {
  return sdk
    .finished()
    .filter((s) => s.name === 'SendPushNotification' && s.spanContext().traceId === traceId);
}

describe.each(['memory', 'sqlite', ...(POSTGRES_URL === undefined ? [] : ['postgres' as const])] as const)(
  'push deliveries in the trace (%s store)',
  (kind) => {
    it('carry traceparent below a SendPushNotification CLIENT span, child of the agent execution', async () => {
      receiver = await startReceiver();
      server = await startPushServer({ store: kind });
      const parent = traceparent();
      const hook = receiver.url('/hook?secret=s3cr3t');
      const taskId = await sendWithPush(server.url, hook, parent.header);
      const deliveries = await receiver.waitFor(1);
      await until(() => pushSpans(parent.traceId).length >= deliveries.length);
      const invoke = sdk
        .finished()
        .find((s) => s.name === 'invoke_agent Echo Agent' && s.spanContext().traceId === parent.traceId);
      expect(invoke).toBeDefined();
      const spans = pushSpans(parent.traceId);
      for (const [i, delivery] of deliveries.entries()) {
        const header = String(delivery.headers.traceparent);
        const [, traceId, spanId] = header.split('-');
        expect(traceId).toBe(parent.traceId);
        const span = spans.find((s) => s.spanContext().spanId === spanId);
        expect(span, `delivery ${i}`).toBeDefined();
        expect(span!.kind).toBe(SpanKind.CLIENT);
        expect(span!.parentSpanContext?.spanId).toBe(invoke!.spanContext().spanId);
        expect(span!.attributes[ATTR.taskId]).toBe(taskId);
        expect(span!.attributes[ATTR.httpStatus]).toBe(200);
        expect(span!.attributes[ATTR.pushAttempt]).toBe(1);
        // Neither the query nor credentials are recorded.
        expect(span!.attributes[ATTR.urlFull]).toBe(`http://127.0.0.1:${receiver.port}/hook`);
        expect(span!.status.code).toBe(SpanStatusCode.UNSET);
      }
      // Counted once the entry is settled, just after the last POST was answered.
      const deadline = Date.now() + 5000;
      let delivered: number | undefined;
      while (delivered === undefined && Date.now() < deadline) {
        const points = await sdk.points(METRIC.pushDeliveries.name);
        delivered = points.find((p) => p.attributes[ATTR.pushOutcome] === 'delivered')?.value as
          number | undefined;
        if (delivered === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(delivered).toBeGreaterThanOrEqual(1);
    });
  },
);

describe('push trace context across a restart (SQLite file)', () => {
  it('is kept with the outbox entry: the next process delivers in the same trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-push-trace-'));
    dirs.push(dir);
    const file = join(dir, 'tasks.db');
    receiver = await startReceiver();
    const port = receiver.port;
    await receiver.down();
    server = await startPushServer({ file });
    const parent = traceparent();
    await sendWithPush(server.url, receiver.url('/hook'), parent.header);
    const invoke = sdk
      .finished()
      .find((s) => s.name === 'invoke_agent Echo Agent' && s.spanContext().traceId === parent.traceId);
    expect(invoke).toBeDefined();
    // The first process fails to deliver, then goes away with the entries still in the outbox.
    await until(() => pushSpans(parent.traceId).length > 0);
    await server.close();
    server = undefined;
    sdk.exporter.reset();

    receiver = await startReceiver(port);
    server = await startPushServer({ file });
    const deliveries = await receiver.waitFor(1);
    for (const delivery of deliveries) {
      const [, traceId, spanId] = String(delivery.headers.traceparent).split('-');
      expect(traceId).toBe(parent.traceId);
      await until(() => pushSpans(parent.traceId).some((s) => s.spanContext().spanId === spanId));
      const span = pushSpans(parent.traceId).find((s) => s.spanContext().spanId === spanId)!;
      expect(span.parentSpanContext?.spanId).toBe(invoke!.spanContext().spanId);
      expect(span.attributes[ATTR.pushAttempt]).toBeGreaterThan(1);
    }
  });
});
