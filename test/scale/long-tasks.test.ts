/**
 * The large paths of issue 27 (long tasks, large artifacts), checked for correctness at small sizes;
 * their sizes and timings live in the benchmark (bench/scale/long-tasks.mjs, artifacts.mjs). Real
 * sockets, a real SQLite file, Concord's own client:
 *  - an artifact streamed in many appended chunks arrives byte-identical over SSE and over gRPC,
 *    and GetTask afterwards carries the same bytes (A2A 1.0 §4.2.2 `append`);
 *  - SubscribeToTask with `Last-Event-ID` in the middle of a task of hundreds of events replays
 *    exactly the events after the cursor, in order (A2A 1.0 §3.1.6), on every store;
 *  - GetTask with `historyLength` returns exactly the last N history messages (§3.1.3);
 *  - a task whose history outgrows the SQLite or PostgreSQL store's split is committed with only
 *    its newer messages (TaskCommit.historyFrom), and every answer still holds its whole history.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setImmediate as tick } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { A2AClient, CardCache, type TransportPreference } from '../../src/client/index.js';
import type { Message, StreamResponse, Task } from '../../src/protocol/index.js';
import type { AgentExecutor } from '../../src/server/index.js';
import type { TaskCommit, TaskStore } from '../../src/store/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

function userMessage(text: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
}

async function serve(
  executor: AgentExecutor,
  store: 'memory' | 'sqlite' | 'postgres',
  grpc = false,
): Promise<EchoServer> {
  const server = await startEcho({ store, grpc, executor });
  cleanup.push(() => server.close());
  return server;
}

async function connect(server: EchoServer, prefer: TransportPreference): Promise<A2AClient> {
  const client = await A2AClient.connect(server.url, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
    prefer,
  });
  cleanup.push(async () => client.close());
  return client;
}

const sha256 = (buffers: Iterable<Buffer>): string => {
  const hash = createHash('sha256');
  for (const b of buffers) hash.update(b);
  return hash.digest('hex');
};

describe('an artifact streamed in many chunks', () => {
  // 48 chunks of 24 KiB: uneven against the 16 KiB and 64 KiB reads of the sockets underneath.
  const chunks = Array.from({ length: 48 }, () => randomBytes(24 * 1024));
  const expected = sha256(chunks);
  const executor: AgentExecutor = {
    async execute(_ctx, updater) {
      updater.startWork();
      for (let i = 0; i < chunks.length; i++) {
        updater.addArtifact([{ raw: chunks[i]!.toString('base64'), mediaType: 'application/octet-stream' }], {
          artifactId: 'blob',
          name: 'blob.bin',
          append: i > 0,
          lastChunk: i === chunks.length - 1,
        });
        // One commit per chunk, as an agent producing the bytes over time sends them.
        await tick();
      }
      updater.complete();
    },
  };

  it.each([
    ['HTTP+JSON (SSE)', { bindings: ['HTTP+JSON'], versions: ['1.0'] }],
    ['JSON-RPC (SSE)', { bindings: ['JSONRPC'], versions: ['1.0'] }],
    ['gRPC', { bindings: ['GRPC'], versions: ['1.0'] }],
  ] as const)('arrives byte-identical over %s, and GetTask returns the same bytes', async (_name, prefer) => {
    const server = await serve(executor, 'sqlite', true);
    const client = await connect(server, prefer);
    const received: Buffer[] = [];
    let taskId = '';
    let appends = 0;
    for await (const event of client.sendStreamingMessage({ message: userMessage('send the blob') })) {
      if ('task' in event) taskId = event.task.id;
      if (!('artifactUpdate' in event)) continue;
      const update = event.artifactUpdate;
      expect(update.artifact.artifactId).toBe('blob');
      if (update.append === true) appends++;
      for (const part of update.artifact.parts) received.push(Buffer.from(part.raw!, 'base64'));
    }
    expect(received).toHaveLength(chunks.length);
    expect(appends).toBe(chunks.length - 1);
    expect(sha256(received)).toBe(expected);

    const task = await client.getTask({ id: taskId });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toHaveLength(1);
    const stored = task.artifacts![0]!.parts.map((part) => Buffer.from(part.raw!, 'base64'));
    expect(stored).toHaveLength(chunks.length);
    expect(sha256(stored)).toBe(expected);
  });

  // Past the SQLite store's split (decision 0164) the server lets go of the parts it committed; a
  // blocking send's answer, the task read back, must still carry every byte.
  it.each(['sqlite', 'memory'] as const)(
    'is whole in the answer of a blocking send (%s store)',
    async (store) => {
      const server = await serve(executor, store);
      const client = await connect(server, { bindings: ['HTTP+JSON'], versions: ['1.0'] });
      const answer = await client.sendMessage({ message: userMessage('send the blob') });
      expect('task' in answer).toBe(true);
      const task = (answer as { task: Task }).task;
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      const parts = task.artifacts![0]!.parts.map((part) => Buffer.from(part.raw!, 'base64'));
      expect(parts).toHaveLength(chunks.length);
      expect(sha256(parts)).toBe(expected);
    },
  );
});

/** An agent that emits `count` events, one commit each, and then stays working until released. */
function longAgent(count: number): { executor: AgentExecutor; release: () => void } {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const executor: AgentExecutor = {
    async execute(_ctx, updater) {
      for (let i = 1; i <= count; i++) {
        if (i % 3 === 0) {
          updater.addArtifact([{ text: `chunk ${i}` }], { artifactId: 'log', append: i > 3 });
        } else {
          updater.updateStatus('TASK_STATE_WORKING', `step ${i}`);
        }
        await tick();
      }
      // Left working, so it can be subscribed to; released (and completed) when the test ends.
      await held;
      updater.complete();
    },
  };
  return { executor, release };
}

