/**
 * A listener's shutdown while a stream's agent is still emitting (issue 27). The shutdown ends each
 * open stream (`res.end()`, the client resumes with Last-Event-ID); the response is destroyed only
 * once its socket lets go, and an event reaching the stream in between must not be written after
 * the end: node reports that as an 'error' on the response, which nobody listens to, so it became
 * an uncaught exception that ends the process. Real sockets, the node adapter, and an agent that
 * emits an event just after the shutdown began.
 */
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AServer, type A2AServer, type AgentExecutor, type HttpApp } from '../../src/server/index.js';
import { listen } from '../../src/server/adapters/node.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

const uncaught: unknown[] = [];
const onUncaught = (error: unknown): void => {
  uncaught.push(error);
};
afterEach(() => {
  process.off('uncaughtException', onUncaught);
});

/**
 * Emits a working status, then one more each time it is nudged, until the server's close aborts
 * the task: a nudge right after the shutdown began puts an event on its way to the ended streams.
 */
function nudgedAgent(): { executor: AgentExecutor; nudge: () => void; emitted: () => number } {
  let emitted = 0;
  let wake = (): void => undefined;
  const executor: AgentExecutor = {
    async execute(context, updater) {
      updater.startWork();
      while (!context.signal.aborted) {
        updater.updateStatus('TASK_STATE_WORKING', `step ${++emitted}`);
        await new Promise<void>((resolve) => {
          const previous = wake;
          wake = () => {
            previous();
            resolve();
          };
          context.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    },
  };
  return {
    executor,
    nudge: () => {
      const woken = wake;
      wake = () => undefined;
      woken();
    },
    emitted: () => emitted,
  };
}

/**
 * The A2A server as the listener sees it, with each stream's event source counted when the adapter
 * closes it: a stream that stops writing must still release the task subscription behind it.
 */
function countingClosedStreams(a2a: A2AServer): { app: HttpApp; closed: () => number } {
  let closed = 0;
  const app: HttpApp = {
    maxBodyBytes: a2a.maxBodyBytes,
    setBaseUrl: (url) => a2a.setBaseUrl(url),
    close: () => a2a.close(),
    refusal: (error, request) => a2a.refusal(error, request),
    async handle(request) {
      const response = await a2a.handle(request);
      if (!('stream' in response)) return response;
      const source = response.stream[Symbol.asyncIterator]();
      const stream: AsyncIterable<string> = {
        [Symbol.asyncIterator]: () => ({
          next: () => source.next(),
          return: async (value?: unknown) => {
            closed++;
            return (await source.return?.(value)) ?? { done: true, value: undefined };
          },
        }),
      };
      return { ...response, stream };
    },
  };
  return { app, closed: () => closed };
}

/** Opens a streaming send and resolves with the reader once `count` events have arrived. */
async function openStream(url: string, count: number) {
  const response = await fetch(`${url}message:stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'go' }] },
    }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while ((text.match(/\n\n/g)?.length ?? 0) < count) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before the shutdown');
    text += value;
  }
  return reader;
}

describe('shutting a listener down under open streams whose agents keep emitting', () => {
  it('ends every stream and closes without writing after the end (no uncaught exception)', async () => {
    process.on('uncaughtException', onUncaught);
    const agent = nudgedAgent();
    const a2a = createA2AServer({
      agentCard: echo.agentCard,
      executor: agent.executor,
      store: createMemoryTaskStore(),
    });
    const counted = countingClosedStreams(a2a);
    const server = await listen(counted.app, { port: 0 });
    // Several streams, so events reach some of them between the shutdown's end and their close.
    const readers = await Promise.all([1, 2, 3, 4].map(() => openStream(server.url, 2)));
    const before = agent.emitted();

    const reads = readers.map(async (reader) => {
      for (;;) if ((await reader.read()).done) return;
    });
    const closed = server.close();
    // The shutdown has ended the streams (synchronously); their responses are not destroyed yet.
    agent.nudge();
    await closed;
    // Each stream was ended by the shutdown (the agents never finish on their own).
    await Promise.all(reads);
    expect(agent.emitted()).toBeGreaterThan(before);
    // Every stream's source was closed, though its last event was never written.
    expect(counted.closed()).toBe(readers.length);
    // Turns for any write-after-end error node would report on the next tick.
    for (let i = 0; i < 20; i++) await tick();
    expect(uncaught).toEqual([]);
  });
});
