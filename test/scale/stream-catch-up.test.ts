/**
 * A stream that falls behind its task is not cut off (src/server/task-run/task-streams.ts,
 * stream-log.ts; issue 27): the event hub drops its queue, and the stream reads what it missed from
 * the durable log a page at a time, then listens again. Before, the stream ended and the client had
 * to re-attach: over SSE with `Last-Event-ID`, over gRPC (no cursor) to the whole Task again.
 *
 * Falling behind is made certain rather than timed: the agent commits more events in one turn than
 * a subscriber may have queued (the hub's 10,000), so every live subscriber overflows at once.
 * Real sockets, real SQLite file and the memory store; the SSE stream is read raw, so a stream that
 * ended early shows as one, and the gRPC stream through Concord's client, where a re-attachment
 * shows as a second Task.
 */
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, CardCache } from '../../src/client/index.js';
import type { StreamResponse } from '../../src/protocol/index.js';
import type { AgentExecutor } from '../../src/server/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

/**
 * More than the hub's default `maxQueuedEvents` (10,000) in the agent's first turn, so they are
 * one commit; the last chunk and the completion come in later commits, which a stream cut off at
 * the first would never carry.
 */
const CHUNKS = 10_500;

const executor: AgentExecutor = {
  async execute(_ctx, updater) {
    updater.startWork();
    const chunk = (i: number) =>
      updater.addArtifact([{ text: `${i},` }], {
        artifactId: 'count',
        append: i > 0,
        lastChunk: i === CHUNKS - 1,
      });
    for (let i = 0; i < CHUNKS - 1; i++) chunk(i);
    await tick();
    chunk(CHUNKS - 1);
    await tick();
    updater.complete();
  },
};

/** The text the chunks add up to, in order. */
const expected = Array.from({ length: CHUNKS }, (_, i) => `${i},`).join('');

/** The artifact text and the final state the events carry; ids must rise one by one. */
function summarise(events: StreamResponse[]): { text: string; tasks: number; last: string | undefined } {
  let text = '';
  let tasks = 0;
  let last: string | undefined;
  for (const event of events) {
    if ('task' in event) tasks++;
    if ('artifactUpdate' in event) text += event.artifactUpdate.artifact.parts[0]!.text;
    if ('statusUpdate' in event) last = event.statusUpdate.status.state;
  }
  return { text, tasks, last };
}

const stores = [
  ['memory', false],
  ['sqlite', false],
  [`postgres${POSTGRES_SKIP_NOTE}`, POSTGRES_URL === undefined],
] as const;

describe.each(stores)('a stream that falls behind, on the %s store', (name, skip) => {
  const store = name.startsWith('postgres') ? 'postgres' : (name as 'memory' | 'sqlite');

  async function serve(grpc = false): Promise<EchoServer> {
    const server = await startEcho({ store, grpc, executor });
    cleanup.push(() => server.close());
    return server;
  }

  it.skipIf(skip)('carries every event to the end over one SSE response, each id once', async () => {
    const server = await serve();
    const response = await fetch(`${server.url}message:stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'count' }] },
      }),
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    const ids: number[] = [];
    const events: StreamResponse[] = [];
    for (const block of body.split('\n\n')) {
      const id = /^id: ?(\d+)$/m.exec(block);
      const data = /^data: ?(.*)$/m.exec(block);
      if (data === null) continue;
      if (id !== null) ids.push(Number(id[1]));
      events.push(JSON.parse(data[1]!) as StreamResponse);
    }
    // The Task, working, the chunks and completed: one response, no id skipped or repeated.
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    const seen = summarise(events);
    expect(seen.tasks).toBe(1);
    expect(seen.text).toBe(expected);
    expect(seen.last).toBe('TASK_STATE_COMPLETED');
  });

  it.skipIf(skip)('carries every event to the end over gRPC without re-attaching to the Task', async () => {
    const server = await serve(true);
    const client = await A2AClient.connect(server.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: ['GRPC'], versions: ['1.0'] },
    });
    cleanup.push(async () => client.close());
    const events: StreamResponse[] = [];
    for await (const event of client.sendStreamingMessage({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'count' }] },
    })) {
      events.push(event);
    }
    const seen = summarise(events);
    expect(seen.tasks).toBe(1);
    expect(seen.text).toBe(expected);
    expect(seen.last).toBe('TASK_STATE_COMPLETED');
  });
});
