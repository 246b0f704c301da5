/**
 * Two instances in one process, over one memory store and the in-process bus: the cluster logic
 * (followers, gap fill, cancel routing, the sweeper) through real sockets, without a database.
 * The same behaviours run against PostgreSQL and Redis with two child processes in
 * two-instances.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createA2AServer,
  createCluster,
  createMemoryBusNetwork,
  stoppedInstanceText,
  type AgentExecutor,
  type Cluster,
  type ClusterBus,
  type ClusterMessage,
  type OrphanPolicy,
} from '../../src/server/internal.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { createMemoryTaskStore, type TaskStore } from '../../src/store/index.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';
import { cancel, chunks, eventually, getTask, sendText, stateOf, subscribe } from '../helpers/a2a-http.js';

interface Instance {
  url: string;
  cluster: Cluster;
  running: RunningServer;
  errors: unknown[];
}

let opened: Instance[] = [];

interface Settings {
  instanceTtlMs?: number;
  recheckMs?: number;
  cancelTimeoutMs?: number;
  orphans?: OrphanPolicy;
  /** Replaces the bus (a test double around the network's). */
  bus?: ClusterBus;
  /** Replaces the echo executor. */
  executor?: AgentExecutor;
}

async function instance(
  store: TaskStore,
  network: ReturnType<typeof createMemoryBusNetwork>,
  settings: Settings = {},
): Promise<Instance> {
  const errors: unknown[] = [];
  const { bus, executor, ...rest } = settings;
  const cluster = createCluster({ bus: bus ?? network.bus(), ...rest, onError: (e) => errors.push(e) });
  await cluster.ready;
  const server = createA2AServer({
    agentCard: echo.agentCard,
    executor: executor ?? (echo.executor as AgentExecutor),
    store,
    cluster,
    onError: (error) => errors.push(error),
  });
  const running = await listen(server, { port: 0 });
  const made = { url: running.url, cluster, running, errors };
  opened.push(made);
  return made;
}

