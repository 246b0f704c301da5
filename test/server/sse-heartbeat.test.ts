/**
 * SSE heartbeats on long idle streams (decision 0161; docs/performance.md, 'Streams'). A stream
 * waiting for its task's next event sends a keep-alive comment each interval; however many it
 * sends, the pending read of the next event is reacted to once (a per-tick `Promise.race` kept a
 * reaction per heartbeat alive until the event came), and the stream still delivers every later
 * event in order and ends when the task does. Over real sockets, with a task that waits for the
 * test; counts, not timings, decide when to go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2AServer } from '../../src/server/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { sseBody } from '../../src/server/http/sse-body.js';
import type { StreamItem } from '../../src/server/task-run/task-streams.js';
import type { TaskUpdater } from '../../src/server/task-run/task-updater.js';
import { SseDecoder, type SseEvent } from '../../src/protocol/internal.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
import { restDriver, taskOf, userText } from '../helpers/drivers.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

/** A promise that counts the reactions added to it. */
class CountingPromise<T> extends Promise<T> {
  static thens = 0;
  override then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    CountingPromise.thens++;
    return super.then(onFulfilled, onRejected);
  }
}

describe('sseBody', () => {
  it('reacts once to a pending next() however many heartbeats pass', async () => {
    let release: (result: IteratorResult<StreamItem>) => void = () => undefined;
    const parked = new CountingPromise<IteratorResult<StreamItem>>((resolve) => (release = resolve));
    let calls = 0;
    const items: AsyncIterable<StreamItem> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          calls++;
          return calls === 1 ? parked : Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    const body = sseBody(items, { heartbeatMs: 1, encode: (i) => `event ${i.id}\n\n`, encodeError: String });
    const chunks: string[] = [];
    for (let i = 0; i < 25; i++) chunks.push((await body.next()).value as string);
    expect(chunks.every((c) => c === ': keep-alive\n\n')).toBe(true);
    const thensWhileIdle = CountingPromise.thens;
    release({ done: false, value: { id: '7', event: { message: userText('late') } } });
    expect((await body.next()).value).toBe('event 7\n\n');
    expect((await body.next()).done).toBe(true);
    expect(thensWhileIdle).toBe(1);
  });
});

describe('a stream idle across many heartbeats', () => {
  let running: RunningServer;
  const parked = new Map<string, { updater: TaskUpdater; done: () => void }>();
  beforeAll(async () => {
    const server = createA2AServer({
      agentCard: echo.agentCard,
      heartbeatMs: 2,
      store: createMemoryTaskStore(),
      executor: {
        execute: (ctx, updater) =>
          new Promise<void>((done) => {
            updater.startWork();
            parked.set(ctx.taskId, { updater, done });
          }),
      },
    });
    running = await listen(server, { port: 0 });
  });
  afterAll(async () => {
    await running.close();
  });

  it('sends keep-alives while idle, then every later event in order, and ends with the task', async () => {
    const driver = restDriver(running.url, '1.0');
    const task = taskOf(await driver.send(userText('wait'), { returnImmediately: true }));
    const response = await fetch(`${running.url}tasks/${task.id}:subscribe`, {
      method: 'POST',
      headers: { 'a2a-version': '1.0' },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const text = new TextDecoder();
    const decoder = new SseDecoder();
    const events: SseEvent[] = [];
    let raw = '';
    const readUntil = async (done: () => boolean): Promise<boolean> => {
      while (!done()) {
        const chunk = await reader.read();
        if (chunk.done) return false;
        const part = text.decode(chunk.value, { stream: true });
        raw += part;
        events.push(...decoder.push(part));
      }
      return true;
    };
    const keepAlives = (): number => raw.split(': keep-alive').length - 1;

    expect(await readUntil(() => keepAlives() >= 50)).toBe(true);
    const idleEvents = events.length;
    const { updater, done } = parked.get(task.id)!;
    for (let i = 1; i <= 3; i++) updater.updateStatus('TASK_STATE_WORKING', `step ${i}`);
    updater.complete();
    done();
    expect(await readUntil(() => false)).toBe(false);

    const items = events.map((e) => ({
      id: Number(e.id),
      event: JSON.parse(e.data) as {
        task?: unknown;
        statusUpdate?: { status: { state: string; message?: { parts: { text: string }[] } } };
      },
    }));
    // The Task first (the only event while idle), then the live events, ids increasing.
    expect(idleEvents).toBe(1);
    expect(items[0]!.event.task).toBeDefined();
    const live = items.slice(1).map((i) => i.event.statusUpdate!.status);
    expect(live.map((s) => s.message?.parts[0]?.text ?? s.state)).toEqual([
      'step 1',
      'step 2',
      'step 3',
      'TASK_STATE_COMPLETED',
    ]);
    const ids = items.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
