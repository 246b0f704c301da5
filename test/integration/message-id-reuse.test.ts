/**
 * A default server does not key sends on messageId (decision 0133): clients (the A2A
 * kits among them) recycle one messageId for different messages, and each is a new message — a new
 * task, or a follow-up on the task it names — on every binding and version. Retries stay safe
 * through the Idempotency-Key header (gRPC metadata `idempotency-key`), and a direct Message reply
 * to a keyed send is answered again to its retry (recent-replies.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentExecutor } from '../../src/server/index.js';
import type { Message } from '../../src/protocol/index.js';
import { allDrivers, ok, taskOf, userText } from '../helpers/drivers.js';
import { grpcDriver } from '../helpers/grpc-driver.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

/** Wraps `inner`, counting how often the agent is asked. */
function counting(inner: AgentExecutor): { executor: AgentExecutor; runs: () => number } {
  let runs = 0;
  const executor: AgentExecutor = {
    execute(context, updater) {
      runs++;
      return inner.execute(context, updater);
    },
  };
  return { executor, runs: () => runs };
}

const artifactText = (task: { artifacts?: { parts: { text?: string }[] }[] }): string | undefined =>
  task.artifacts?.[0]?.parts[0]?.text;

describe('a default server: a recycled messageId is a new message', () => {
  let server: EchoServer;
  let counter: ReturnType<typeof counting>;
  beforeAll(async () => {
    counter = counting(echo.executor as AgentExecutor);
    server = await startEcho({ store: 'sqlite', grpc: true, executor: counter.executor });
  });
  afterAll(async () => {
    await server.close();
  });

  describe.each(allDrivers('http://placeholder').map((d) => [d.name] as const))('%s', (name) => {
    const driver = () => allDrivers(server.url).find((d) => d.name === name)!;
    const keyed = (key: string) =>
      allDrivers(server.url, { 'idempotency-key': key }).find((d) => d.name === name)!;

    it('the same messageId with different text makes a second task, and the agent runs again', async () => {
      const runs = counter.runs();
      const first = userText('first');
      const a = taskOf(await driver().send(first));
      const b = taskOf(await driver().send({ ...first, parts: [{ text: 'second' }] }));
      expect(b.id).not.toBe(a.id);
      expect(artifactText(a)).toBe('echo: first');
      expect(artifactText(b)).toBe('echo: second');
      expect(counter.runs() - runs).toBe(2);
    });

    it('the same message sent twice without a key makes two tasks', async () => {
      const message = userText('twice');
      const a = taskOf(await driver().send(message));
      const b = taskOf(await driver().send(message));
      expect(b.id).not.toBe(a.id);
      expect(b.status.state).toBe('TASK_STATE_COMPLETED');
    });

    it("a follow-up recycling the first message's messageId continues the task it names", async () => {
      const ask = userText('ask');
      const asked = taskOf(await driver().send(ask));
      expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const answer = userText('blue', {
        messageId: ask.messageId,
        taskId: asked.id,
        contextId: asked.contextId,
      });
      const done = taskOf(await driver().send(answer));
      expect(done.id).toBe(asked.id);
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
      expect(artifactText(done)).toBe('echo: blue');
      const history = ok(await driver().getTask(asked.id)).history ?? [];
      expect(history.filter((m) => m.messageId === ask.messageId && m.role === 'ROLE_USER')).toHaveLength(2);
    });

    it('a stream recycling a messageId starts a new task', async () => {
      const message = userText('stream 1');
      const idOf = (run: Awaited<ReturnType<ReturnType<typeof driver>['stream']>>): string => {
        const first = run.items[0]!.event;
        return 'task' in first ? first.task.id : 'statusUpdate' in first ? first.statusUpdate.taskId : '';
      };
      const a = await driver().stream(message);
      const b = await driver().stream(message);
      expect(a.error).toBeUndefined();
      expect(b.error).toBeUndefined();
      expect(idOf(b)).not.toBe(idOf(a));
    });

    it('a repeated Idempotency-Key is a retry: the first task, whatever messageId, the agent asked once', async () => {
      const client = keyed(crypto.randomUUID());
      const runs = counter.runs();
      const [a, b] = await Promise.all([client.send(userText('pay 10')), client.send(userText('pay 10'))]);
      const c = await client.send(userText('pay 10'));
      expect(taskOf(b).id).toBe(taskOf(a).id);
      expect(taskOf(c).id).toBe(taskOf(a).id);
      expect(counter.runs() - runs).toBe(1);
    });

    it('a repeated Idempotency-Key on other content is refused, not answered with the first task', async () => {
      const client = keyed(crypto.randomUUID());
      const runs = counter.runs();
      taskOf(await client.send(userText('pay 30')));
      const refused = await client.send(userText('pay 31'));
      expect(refused.ok).toBe(false);
      const error = refused.ok ? undefined : refused.error;
      expect(error).toMatchObject({ code: -32602 });
      expect(error?.violations[0]?.field).toBe('/message/parts');
      expect(counter.runs() - runs).toBe(1);
    });

    it("a key sent bare and as an RFC 8941 sf-string (as Concord's client sends it) is one key", async () => {
      const key = `k-${crypto.randomUUID()}`;
      const runs = counter.runs();
      const a = taskOf(await keyed(key).send(userText('pay 20')));
      const b = taskOf(await keyed(`"${key}"`).send(userText('pay 20')));
      const c = taskOf(await keyed(`"${key}x"`).send(userText('pay 20')));
      expect(b.id).toBe(a.id);
      expect(c.id).not.toBe(a.id);
      expect(counter.runs() - runs).toBe(2);
    });
  });

  for (const version of ['1.0', '0.3'] as const) {
    it(`gRPC ${version}: a recycled messageId makes a new task; a repeated idempotency-key does not`, async () => {
      const plain = grpcDriver(server.grpc!.target, version);
      const keyed = grpcDriver(server.grpc!.target, version, { 'idempotency-key': crypto.randomUUID() });
      try {
        const message = userText('over grpc');
        const a = taskOf(await plain.send(message));
        const b = taskOf(await plain.send({ ...message, parts: [{ text: 'other' }] }));
        expect(b.id).not.toBe(a.id);
        expect(artifactText(b)).toBe('echo: other');
        const k1 = taskOf(await keyed.send(userText('keyed')));
        const k2 = taskOf(await keyed.send(userText('keyed')));
        expect(k2.id).toBe(k1.id);
      } finally {
        plain.close?.();
        keyed.close?.();
      }
    });
  }
});

