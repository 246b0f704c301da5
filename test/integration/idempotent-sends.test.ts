/**
 * Idempotent sends through HTTP and gRPC (decisions 0091, 0133): retries of one
 * send, concurrent or after the fact, on every binding and version and on every store, create
 * exactly one task and run the agent once — keyed by the Idempotency-Key header on any server, and
 * by messageId on a server that opts in (`idempotency: { messageId: true }`). A default server
 * treating a recycled messageId as a new message is message-id-reuse.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AServer, type AgentExecutor } from '../../src/server/index.js';
import { listen } from '../../src/server/adapters/node.js';
import { openSqliteTaskStore } from '../../src/store/sqlite/index.js';
import { allDrivers, taskOf, userText, type Driver } from '../helpers/drivers.js';
import { grpcDriver } from '../helpers/grpc-driver.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

/** Messages that repeat a messageId are retries on these servers (decision 0133). */
const byMessageId = { idempotency: { messageId: true } };

/** The echo agent, counting how often it is asked. */
function countingEcho(): { executor: AgentExecutor; runs: () => number } {
  const inner = echo.executor as AgentExecutor;
  let runs = 0;
  const executor: AgentExecutor = {
    execute(context, updater) {
      runs++;
      return inner.execute(context, updater);
    },
  };
  if (inner.cancel !== undefined) executor.cancel = inner.cancel.bind(inner);
  return { executor, runs: () => runs };
}

describe.skipIf(POSTGRES_URL !== undefined)('idempotent sends on the postgres store', () => {
  it.skip(`runs against PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {});
});

for (const storeKind of [
  'memory',
  'sqlite',
  ...(POSTGRES_URL === undefined ? [] : ['postgres' as const]),
] as const) {
  describe(`idempotent sends on the ${storeKind} store, messageId keys on`, () => {
    let server: EchoServer;
    let counter: ReturnType<typeof countingEcho>;

    beforeAll(async () => {
      counter = countingEcho();
      server = await startEcho({ store: storeKind, executor: counter.executor, ...byMessageId });
    });
    afterAll(async () => {
      await server.close();
    });

    async function taskCount(): Promise<number> {
      const page = await server.store.list({ tenant: '', owner: '', pageSize: 1 });
      return page.totalSize;
    }

    describe.each(allDrivers('http://placeholder').map((d) => [d.name, d] as const))(
      '%s',
      (_name, template) => {
        let driver: Driver;
        beforeAll(() => {
          driver = allDrivers(server.url).find((d) => d.name === template.name)!;
        });

        it('50 concurrent retries of one send create exactly one task and run the agent once', async () => {
          const before = await taskCount();
          const runsBefore = counter.runs();
          const message = userText('retry me');
          const outcomes = await Promise.all(Array.from({ length: 50 }, () => driver.send(message)));
          const ids = new Set(outcomes.map((o) => taskOf(o).id));
          expect(ids.size).toBe(1);
          for (const o of outcomes) expect(taskOf(o).status.state).toBe('TASK_STATE_COMPLETED');
          expect(await taskCount()).toBe(before + 1);
          expect(counter.runs() - runsBefore).toBe(1);
        });

        it('a retry after the first answer returns the same task, and the agent is not asked again', async () => {
          const message = userText('once only');
          const first = taskOf(await driver.send(message));
          const runs = counter.runs();
          const again = taskOf(await driver.send(message));
          expect(again.id).toBe(first.id);
          expect(again.artifacts).toEqual(first.artifacts);
          expect(counter.runs()).toBe(runs);
        });

        it('a reused messageId with different parts is refused, naming /message/parts', async () => {
          const message = userText('original');
          taskOf(await driver.send(message));
          const outcome = await driver.send({ ...message, parts: [{ text: 'something else' }] });
          expect(outcome.ok).toBe(false);
          if (outcome.ok) return;
          expect(outcome.error.code).toBe(-32602);
          expect(outcome.error.message).toContain('/message/parts');
        });

        it('a retried follow-up to a task that has since completed returns that task, not an error', async () => {
          const asked = taskOf(await driver.send(userText('ask')));
          expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
          const answer = userText('blue', { taskId: asked.id, contextId: asked.contextId });
          const done = taskOf(await driver.send(answer));
          expect(done.status.state).toBe('TASK_STATE_COMPLETED');
          const retried = taskOf(await driver.send(answer));
          expect(retried.id).toBe(asked.id);
          expect(retried.status.state).toBe('TASK_STATE_COMPLETED');
        });

        it('a retried stream replays the first stream of the same task', async () => {
          const message = userText('stream 2');
          const [a, b] = await Promise.all([driver.stream(message), driver.stream(message)]);
          for (const run of [a, b]) {
            expect(run.error).toBeUndefined();
            const last = run.items.at(-1)!.event;
            expect('statusUpdate' in last && last.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
          }
          const taskIdOf = (items: typeof a.items): string => {
            const first = items[0]!.event;
            return 'task' in first ? first.task.id : 'statusUpdate' in first ? first.statusUpdate.taskId : '';
          };
          expect(taskIdOf(a.items)).toBe(taskIdOf(b.items));
          const later = await driver.stream(message);
          expect(taskIdOf(later.items)).toBe(taskIdOf(a.items));
          expect(later.items.map((i) => i.id)).toEqual(
            a.items.map((i) => i.id).filter((id) => id !== undefined),
          );
        });
      },
    );

    it('Idempotency-Key: sends with different messageIds but one key make one task (HTTP+JSON 1.0)', async () => {
      // Keys count with or without messageId keys; this server has them, message-id-reuse.test.ts not.
      const key = `order-${crypto.randomUUID()}`;
      const post = (text: string): Promise<Response> =>
        fetch(`${server.url}message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'idempotency-key': key },
          body: JSON.stringify({
            message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
          }),
        });
      const replies = await Promise.all([post('pay 10'), post('pay 10'), post('pay 10')]);
      const bodies = (await Promise.all(replies.map((r) => r.json()))) as { task: { id: string } }[];
      expect(new Set(bodies.map((b) => b.task.id)).size).toBe(1);
    });

    it('an over-long Idempotency-Key is refused with 400 naming the header', async () => {
      const reply = await fetch(`${server.url}message:send`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'a2a-version': '1.0',
          'idempotency-key': 'x'.repeat(256),
        },
        body: JSON.stringify({
          message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
        }),
      });
      expect(reply.status).toBe(400);
      expect(JSON.stringify(await reply.json())).toContain('Idempotency-Key');
    });
  });
}

