/**
 * Retries count per delivery (decision 0145), over real sockets: an agent whose one commit queues
 * several events for a task, and a node:http receiver that flaps. Every event gets its own tries
 * and its own backoff, a success starts the next event's backoff afresh, order is kept, and an
 * event that runs out of tries is given up alone: the events after it still go out, in order.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { PushDeadLetterError, type AgentExecutor } from '../../src/server/index.js';
import type { PushOutboxEntry, PushSettlement } from '../../src/store/index.js';
import { POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';
import { eventually, message, rpc, startPushServer, type PushServer } from './helpers/push-server.js';
import { startReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

const ANON = { tenant: '', owner: '' };
let server: PushServer | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

/** Emits its events in one go, so the execution commits them together: one outbox entry. */
const burst: AgentExecutor = {
  execute(_context, updater) {
    updater.startWork('working');
    for (let i = 1; i <= 3; i++) updater.addArtifact([{ text: `part ${i}` }], { name: `part-${i}` });
    updater.complete();
  },
};

/** What the dispatcher claimed and how it settled, seen by wrapping the store's methods. */
interface Watch {
  claims: PushOutboxEntry[];
  settlements: { entryId: number; settlement: PushSettlement; at: number }[];
}

function watch(s: PushServer): Watch {
  const seen: Watch = { claims: [], settlements: [] };
  const { push } = s;
  const claimDue = push.claimDue.bind(push);
  const settle = push.settle.bind(push);
  push.claimDue = async (now, limit, leaseMs) => {
    const claimed = await claimDue(now, limit, leaseMs);
    seen.claims.push(...claimed);
    return claimed;
  };
  push.settle = (entryId, settlement) => {
    seen.settlements.push({ entryId, settlement, at: Date.now() });
    return settle(entryId, settlement);
  };
  return seen;
}

function eventId(headers: IncomingHttpHeaders): number {
  return Number(headers['x-a2a-event-id']);
}

/** Answers 500 to the first `failures(event)` tries of each event, then 200. */
function flapping(r: WebhookReceiver, failures: (event: number) => number): void {
  const tries = new Map<number, number>();
  r.answerFor = (headers) => {
    const id = eventId(headers);
    const n = (tries.get(id) ?? 0) + 1;
    tries.set(id, n);
    return n <= failures(id) ? 500 : 200;
  };
}

/** Each event's answers, in the order the receiver got them: `[[1, [500, 500, 200]], ...]`. */
function answersByEvent(r: WebhookReceiver): [number, number[]][] {
  const by = new Map<number, number[]>();
  for (const got of r.received) {
    const id = eventId(got.headers);
    by.set(id, [...(by.get(id) ?? []), got.answered]);
  }
  return [...by];
}

async function sendBurst(s: PushServer, hook: string): Promise<{ taskId: string; seqs: number[] }> {
  const sent = await rpc(s.url, 'SendMessage', {
    message: message('go'),
    configuration: { taskPushNotificationConfig: { url: hook, id: 'cfg' } },
  });
  const task = (sent.body.result as { task: { id: string; status: { state: string } } }).task;
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  const log = await s.store.readEvents(task.id, 0, ANON);
  return { taskId: task.id, seqs: log.map((r) => r.seq) };
}

/** The entry that carried several of the task's events together (what this file is about). */
function batchOf(seen: Watch): PushOutboxEntry {
  const entry = seen.claims.find((e) => e.lastSeq - e.firstSeq >= 2);
  if (entry === undefined) throw new Error('no outbox entry carried several events');
  return entry;
}

