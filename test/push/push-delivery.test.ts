/**
 * Push delivery over real sockets: a node:http webhook receiver gets each task event, signed
 * (verified with jose against the JWKS the agent serves), authenticated as the config says, in
 * the shape of the config's protocol version, in order, with an event id to deduplicate on; a
 * receiver that is down for a while (connections refused, then 500s) gets every event once it is
 * back; the last failed attempt leaves a dead letter; a deleted config gets nothing more.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { v0_3JsonRpcCodec, v1_0Codec, type StreamResponse } from '../../src/protocol/internal.js';
import { PushDeadLetterError } from '../../src/server/index.js';
import { POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';
import { eventually, message, rpc, startPushServer, type PushServer } from './helpers/push-server.js';
import {
  startReceiver,
  verifyDelivery,
  type Received,
  type WebhookReceiver,
} from './helpers/webhook-receiver.js';

const ANON = { tenant: '', owner: '' };
let server: PushServer | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

async function jwksOf(url: string): Promise<{ keys: unknown[] }> {
  const response = await fetch(`${url}.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as { keys: unknown[] };
}

function eventIds(deliveries: Received[]): number[] {
  return deliveries.map((d) => Number(d.headers['x-a2a-event-id']));
}

describe.skipIf(POSTGRES_URL !== undefined)('push delivery (postgres store)', () => {
  it.skip(`runs against PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {});
});

describe.each(['memory', 'sqlite', ...(POSTGRES_URL === undefined ? [] : ['postgres' as const])] as const)(
  'push delivery (%s store)',
  (kind) => {
    it('delivers every event of a 1.0 task as a signed StreamResponse, verified against the served JWKS', async () => {
      receiver = await startReceiver();
      server = await startPushServer({ store: kind });
      const hook = receiver.url('/a2a/events?source=concord');
      const sent = await rpc(server.url, 'SendMessage', {
        message: message('hello'),
        configuration: {
          taskPushNotificationConfig: {
            url: hook,
            token: 'tok-secret-1',
            authentication: { scheme: 'Bearer' },
          },
        },
      });
      const task = (sent.body.result as { task: { id: string; status: { state: string } } }).task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      const log = await server.store.readEvents(task.id, 0, ANON);
      const deliveries = await receiver.waitFor(log.length);
      expect(eventIds(deliveries)).toEqual(log.map((r) => r.seq));

      const jwks = await jwksOf(server.url);
      for (const [i, delivery] of deliveries.entries()) {
        expect(delivery.path).toBe('/a2a/events?source=concord');
        expect(delivery.headers['content-type']).toBe('application/a2a+json');
        expect(delivery.headers['x-a2a-task-id']).toBe(task.id);
        expect(delivery.headers['x-a2a-notification-token']).toBe('tok-secret-1');
        // A Bearer scheme without credentials: the A2A guide's JWT + JWKS pattern, the same JWT.
        expect(delivery.headers.authorization).toBe(`Bearer ${String(delivery.headers['x-a2a-signature'])}`);
        const claims = await verifyDelivery(delivery, jwks, { issuer: server.url, audience: hook });
        expect(claims).toMatchObject({ taskId: task.id, eventId: log[i]!.seq });
        expect(typeof claims.jti).toBe('string');
        expect(claims.exp! - claims.iat!).toBe(300);
        const event: StreamResponse = v1_0Codec.decodeStreamResponse(delivery.json, '');
        expect(event).toEqual(log[i]!.event);
      }
      expect('task' in v1_0Codec.decodeStreamResponse(deliveries[0]!.json, '')).toBe(true);
      // A tampered body no longer matches its signature.
      await expect(
        verifyDelivery({ ...deliveries[0]!, body: `${deliveries[0]!.body} ` }, jwks, {
          issuer: server.url,
          audience: hook,
        }),
      ).rejects.toThrow(/request_body_sha256/);
      // Everything delivered: the outbox is empty.
      await eventually(async () => ((await server!.push.nextDueAt()) === undefined ? true : undefined));
    });

    it('sends a 0.3 config the Task as each change left it, with Authorization from its credentials', async () => {
      receiver = await startReceiver();
      server = await startPushServer({ store: kind });
      const started = await rpc(
        server.url,
        'message/send',
        {
          message: {
            kind: 'message',
            messageId: 'm-wait',
            role: 'user',
            parts: [{ kind: 'text', text: 'wait' }],
          },
          configuration: { blocking: false },
        },
        '0.3',
      );
      const taskId = (started.body.result as { id: string }).id;
      const set = await rpc(
        server.url,
        'tasks/pushNotificationConfig/set',
        {
          taskId,
          pushNotificationConfig: {
            url: receiver.url(),
            authentication: { schemes: ['Basic'], credentials: 'dXNlcjpwYXNz' },
          },
        },
        '0.3',
      );
      expect(set.body.result).toEqual({
        taskId,
        pushNotificationConfig: { id: taskId, url: receiver.url(), authentication: { schemes: ['Basic'] } },
      });
      const canceled = await rpc(server.url, 'tasks/cancel', { id: taskId }, '0.3');
      expect((canceled.body.result as { status: { state: string } }).status.state).toBe('canceled');
      const [delivery] = await receiver.waitFor(1);
      const stored = await server.store.get(taskId, ANON);
      expect(delivery!.headers['content-type']).toBe('application/json');
      expect(delivery!.headers.authorization).toBe('Basic dXNlcjpwYXNz');
      expect(delivery!.headers['x-a2a-notification-token']).toBeUndefined();
      expect(Number(delivery!.headers['x-a2a-event-id'])).toBe(stored!.version);
      expect(delivery!.json).toMatchObject({ kind: 'task', id: taskId, status: { state: 'canceled' } });
      expect(v0_3JsonRpcCodec.decodeTask(delivery!.json, '')).toEqual(stored!.task);
      await verifyDelivery(delivery!, await jwksOf(server.url), {
        issuer: server.url,
        audience: receiver.url(),
      });
    });
  },
);

describe('push delivery to a receiver that is away', () => {
  const durable = ['sqlite', ...(POSTGRES_URL === undefined ? [] : ['postgres' as const])] as const;
  it.each(durable)(
    'gets every event, in order and without duplicates, once it is back (refused, then 500s; %s store)',
    async (kind) => {
      receiver = await startReceiver();
      const hook = receiver.url();
      await receiver.down();
      server = await startPushServer({ store: kind });
      const sent = await rpc(server.url, 'SendMessage', {
        message: message('stream 4'),
        configuration: { taskPushNotificationConfig: { url: hook } },
      });
      const taskId = (sent.body.result as { task: { id: string } }).task.id;
      const log = await server.store.readEvents(taskId, 0, ANON);
      expect(log.length).toBeGreaterThanOrEqual(6);
      // Connections refused for a while: attempts fail and are rescheduled with backoff.
      await new Promise((r) => setTimeout(r, 400));
      await receiver.up();
      receiver.answers = [500, 500, 503];
      const delivered = await receiver.waitFor(log.length);
      const ids = eventIds(delivered);
      expect(ids).toEqual(log.map((r) => r.seq));
      expect(new Set(ids).size).toBe(ids.length);
      // The failed answers were retried, each for the event that had failed.
      const all = receiver.received.map((r) => [Number(r.headers['x-a2a-event-id']), r.answered]);
      expect(all.slice(0, 4)).toEqual([
        [1, 500],
        [1, 500],
        [1, 503],
        [1, 200],
      ]);
      for (const [i, d] of delivered.entries()) {
        expect(v1_0Codec.decodeStreamResponse(d.json, '')).toEqual(log[i]!.event);
      }
    },
  );

  it('gives up after the last attempt and keeps a dead letter, reported through onError', async () => {
    receiver = await startReceiver();
    receiver.fallback = 500;
    server = await startPushServer({
      push: { retry: { maxAttempts: 3, initialDelayMs: 20, maxDelayMs: 40 } },
    });
    const sent = await rpc(server.url, 'SendMessage', {
      message: message('hello'),
      configuration: { taskPushNotificationConfig: { url: receiver.url(), id: 'cfg-1' } },
    });
    const taskId = (sent.body.result as { task: { id: string } }).task.id;
    const page = await eventually(async () => {
      const letters = await server!.push.listDeadLetters();
      return letters.deadLetters.length >= 1 ? letters : undefined;
    });
    const [dead] = page.deadLetters;
    expect(dead).toMatchObject({
      taskId,
      configId: 'cfg-1',
      url: receiver.url(),
      attempts: 3,
      firstSeq: 1,
      deliveredSeq: 0,
      reason: 'gave up after 3 attempts: the receiver answered HTTP 500',
    });
    expect(receiver.received.filter((r) => r.headers['x-a2a-event-id'] === '1')).toHaveLength(3);
    expect(server.errors.some((e) => e instanceof PushDeadLetterError && e.taskId === taskId)).toBe(true);
  });

  it('dead-letters at once on 410 Gone, and sends nothing to a deleted config', async () => {
    receiver = await startReceiver();
    server = await startPushServer();
    const waiting = await rpc(server.url, 'SendMessage', {
      message: message('wait'),
      configuration: { returnImmediately: true },
    });
    const taskId = (waiting.body.result as { task: { id: string } }).task.id;
    const gone = await rpc(server.url, 'CreateTaskPushNotificationConfig', {
      taskId,
      url: receiver.url('/gone'),
    });
    const kept = await rpc(server.url, 'CreateTaskPushNotificationConfig', {
      taskId,
      url: receiver.url('/deleted'),
    });
    const goneId = (gone.body.result as { id: string }).id;
    const deletedId = (kept.body.result as { id: string }).id;
    await rpc(server.url, 'DeleteTaskPushNotificationConfig', { taskId, id: deletedId });
    receiver.answers = [410];
    await rpc(server.url, 'CancelTask', { id: taskId });
    const page = await eventually(async () => {
      const letters = await server!.push.listDeadLetters();
      return letters.deadLetters.length >= 1 ? letters : undefined;
    });
    expect(page.deadLetters[0]).toMatchObject({
      configId: goneId,
      attempts: 1,
      reason: 'the receiver answered 410 Gone',
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received.map((r) => r.path)).toEqual(['/gone']);
  });
});
