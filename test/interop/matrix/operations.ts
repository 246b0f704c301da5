/**
 * The operations of the interop matrix (decision 0047), written once and run by every client row
 * against every server: the agent behind each server answers the same texts (the echo example's,
 * mirrored by helpers/sdk-server.ts): any text echoes, `stream <n>` streams n chunks, `ask` asks
 * for input, `wait` waits until canceled.
 */
import { expect } from 'vitest';
import type { ClientRow, Driver, NEvent, ServerUnderTest } from './driver.js';

/** One operation (a column of the matrix). */
export interface Operation {
  name: string;
  /** ListTasks exists in A2A 1.0 only (A2A 0.3 §7, `tasks/list`). */
  only10?: boolean;
  /** Driver members the operation needs; a client without them has no such cell. */
  needs?: (keyof Driver)[];
  run(driver: Driver, server: ServerUnderTest, row: ClientRow): Promise<void>;
}

const lastState = (events: NEvent[]) => {
  const last = events.at(-1);
  return last?.kind === 'status' || last?.kind === 'task' ? last.state : last?.kind;
};

/** A fresh push config id per call, so reruns against one server never collide. */
const hookId = () => `hook-${crypto.randomUUID().slice(0, 8)}`;

export const OPERATIONS: Operation[] = [
  {
    name: 'card',
    async run(driver, server) {
      const card = await driver.card();
      expect(card.name).toBe(server.name);
    },
  },
  {
    name: 'extended card',
    needs: ['extendedCard'],
    async run(driver, server) {
      const card = await driver.extendedCard!();
      expect(card.name).toBe(server.extendedName);
      expect(card.skills).toContain('secret');
    },
  },
  {
    name: 'send',
    async run(driver) {
      const task = await driver.send('hello interop');
      expect(task.state).toBe('completed');
      expect(task.texts).toEqual(['echo: hello interop']);
    },
  },
  {
    name: 'stream',
    async run(driver, _server, row) {
      const events = await driver.stream('stream 3');
      expect(events[0]?.kind).toBe('task');
      const chunks = events.flatMap((e) => (e.kind === 'artifact' ? [e] : []));
      expect(chunks.map((c) => c.text)).toEqual(['chunk 1 of 3\n', 'chunk 2 of 3\n', 'chunk 3 of 3\n']);
      expect(chunks.map((c) => c.lastChunk)).toEqual([false, false, true]);
      if (row.limits?.dropsAppend === undefined)
        expect(chunks.map((c) => c.append)).toEqual([false, true, true]);
      expect(lastState(events)).toBe('completed');
    },
  },
  {
    name: 'get',
    async run(driver) {
      const sent = await driver.send('keep this');
      const got = await driver.get(sent.id, 1);
      expect(got.id).toBe(sent.id);
      expect(got.state).toBe('completed');
      expect(got.texts).toEqual(['echo: keep this']);
      expect(got.historyLength).toBeLessThanOrEqual(1);
      await expect(driver.get('no-such-task')).rejects.toThrow(/not.?found/i);
    },
  },
  {
    name: 'list',
    only10: true,
    needs: ['list'],
    async run(driver) {
      const first = await driver.send('m0');
      const contextId = first.contextId;
      await driver.send('m1', { contextId });
      await driver.send('m2', { contextId });
      const page1 = await driver.list!(contextId, 2);
      expect(page1.ids).toHaveLength(2);
      expect(page1.totalSize).toBe(3);
      expect(page1.nextPageToken).not.toBe('');
      const page2 = await driver.list!(contextId, 2, page1.nextPageToken);
      expect(new Set([...page1.ids, ...page2.ids]).size).toBe(3);
      expect(page2.nextPageToken).toBe('');
    },
  },
  {
    name: 'cancel',
    async run(driver) {
      const task = await driver.send('wait', { returnImmediately: true });
      expect(['submitted', 'working']).toContain(task.state);
      const canceled = await driver.cancel(task.id);
      expect(canceled.id).toBe(task.id);
      expect(canceled.state).toBe('canceled');
      expect((await driver.get(task.id)).state).toBe('canceled');
    },
  },
  {
    name: 'cancel a finished task',
    async run(driver) {
      const done = await driver.send('done already');
      expect(done.state).toBe('completed');
      // TaskNotCancelableError (-32002; A2A 1.0 §3.1.5): a terminal task cannot be canceled.
      await expect(driver.cancel(done.id)).rejects.toThrow(/cancel/i);
    },
  },
  {
    name: 'resubscribe',
    async run(driver) {
      const task = await driver.send('wait', { returnImmediately: true });
      const events = await driver.resubscribe(task.id, async () => {
        await driver.cancel(task.id);
      });
      // SubscribeToTask starts with the task as it is (A2A 1.0 §3.1.6), then its updates.
      expect(events[0]).toMatchObject({ kind: 'task', id: task.id });
      expect(lastState(events)).toBe('canceled');
    },
  },
  {
    name: 'resubscribe to an unknown task',
    async run(driver) {
      // TaskNotFoundError on a streaming method: an SSE error event or a plain error answer.
      await expect(driver.resubscribe('no-such-task', async () => undefined)).rejects.toThrow(/not.?found/i);
    },
  },
  {
    name: 'input-required follow-up',
    async run(driver) {
      const asked = await driver.send('ask');
      expect(asked.state).toBe('input-required');
      const answered = await driver.send('the answer', { taskId: asked.id, contextId: asked.contextId });
      expect(answered.id).toBe(asked.id);
      expect(answered.state).toBe('completed');
      expect(answered.texts).toEqual(['echo: the answer']);
    },
  },
  {
    name: 'push-config CRUD',
    needs: ['pushCreate', 'pushGet', 'pushList', 'pushDelete'],
    async run(driver, server) {
      const task = await driver.send('wait', { returnImmediately: true });
      try {
        const id = hookId();
        const created = await driver.pushCreate!({
          taskId: task.id,
          id,
          url: server.webhookUrl,
          token: 't-1',
        });
        expect(created).toMatchObject({ taskId: task.id, id, url: server.webhookUrl });
        expect(await driver.pushGet!(task.id, id)).toMatchObject({
          taskId: task.id,
          id,
          url: server.webhookUrl,
        });
        const listed = await driver.pushList!(task.id);
        expect(listed.map((c) => c.id)).toEqual([id]);
        await driver.pushDelete!(task.id, id);
        expect(await driver.pushList!(task.id)).toEqual([]);
        await expect(driver.pushGet!(task.id, id)).rejects.toThrow();
      } finally {
        await driver.cancel(task.id).catch(() => undefined);
      }
    },
  },
  {
    name: 'push-config without an id',
    needs: ['pushCreate', 'pushGet', 'pushList', 'pushDelete'],
    async run(driver, server) {
      const task = await driver.send('wait', { returnImmediately: true });
      try {
        // The id is optional on create; the server assigns one (A2A 1.0 §3.1.7).
        const created = await driver.pushCreate!({ taskId: task.id, id: '', url: server.webhookUrl });
        expect(created.id).not.toBe('');
        expect(created).toMatchObject({ taskId: task.id, url: server.webhookUrl });
        expect((await driver.pushGet!(task.id, created.id)).url).toBe(server.webhookUrl);
        expect((await driver.pushList!(task.id)).map((c) => c.id)).toEqual([created.id]);
        await driver.pushDelete!(task.id, created.id);
        expect(await driver.pushList!(task.id)).toEqual([]);
      } finally {
        await driver.cancel(task.id).catch(() => undefined);
      }
    },
  },
  {
    name: 'push config given with the send',
    needs: ['sendsPush', 'pushList'],
    async run(driver, server, row) {
      const token = `inline-${crypto.randomUUID()}`;
      const task = await driver.send('wait', {
        returnImmediately: true,
        push: { url: server.webhookUrl, token },
      });
      const listed = await driver.pushList!(task.id);
      expect(listed.map((c) => c.url)).toEqual([server.webhookUrl]);
      await driver.cancel(task.id);
      const delivered = await server.waitForPush(task.id, 'canceled');
      expect(delivered.token).toBe(token);
      expect(delivered.body).toMatch(
        row.version === '1.0' ? /"TASK_STATE_CANCELED"/ : /"state":\s*"canceled"/,
      );
    },
  },
  {
    name: 'push delivered',
    needs: ['pushCreate'],
    async run(driver, server, row) {
      const task = await driver.send('wait', { returnImmediately: true });
      const token = `token-${task.id}`;
      await driver.pushCreate!({ taskId: task.id, id: hookId(), url: server.webhookUrl, token });
      await driver.cancel(task.id);
      const delivered = await server.waitForPush(task.id, 'canceled');
      expect(delivered.token).toBe(token);
      // The body speaks the version the config was created in: a 1.0 StreamResponse
      // (`TASK_STATE_CANCELED`, A2A 1.0 §4.3.3) or a 0.3 Task (`"canceled"`, A2A 0.3 §9.5).
      expect(delivered.body).toMatch(
        row.version === '1.0' ? /"TASK_STATE_CANCELED"/ : /"state":\s*"canceled"/,
      );
    },
  },
];