describe('idempotent sends across a restart (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'concord-idem-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a retry after the server restarted returns the task the first attempt made', async () => {
    const path = join(dir, 'tasks.db');
    const start = async (): Promise<{ url: string; close: () => Promise<void>; runs: () => number }> => {
      const counter = countingEcho();
      const store = openSqliteTaskStore({ path });
      const server = createA2AServer({
        agentCard: echo.agentCard,
        executor: counter.executor,
        store,
        ...byMessageId,
      });
      const running = await listen(server, { port: 0 });
      return {
        url: running.url,
        runs: counter.runs,
        close: async () => {
          await running.close();
          await store.close();
        },
      };
    };
    const message = userText('survive a restart');
    const key = { 'idempotency-key': crypto.randomUUID() };
    const first = await start();
    const before = taskOf(await allDrivers(first.url)[0]!.send(message));
    const keyed = taskOf(await allDrivers(first.url, key)[1]!.send(userText('keyed')));
    await first.close();
    const second = await start();
    try {
      const after = taskOf(await allDrivers(second.url)[0]!.send(message));
      expect(after.id).toBe(before.id);
      // The header's key survives too, whatever messageId the retry carries.
      expect(taskOf(await allDrivers(second.url, key)[1]!.send(userText('keyed'))).id).toBe(keyed.id);
      expect(second.runs()).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe.skipIf(POSTGRES_URL === undefined)(
  `idempotent sends across two servers on one PostgreSQL database${POSTGRES_SKIP_NOTE}`,
  () => {
    it('50 concurrent retries spread over both servers create exactly one task', async () => {
      const schema = freshSchema();
      const counters = [countingEcho(), countingEcho()];
      const servers = await Promise.all(
        counters.map(async (counter) => {
          const store = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 5 });
          const server = createA2AServer({
            agentCard: echo.agentCard,
            executor: counter.executor,
            store,
            ...byMessageId,
          });
          return { running: await listen(server, { port: 0 }), store };
        }),
      );
      try {
        const drivers = servers.map((s) => allDrivers(s.running.url)[0]!);
        const message = userText('once across instances');
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, i) => drivers[i % 2]!.send(message)),
        );
        const ids = new Set(outcomes.map((o) => taskOf(o).id));
        expect(ids.size).toBe(1);
        const page = await servers[0]!.store.list({ tenant: '', owner: '', pageSize: 10 });
        expect(page.totalSize).toBe(1);
        // Each server runs the agent at most once (the loser of a cross-instance race is aborted).
        for (const counter of counters) expect(counter.runs()).toBeLessThanOrEqual(1);
      } finally {
        for (const s of servers) await s.running.close();
      }
    });
  },
);

describe('idempotent sends over gRPC, messageId keys on', () => {
  let server: EchoServer;
  let counter: ReturnType<typeof countingEcho>;
  beforeAll(async () => {
    counter = countingEcho();
    server = await startEcho({ store: 'sqlite', grpc: true, executor: counter.executor, ...byMessageId });
  });
  afterAll(async () => {
    await server.close();
  });

  for (const version of ['1.0', '0.3'] as const) {
    it(`${version}: 50 concurrent retries make one task; an idempotency-key metadata entry works too`, async () => {
      const driver = grpcDriver(server.grpc!.target, version);
      const keyed = grpcDriver(server.grpc!.target, version, { 'idempotency-key': crypto.randomUUID() });
      try {
        const runs = counter.runs();
        const message = userText('over grpc');
        const outcomes = await Promise.all(Array.from({ length: 50 }, () => driver.send(message)));
        expect(new Set(outcomes.map((o) => taskOf(o).id)).size).toBe(1);
        const a = taskOf(await keyed.send(userText('keyed')));
        const b = taskOf(await keyed.send(userText('keyed')));
        expect(b.id).toBe(a.id);
        expect(counter.runs() - runs).toBe(2);
      } finally {
        driver.close?.();
        keyed.close?.();
      }
    });
  }
});