describe('direct Message replies to keyed sends', () => {
  let replies = 0;
  /** Answers every send with a Message numbered by how often it was asked. */
  const replier: AgentExecutor = {
    execute(context, updater) {
      replies++;
      const text = context.message.parts.map((p) => p.text ?? '').join(' ');
      updater.reply(`reply ${replies} to ${text}`);
    },
  };
  let plain: EchoServer;
  let optIn: EchoServer;
  beforeAll(async () => {
    plain = await startEcho({ executor: replier });
    optIn = await startEcho({ executor: replier, idempotency: { messageId: true } });
  });
  afterAll(async () => {
    await plain.close();
    await optIn.close();
  });

  const messageOf = (outcome: Awaited<ReturnType<ReturnType<typeof allDrivers>[0]['send']>>): Message => {
    const value = ok(outcome);
    if (!('message' in value)) throw new Error(`expected a message, got ${JSON.stringify(value)}`);
    return value.message;
  };

  it('a retry with the same Idempotency-Key gets the same reply, on every binding; the agent answers once', async () => {
    // One key per binding and version: each driver's first send is new.
    const drivers = [0, 1, 2, 3].map(
      (i) => allDrivers(plain.url, { 'idempotency-key': crypto.randomUUID() })[i]!,
    );
    for (const driver of drivers) {
      const before = replies;
      const message = userText('hello');
      const first = messageOf(await driver.send(message));
      const again = messageOf(await driver.send({ ...message, messageId: crypto.randomUUID() }));
      expect(again, driver.name).toEqual(first);
      const streamed = await driver.stream(message);
      const event = streamed.items[0]!.event;
      expect('message' in event && event.message.messageId, driver.name).toBe(first.messageId);
      expect(replies - before, driver.name).toBe(1);
      // The same key for a different message is refused, not answered with another's reply.
      const other = await driver.send(userText('something else'));
      expect(other.ok, driver.name).toBe(false);
      if (!other.ok) expect(other.error.message, driver.name).toContain('/message/parts');
    }
  });

  it('without a key every send is answered afresh', async () => {
    const driver = allDrivers(plain.url)[1]!;
    const message = userText('hello');
    const first = messageOf(await driver.send(message));
    const second = messageOf(await driver.send(message));
    expect(second.messageId).not.toBe(first.messageId);
  });

  it('on a server keyed by messageId, a repeated messageId gets the same reply', async () => {
    const driver = allDrivers(optIn.url)[0]!;
    const message = userText('hello');
    const first = messageOf(await driver.send(message));
    expect(messageOf(await driver.send(message))).toEqual(first);
    const other = await driver.send({ ...message, parts: [{ text: 'not the same' }] });
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.error.code).toBe(-32602);
  });
});