/** A bus that never hands messages of one type to its instance (alive, but deaf to them). */
function deafTo(type: ClusterMessage['type'], bus: ClusterBus): ClusterBus {
  return new Proxy(bus, {
    get(target, property) {
      if (property === 'open') {
        return (listener: Parameters<ClusterBus['open']>[0]) =>
          target.open({
            ...listener,
            message: (message) => {
              if (message.type !== type) listener.message(message);
            },
          });
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A bus whose instance can be told it reconnected, as after its Redis or PostgreSQL came back. */
function reconnectable(bus: ClusterBus): { bus: ClusterBus; reconnect: () => void } {
  let listener: Parameters<ClusterBus['open']>[0] | undefined;
  const wrapped = new Proxy(bus, {
    get(target, property) {
      if (property === 'open') {
        return (opened: Parameters<ClusterBus['open']>[0]) => {
          listener = opened;
          return target.open(opened);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { bus: wrapped, reconnect: () => listener?.reconnected() };
}

/** An agent that starts work and then never says anything again, as in a process that died. */
const stalled: AgentExecutor = {
  execute(_context, updater) {
    updater.startWork('working');
    return new Promise(() => undefined);
  },
};

afterEach(async () => {
  for (const { running, cluster } of opened) {
    await running.close().catch(() => undefined);
    await cluster.close();
  }
  opened = [];
});

describe('two instances on one memory store and the in-process bus', () => {
  it('streams a task running on A from B, every event in order with its id', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network);
    const b = await instance(store, network);
    const task = await sendText(a.url, 'stream 5');
    const read = await subscribe(b.url, task.id);
    expect(read.status).toBe(200);
    expect(read.closedByServer).toBe(true);
    const ids = read.events.map((event) => Number(event.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe(ids[0]! + i);
    expect(stateOf(read.events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    // The first event is the task as B read it; every chunk after it arrives live from A.
    const all = await subscribe(b.url, task.id, { lastEventId: '0' });
    expect(chunks(all.events)).toEqual([1, 2, 3, 4, 5].map((i) => `chunk ${i} of 5\n`));
    expect(all.events.map((event) => Number(event.id))).toEqual(all.events.map((_, i) => i + 1));
    expect(all.events.slice(-read.events.length + 1).map((e) => e.id)).toEqual(
      read.events.slice(1).map((e) => e.id),
    );
  });

  it('resumes on B with Last-Event-ID from a stream that was cut on A', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network);
    const b = await instance(store, network);
    const task = await sendText(a.url, 'stream 5');
    const first = await subscribe(a.url, task.id, { stopAfter: 3 });
    const lastId = first.events.at(-1)!.id!;
    const rest = await subscribe(b.url, task.id, { lastEventId: lastId });
    const ids = [...first.events, ...rest.events].map((event) => Number(event.id));
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    expect(stateOf(rest.events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
  });

  it('loses nothing when every announcement is lost: the re-check reads the log', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network);
    const b = await instance(store, network, { bus: deafTo('committed', network.bus()), recheckMs: 150 });
    const task = await sendText(a.url, 'stream 5');
    const started = Date.now();
    const live = await subscribe(b.url, task.id);
    expect(stateOf(live.events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    // A's agent streams for 0.5 s; B kept up by re-reading every 150 ms (the default is 5 s).
    expect(Date.now() - started).toBeLessThan(2_500);
    const ids = live.events.map((event) => Number(event.id));
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    const log = await subscribe(b.url, task.id, { lastEventId: '0' });
    expect(live.events.slice(1)).toEqual(log.events.slice(ids[0]!));
  });

  it('cancels through B a task whose agent runs on A', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network);
    const b = await instance(store, network, { cancelTimeoutMs: 10_000 });
    const task = await sendText(a.url, 'wait');
    const watching = subscribe(a.url, task.id);
    const started = Date.now();
    const canceled = await cancel(b.url, task.id);
    expect(canceled.status).toBe(200);
    expect((canceled.body as { status: { state: string } }).status.state).toBe('TASK_STATE_CANCELED');
    // A's agent heard it: the answer came long before B would have committed on its own.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await getTask(a.url, task.id)).task.status.state).toBe('TASK_STATE_CANCELED');
    const stream = await watching;
    expect(stateOf(stream.events.at(-1)!)).toBe('TASK_STATE_CANCELED');
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('cancels from B itself when A does not answer in time', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network, { bus: deafTo('cancel', network.bus()) });
    const b = await instance(store, network, { cancelTimeoutMs: 300 });
    const task = await sendText(a.url, 'wait');
    const canceled = await cancel(b.url, task.id);
    expect(canceled.status).toBe(200);
    expect((canceled.body as { status: { state: string } }).status.state).toBe('TASK_STATE_CANCELED');
    // A's agent learns it at its next commit attempt; A's readers see the canceled task already.
    expect((await getTask(a.url, task.id)).task.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('cancels from B at once when A answers that it does not run the task', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network);
    const b = await instance(store, network, { cancelTimeoutMs: 10_000 });
    // A task no executor runs (waiting for input), with a stale record saying A runs it: as when
    // A's run ended while B's request travelled.
    const asking = await sendText(a.url, 'ask', false);
    expect(asking.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await network
      .bus()
      .recordRun({ agent: '', taskId: asking.id, instanceId: a.cluster.instanceId, tenant: '', owner: '' });
    const started = Date.now();
    const canceled = await cancel(b.url, asking.id);
    expect(canceled.status).toBe(200);
    expect((canceled.body as { status: { state: string } }).status.state).toBe('TASK_STATE_CANCELED');
    // A declined, so B committed without waiting out its 10 s bound.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  }, 20_000);

  it('fails the running tasks of an instance that stopped, with the reason, once', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network, { instanceTtlMs: 400 });
    const b = await instance(store, network, { instanceTtlMs: 400 });
    const waiting = await sendText(a.url, 'wait');
    const asking = await sendText(a.url, 'ask');
    const done = await sendText(a.url, 'hello', false);
    // A's heartbeat stops, as when its process dies; its agent is left running.
    await a.cluster.close();
    const failed = await eventually(
      () => getTask(b.url, waiting.id),
      (read) => read.task.status.state === 'TASK_STATE_FAILED',
    );
    expect(failed.task.status.message?.parts[0]?.text).toBe(stoppedInstanceText(a.cluster.instanceId));
    // A task waiting for its client and a finished one are left as they were.
    expect((await getTask(b.url, asking.id)).task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await getTask(b.url, done.id)).task.status.state).toBe('TASK_STATE_COMPLETED');
    const events = await subscribe(b.url, waiting.id, { lastEventId: '0' });
    expect(events.events.filter((e) => stateOf(e) === 'TASK_STATE_FAILED')).toHaveLength(1);
  });

  it('records its live runs again after a reconnect, so a registry that lost them still leads to them', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const registry = network.bus();
    const aBus = reconnectable(network.bus());
    const a = await instance(store, network, { instanceTtlMs: 400, bus: aBus.bus });
    const b = await instance(store, network, { instanceTtlMs: 400 });
    const waiting = await sendText(a.url, 'wait');
    await eventually(
      () => registry.runnerOf('', waiting.id),
      (runner) => runner?.instanceId === a.cluster.instanceId,
    );
    // The bus's state is lost (a Redis restart without persistence), then A hears it reconnected.
    await registry.removeRun('', waiting.id, a.cluster.instanceId);
    expect(await registry.runnerOf('', waiting.id)).toBeUndefined();
    aBus.reconnect();
    await eventually(
      () => registry.runnerOf('', waiting.id),
      (runner) => runner?.instanceId === a.cluster.instanceId,
    );
    // So when A dies, B finds the run and settles the task.
    await a.cluster.close();
    const failed = await eventually(
      () => getTask(b.url, waiting.id),
      (read) => read.task.status.state === 'TASK_STATE_FAILED',
    );
    expect(failed.task.status.message?.parts[0]?.text).toBe(stoppedInstanceText(a.cluster.instanceId));
  });

  it('resumes the running tasks of a stopped instance on a live one when asked to', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    const a = await instance(store, network, { instanceTtlMs: 400, executor: stalled });
    const b = await instance(store, network, { instanceTtlMs: 400, orphans: 'resume' });
    const task = await sendText(a.url, 'stream 3');
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    await a.cluster.close();
    // B runs its executor again with the task's last user message: the stream happens there.
    const done = await eventually(
      () => getTask(b.url, task.id),
      (read) => read.task.status.state === 'TASK_STATE_COMPLETED',
    );
    expect(done.task.artifacts?.[0]?.parts.map((part) => part.text).join('')).toBe(
      'chunk 1 of 3\nchunk 2 of 3\nchunk 3 of 3\n',
    );
  });
});

describe('a stream on B that falls behind a task running on A', () => {
  // More events in one commit than a subscriber may queue (the hub's 10,000): B's follower publishes
  // them at once, its stream is cut off from the hub and reads on from the log (task-streams.ts).
  const COUNT = 10_500;

  it('carries every event, and B stops following the task once the stream ended', async () => {
    const store = createMemoryTaskStore();
    const network = createMemoryBusNetwork();
    let go = (): void => undefined;
    const released = new Promise<void>((resolve) => (go = resolve));
    const burst: AgentExecutor = {
      async execute(_context, updater) {
        updater.startWork('ready');
        await released;
        for (let i = 0; i < COUNT; i++) {
          updater.addArtifact([{ text: `${i},` }], { artifactId: 'n', append: i > 0 });
        }
        updater.complete();
      },
    };
    // B's view of the store, counting its reads of the task: a stream's `get`, the follower's log reads.
    const reads = { get: 0, log: 0 };
    const seenByB = new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (property === 'get') reads.get++;
          if (property === 'readEvents') reads.log++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const a = await instance(store, network, { executor: burst });
    const b = await instance(seenByB, network, { recheckMs: 50 });
    const task = await sendText(a.url, 'count');
    const streamed = subscribe(b.url, task.id);
    // B has opened its subscription (it reads the task right after): now the burst.
    await eventually(
      () => Promise.resolve(reads.get),
      (n) => n > 0,
    );
    go();
    const read = await streamed;
    expect(read.closedByServer).toBe(true);
    expect(stateOf(read.events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
    expect(chunks(read.events).join('')).toBe(Array.from({ length: COUNT }, (_, i) => `${i},`).join(''));
    const ids = read.events.map((event) => Number(event.id));
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBe(ids[0]! + i);
    // Nothing follows the task any more: B's re-checks (every 50 ms) no longer read its log.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = reads.log;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads.log).toBe(after);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
