/**
 * Direct Message replies of keyed sends are kept in the task store (decision 0147): a retry gets
 * the first reply — across a restart on SQLite, over `message:send` and `message:stream`, on every
 * binding — and the agent runs once. On PostgreSQL, concurrent retries spread over two servers of
 * one database all get the same reply. Misused keys are refused as for tasks (-32602).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/protocol/index.js';
import { createA2AServer, type AgentExecutor } from '../../src/server/index.js';
import { listen } from '../../src/server/adapters/node.js';
import { createMemoryTaskStore, type TaskStore } from '../../src/store/index.js';
import { openSqliteTaskStore } from '../../src/store/sqlite/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { allDrivers, ok, userText, type Driver } from '../helpers/drivers.js';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

/** Answers every send with a Message numbered by how often this agent was asked. */
function replier(): { executor: AgentExecutor; runs: () => number } {
  let runs = 0;
  const executor: AgentExecutor = {
    async execute(context, updater) {
      runs++;
      // A moment of work, so concurrent retries overlap the run.
      await new Promise((done) => setTimeout(done, 5));
      const text = context.message.parts.map((p) => p.text ?? '').join(' ');
      updater.reply(`reply ${runs} to ${text}`);
    },
  };
  return { executor, runs: () => runs };
}

async function serve(store: TaskStore, executor: AgentExecutor, errors: unknown[] = []) {
  const server = createA2AServer({
    agentCard: echo.agentCard,
    executor,
    store,
    idempotency: { messageId: true },
    onError: (error) => errors.push(error),
  });
  const running = await listen(server, { port: 0 });
  return {
    url: running.url,
    close: async () => {
      await running.close();
      await store.close();
    },
  };
}

function messageOf(outcome: Awaited<ReturnType<Driver['send']>>): Message {
  const value = ok(outcome);
  if (!('message' in value)) throw new Error(`expected a message, got ${JSON.stringify(value)}`);
  return value.message;
}

async function streamedMessage(driver: Driver, message: Message): Promise<Message> {
  const streamed = await driver.stream(message);
  expect(streamed.error).toBeUndefined();
  expect(streamed.items).toHaveLength(1);
  const event = streamed.items[0]!.event;
  if (!('message' in event)) throw new Error(`expected a message, got ${JSON.stringify(event)}`);
  return event.message;
}

describe('kept replies across a restart (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'concord-kept-replies-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a retry after the restart gets the first reply, sent or streamed, on every binding', async () => {
    const path = join(dir, 'tasks.db');
    const before = replier();
    const first = await serve(openSqliteTaskStore({ path }), before.executor);
    const keys = [0, 1, 2, 3].map(() => ({ 'idempotency-key': crypto.randomUUID() }));
    const sent = userText('book it');
    const streamed = userText('stream it');
    const answers: Message[] = [];
    const streamAnswers: Message[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push(messageOf(await allDrivers(first.url)[i]!.send(sent)));
      // A streamed send answered with a Message is kept too (its key is the header here).
      streamAnswers.push(await streamedMessage(allDrivers(first.url, keys[i])[i]!, streamed));
    }
    // The messageId keys the four bindings' sends alike, so the agent answered it once.
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(before.runs()).toBe(5);
    await first.close();

    const after = replier();
    const second = await serve(openSqliteTaskStore({ path }), after.executor);
    try {
      for (let i = 0; i < 4; i++) {
        const name = allDrivers(second.url)[i]!.name;
        expect(messageOf(await allDrivers(second.url)[i]!.send(sent)), name).toEqual(answers[0]);
        expect(await streamedMessage(allDrivers(second.url)[i]!, sent), name).toEqual(answers[0]);
        // A header key's retry may carry a fresh messageId; the parts decide (decision 0133).
        const retry = { ...streamed, messageId: crypto.randomUUID() };
        expect(messageOf(await allDrivers(second.url, keys[i])[i]!.send(retry)), name).toEqual(
          streamAnswers[i],
        );
      }
      expect(after.runs()).toBe(0);

      // A reused key for other parts, or naming a task, is refused as a task's would be.
      const driver = allDrivers(second.url)[1]!;
      const other = await driver.send({ ...sent, parts: [{ text: 'something else' }] });
      expect(other.ok).toBe(false);
      if (!other.ok) {
        expect(other.error.code).toBe(-32602);
        expect(other.error.message).toContain('/message/parts');
      }
      const toTask = await driver.send({ ...sent, taskId: 'some-task' });
      expect(toTask.ok).toBe(false);
      if (!toTask.ok) expect(toTask.error.message).toContain('/message/taskId');
      expect(after.runs()).toBe(0);
    } finally {
      await second.close();
    }
  });
});

describe('a reply the store fails to keep', () => {
  it('is still the answer, and the failure is reported to onError', async () => {
    const inner = createMemoryTaskStore();
    const failing = new Error('disk full');
    const store: TaskStore = Object.assign(Object.create(inner) as TaskStore, {
      replies: { keep: () => Promise.reject(failing), find: () => Promise.resolve(undefined) },
    });
    const agent = replier();
    const errors: unknown[] = [];
    const server = await serve(store, agent.executor, errors);
    try {
      const driver = allDrivers(server.url)[1]!;
      const reply = messageOf(await driver.send(userText('unkept')));
      expect(reply.parts[0]!.text).toBe('reply 1 to unkept');
      expect(errors).toEqual([failing]);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(POSTGRES_URL === undefined)(
  `kept replies across two servers on one PostgreSQL database${POSTGRES_SKIP_NOTE}`,
  () => {
    it('50 concurrent retries spread over both servers get one reply; each agent runs at most once', async () => {
      const schema = freshSchema();
      const agents = [replier(), replier()];
      const errors: unknown[] = [];
      const servers = await Promise.all(
        agents.map(async (agent) =>
          serve(
            await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 5 }),
            agent.executor,
            errors,
          ),
        ),
      );
      try {
        const drivers = servers.map((s) => allDrivers(s.url)[0]!);
        const message = userText('once across instances');
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, i) => drivers[i % 2]!.send(message)),
        );
        const replies = outcomes.map(messageOf);
        for (const reply of replies) expect(reply).toEqual(replies[0]);
        for (const agent of agents) expect(agent.runs()).toBeLessThanOrEqual(1);
        // Later retries, on either server, get it from the store.
        for (const driver of drivers) expect(messageOf(await driver.send(message))).toEqual(replies[0]);
        expect(agents[0]!.runs() + agents[1]!.runs()).toBeLessThanOrEqual(2);
        expect(errors).toEqual([]);
      } finally {
        for (const s of servers) await s.close();
      }
    });
  },
);