/** Waits until the task's newest history message is `text` (the agent's last status is durable). */
async function waitForStatus(client: A2AClient, id: string, text: string): Promise<Task> {
  for (;;) {
    const task = await client.getTask({ id, historyLength: 1 });
    if (task.history?.at(-1)?.parts[0]?.text === text) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Releases the agent and waits for its task to complete, so the server closes with nothing running. */
async function finish(client: A2AClient, id: string, release: () => void): Promise<void> {
  release();
  while ((await client.getTask({ id, historyLength: 0 })).status.state !== 'TASK_STATE_COMPLETED') {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const EVENTS = 300;
const stores = [
  ['memory', false],
  ['sqlite', false],
  [`postgres${POSTGRES_SKIP_NOTE}`, POSTGRES_URL === undefined],
] as const;

describe.each(stores)('a long task on the %s store', (name, skip) => {
  const store = name.startsWith('postgres') ? 'postgres' : (name as 'memory' | 'sqlite');

  it.skipIf(skip)(
    'resubscribed from a cursor in its middle replays exactly the events after it',
    async () => {
      const agent = longAgent(EVENTS);
      const server = await serve(agent.executor, store);
      const client = await connect(server, { bindings: ['HTTP+JSON'], versions: ['1.0'] });
      const sent = await client.sendMessage({
        message: userMessage('work long'),
        configuration: { returnImmediately: true },
      });
      const id = (sent as { task: Task }).task.id;
      cleanup.push(() => finish(client, id, agent.release));
      // The last event is status `step 299` (300 is an artifact chunk): wait for both.
      await waitForStatus(client, id, `step ${EVENTS - 1}`);
      const scope = { tenant: '', owner: '' };
      let log = await server.store.readEvents(id, 0, scope);
      while (log.length < EVENTS + 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        log = await server.store.readEvents(id, 0, scope);
      }
      // The Task event, then the agent's 300: 301 events; a cursor well inside them.
      const cursor = 137;
      const after = log.filter((r) => r.seq > cursor);
      expect(after.map((r) => r.seq)).toEqual(
        Array.from({ length: log.length - cursor }, (_, i) => cursor + 1 + i),
      );

      const replayed: StreamResponse[] = [];
      for await (const event of client.subscribeToTask({ id }, { lastEventId: String(cursor) })) {
        replayed.push(event);
        if (replayed.length === after.length) break;
      }
      expect(replayed).toEqual(after.map((r) => r.event));
      // Spot checks that do not lean on the log: the first replayed is event 138 (`step 137`), the
      // last the agent's last chunk.
      expect(
        (replayed[0] as { statusUpdate: { status: { message: Message } } }).statusUpdate.status.message
          .parts[0]!.text,
      ).toBe('step 137');
      expect(
        (replayed.at(-1) as { artifactUpdate: { artifact: { parts: { text: string }[] } } }).artifactUpdate
          .artifact.parts[0]!.text,
      ).toBe(`chunk ${EVENTS}`);
    },
  );

  it.skipIf(skip)('GetTask with historyLength returns exactly its last N history messages', async () => {
    const agent = longAgent(EVENTS);
    const server = await serve(agent.executor, store);
    const client = await connect(server, { bindings: ['JSONRPC'], versions: ['1.0'] });
    const sent = await client.sendMessage({
      message: userMessage('work long'),
      configuration: { returnImmediately: true },
    });
    const id = (sent as { task: Task }).task.id;
    cleanup.push(() => finish(client, id, agent.release));
    await waitForStatus(client, id, `step ${EVENTS - 1}`);
    const whole = await client.getTask({ id });
    // The user's message, then the agent's 200 status messages (every event but each third).
    const statusSteps = Array.from({ length: EVENTS }, (_, i) => i + 1).filter((i) => i % 3 !== 0);
    expect(whole.history!.map((m) => m.parts[0]!.text)).toEqual([
      'work long',
      ...statusSteps.map((i) => `step ${i}`),
    ]);
    for (const n of [1, 10, 57]) {
      const windowed = await client.getTask({ id, historyLength: n });
      expect(windowed.history).toEqual(whole.history!.slice(-n));
      expect(windowed.status).toEqual(whole.status);
      expect(windowed.artifacts).toEqual(whole.artifacts);
    }
    // A window wider than the history is the whole history.
    expect((await client.getTask({ id, historyLength: 5000 })).history).toEqual(whole.history);
  });
});

const splitting = [
  ['sqlite', false],
  [`postgres${POSTGRES_SKIP_NOTE}`, POSTGRES_URL === undefined],
] as const;

describe.each(splitting)('a task whose history outgrows the split (%s)', (name, skip) => {
  const store = name.startsWith('postgres') ? 'postgres' : 'sqlite';
  // 150 messages of 600 characters: about 100 KB of history, past SPLIT_BYTES (decision 0164).
  const text = (run: string, i: number) => `${run} ${i} ${'·'.repeat(600)}`;
  // The store the agent's server commits to, so each status can wait for its own commit: the
  // commits are then one per status on any store, however fast its round trips.
  let committedTo: TaskStore | undefined;
  const committed = async (taskId: string, last: string): Promise<void> => {
    for (;;) {
      const stored = await committedTo!.get(taskId, { tenant: '', owner: '' }, { historyLength: 1 });
      if (stored?.task.history?.at(-1)?.parts[0]?.text === last) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const executor: AgentExecutor = {
    async execute(ctx, updater) {
      const run = ctx.task === undefined ? 'first' : 'second';
      const count = run === 'first' ? 150 : 40;
      for (let i = 0; i < count; i++) {
        updater.updateStatus('TASK_STATE_WORKING', text(run, i));
        await committed(ctx.taskId, text(run, i));
      }
      if (run === 'first') updater.requireInput('more?');
      else updater.complete('done');
    },
  };

  it.skipIf(skip)(
    'commits only the newer messages once split, and answers with the whole history',
    async () => {
      const server = await serve(executor, store);
      committedTo = server.store;
      const commits: TaskCommit[] = [];
      const commit = server.store.commit.bind(server.store);
      vi.spyOn(server.store, 'commit').mockImplementation((c: TaskCommit) => {
        commits.push(c);
        return commit(c);
      });
      const client = await connect(server, { bindings: ['HTTP+JSON'], versions: ['1.0'] });
      const first = (await client.sendMessage({ message: userMessage('start') })) as { task: Task };
      expect(first.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const id = first.task.id;
      const streamed: StreamResponse[] = [];
      for await (const event of client.sendStreamingMessage({
        message: { ...userMessage('go on'), taskId: id, contextId: first.task.contextId },
      })) {
        streamed.push(event);
      }
      const expected = [
        'start',
        ...Array.from({ length: 150 }, (_, i) => text('first', i)),
        'more?',
        'go on',
        ...Array.from({ length: 40 }, (_, i) => text('second', i)),
        'done',
      ];
      const whole = await client.getTask({ id });
      expect(whole.history!.map((m) => m.parts[0]!.text)).toEqual(expected);
      expect(whole.status.state).toBe('TASK_STATE_COMPLETED');
      // The stream: the task as it was, then each status in order.
      const statuses = streamed.flatMap((e) =>
        'statusUpdate' in e && e.statusUpdate.status.message
          ? [e.statusUpdate.status.message.parts[0]!.text]
          : [],
      );
      expect(statuses).toEqual(expected.slice(152 + 1));
      expect((streamed[0] as { task: Task }).task.history).toHaveLength(152);
      // Later commits carried a message or two, not the whole history.
      const partial = commits.filter((c) => (c.historyFrom ?? 0) > 0);
      expect(partial.length).toBeGreaterThan(20);
      for (const c of partial) expect(c.task.history?.length ?? 0).toBeLessThanOrEqual(3);
      expect(server.errors).toEqual([]);
    },
  );
});