describe.skipIf(POSTGRES_URL !== undefined)('push retries per delivery (postgres store)', () => {
  it.skip(`runs against PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {});
});

describe.each(['memory', 'sqlite', ...(POSTGRES_URL === undefined ? [] : ['postgres' as const])] as const)(
  'push retries per delivery (%s store)',
  (kind) => {
    it('gives each event of a batch its own tries: a flapping receiver gets all of them, in order', async () => {
      receiver = await startReceiver();
      flapping(receiver, () => 2);
      server = await startPushServer({
        store: kind,
        executor: burst,
        push: { retry: { maxAttempts: 4, initialDelayMs: 5, maxDelayMs: 20 } },
      });
      const seen = watch(server);
      const { seqs } = await sendBurst(server, receiver.url());
      await receiver.waitFor(seqs.length, 8000);
      const batch = batchOf(seen);
      expect(batch.lastSeq - batch.firstSeq + 1).toBeGreaterThanOrEqual(3);

      // Every event: two failures, then delivered, and only after the event before it.
      expect(answersByEvent(receiver)).toEqual(seqs.map((seq) => [seq, [500, 500, 200]]));
      expect((await server.push.listDeadLetters()).deadLetters).toEqual([]);
      expect(server.errors.filter((e) => e instanceof PushDeadLetterError)).toEqual([]);
      // The batch's retries carried the count of the event they were for, never more than 2.
      const retries = seen.settlements.filter((s) => s.entryId === batch.id).map((s) => s.settlement);
      for (const s of retries) if (s.outcome === 'retry') expect(s.attempts).toBeLessThanOrEqual(2);
      await eventually(async () => ((await server!.push.nextDueAt()) === undefined ? true : undefined));
    });

    it("starts the next event's backoff afresh after a success: it does not wait the earlier one's", async () => {
      receiver = await startReceiver();
      server = await startPushServer({
        store: kind,
        executor: burst,
        push: { retry: { maxAttempts: 6, initialDelayMs: 40, maxDelayMs: 10_000 } },
      });
      const seen = watch(server);
      // The batch's first event fails four times (its backoff grows to 8 times the first), the
      // second once; everything else goes through at once.
      const tries = new Map<number, number>();
      receiver.answerFor = (headers) => {
        const id = eventId(headers);
        const n = (tries.get(id) ?? 0) + 1;
        tries.set(id, n);
        const entry = seen.claims.find((e) => e.lastSeq - e.firstSeq >= 2);
        if (entry === undefined) return 200;
        const failures = id === entry.firstSeq ? 4 : id === entry.firstSeq + 1 ? 1 : 0;
        return n <= failures ? 500 : 200;
      };
      const { seqs } = await sendBurst(server, receiver.url());
      await receiver.waitFor(seqs.length, 8000);
      const batch = batchOf(seen);
      const a = batch.firstSeq;

      const answers = new Map(answersByEvent(receiver));
      expect(answers.get(a)).toEqual([500, 500, 500, 500, 200]);
      expect(answers.get(a + 1)).toEqual([500, 200]);
      expect([...answers.keys()]).toEqual(seqs);
      const retries = seen.settlements.filter(
        (s) => s.entryId === batch.id && s.settlement.outcome === 'retry',
      );
      const plans = retries.map(({ settlement, at }) => {
        const s = settlement as Extract<PushSettlement, { outcome: 'retry' }>;
        return { deliveredSeq: s.deliveredSeq, attempts: s.attempts, waitMs: s.nextAttemptAt - at };
      });
      expect(plans.map((p) => p.deliveredSeq)).toEqual([a - 1, a - 1, a - 1, a - 1, a]);
      // Event a's fourth failure waited 40 · 2^3 = 320 ms, halved at most by the jitter.
      expect(plans[3]!.waitMs).toBeGreaterThan(120);
      // Then a went through and a + 1 failed in the same attempt: a + 1 waits only the first backoff
      // (before decision 0145 it waited 40 · 2^4, the count of the whole batch).
      expect(plans[4]!.waitMs).toBeLessThanOrEqual(40);
      // Each retry carried the count of its own event: a's tries 1-4, then a + 1's first.
      expect(plans.map((p) => p.attempts)).toEqual([1, 2, 3, 4, 1]);
      // The store kept that count: the next claim is a + 1's second try.
      const next = seen.claims.filter((e) => e.id === batch.id && e.deliveredSeq === a);
      expect(next[0]!.attempts).toBe(2);
      expect((await server.push.listDeadLetters()).deadLetters).toEqual([]);
    });

    it('gives up on an event alone when its own tries run out; the events after it still go, in order', async () => {
      receiver = await startReceiver();
      server = await startPushServer({
        store: kind,
        executor: burst,
        push: { retry: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 } },
      });
      const seen = watch(server);
      // The second event of the batch always fails; the others go through at once.
      receiver.answerFor = (headers) => {
        const entry = seen.claims.find((e) => e.lastSeq - e.firstSeq >= 2);
        return entry !== undefined && eventId(headers) === entry.firstSeq + 1 ? 500 : 200;
      };
      const { taskId, seqs } = await sendBurst(server, receiver.url());
      await receiver.waitFor(seqs.length - 1, 8000);
      const batch = batchOf(seen);
      const lost = batch.firstSeq + 1;
      expect(answersByEvent(receiver)).toEqual(
        seqs.map((seq) => [seq, seq === lost ? [500, 500, 500] : [200]]),
      );

      const { deadLetters } = await server.push.listDeadLetters();
      expect(deadLetters).toHaveLength(1);
      const [dead] = deadLetters;
      expect(dead).toMatchObject({
        taskId,
        configId: 'cfg',
        firstSeq: lost,
        lastSeq: lost,
        deliveredSeq: lost - 1,
        attempts: 3,
        url: receiver.url(),
        reason: 'gave up after 3 attempts: the receiver answered HTTP 500',
      });
      expect(dead!.events).toHaveLength(1);
      const log = await server.store.readEvents(taskId, 0, ANON);
      expect(dead!.events[0]).toEqual(log.find((r) => r.seq === lost)!.event);
      expect(server.errors.filter((e) => e instanceof PushDeadLetterError)).toHaveLength(1);
      await eventually(async () => ((await server!.push.nextDueAt()) === undefined ? true : undefined));

      // Requeued, the lost event is delivered on its own.
      receiver.answerFor = undefined;
      expect(await server.push.requeueDeadLetter(dead!.id)).toBe(true);
      const all = await receiver.waitFor(seqs.length, 8000);
      expect(eventId(all.at(-1)!.headers)).toBe(lost);
      expect((await server.push.listDeadLetters()).deadLetters).toEqual([]);
    });
  },
);
