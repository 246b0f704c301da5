// Scale part 'streams' (issue 27, item 2; bench/scale.mjs): many open task streams on one Concord
// process. One server (bench/scale/streams/server.mjs) pinned to core 0; the subscribers in
// client processes (bench/scale/streams/client.mjs) pinned to core 1. For each count of open
// streams and each kind of stream (SSE with the default heartbeat, SSE with a short heartbeat,
// gRPC) a fresh server:
//
//   1. creates one working task per stream (an agent that waits), then reads its memory: the
//      baseline, tasks and all, without streams
//   2. opens the streams (A2A 1.0 HTTP+JSON SubscribeToTask over SSE, or gRPC SubscribeToTask),
//      waits until each has its first event, reads the memory again: memory per idle stream
//   3. leaves them idle for a window, measuring the server's CPU and how much its heap grew
//      (per stream per heartbeat: what an idle stream keeps of each heartbeat)
//   4. completes every task and checks that every stream ended
//
// Then the fan-out: one task, F subscribers, events emitted one at a time (the next once every
// subscriber has the last), each event's latency from the executor's emit to its arrival at each
// subscriber.
//
// Environment (short default / SCALE_FULL=1):
//   SCALE_STREAMS            open streams, the x axis (100,1000 / 1000,10000)
//   SCALE_FANOUT             subscribers of one task (1,100 / 1,1000)
//   SCALE_FANOUT_EVENTS      events per fan-out run (50 / 200)
//   SCALE_STREAMS_IDLE_S     idle window in seconds (5 / 20)
//   SCALE_HEARTBEAT_MS       the short heartbeat interval (1000 / 1000); the default is the server's
//   SCALE_STREAMS_STORE      sqlite (default, as `concord serve`) or memory
//   SCALE_STREAM_KINDS       which kinds to run (sse,sse-heartbeat,grpc)
//   SCALE_GRPC_PER_CONNECTION gRPC streams multiplexed on one HTTP/2 connection (100)
//   SCALE_STREAM_CLIENTS     client processes sharing the streams (1 / 2)

import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnNodeOn, pinning } from '../lib/pin.mjs';
import { cpuMark, cpuSince } from '../lib/cpu.mjs';
import { freePort, startServer, stopServer } from '../lib/server-process.mjs';
import { SERVING_NODE_OPTIONS } from '../../dist/cli/serve/process-tuning.js';

const here = dirname(fileURLToPath(import.meta.url));
const FULL = process.env.SCALE_FULL === '1';
const setting = (name, short, full) => process.env[name] ?? (FULL ? full : short);
const numbers = (name, short, full) =>
  String(setting(name, short, full))
    .split(',')
    .map(Number);

const STREAMS = numbers('SCALE_STREAMS', '100,1000', '1000,10000');
const FANOUT = numbers('SCALE_FANOUT', '1,100', '1,1000');
const FANOUT_EVENTS = Number(setting('SCALE_FANOUT_EVENTS', 50, 200));
const IDLE_S = Number(setting('SCALE_STREAMS_IDLE_S', 5, 20));
const HEARTBEAT_MS = Number(setting('SCALE_HEARTBEAT_MS', 1000, 1000));
const STORE = setting('SCALE_STREAMS_STORE', 'sqlite', 'sqlite');
const KINDS = String(setting('SCALE_STREAM_KINDS', 'sse,sse-heartbeat,grpc', 'sse,sse-heartbeat,grpc')).split(
  ',',
);
const PER_CONNECTION = Number(setting('SCALE_GRPC_PER_CONNECTION', 100, 100));
const CLIENTS = Number(setting('SCALE_STREAM_CLIENTS', 1, 2));
/** The server's default heartbeat (src/server/a2a-server.ts `heartbeatMs`). */
const DEFAULT_HEARTBEAT_MS = 15_000;

const log = (msg) => process.stderr.write(`[scale:streams] ${msg}\n`);
const KIND = {
  sse: { label: 'SSE', binding: 'sse', heartbeatMs: DEFAULT_HEARTBEAT_MS },
  'sse-heartbeat': { label: `SSE, ${HEARTBEAT_MS} ms heartbeat`, binding: 'sse', heartbeatMs: HEARTBEAT_MS },
  grpc: { label: 'gRPC', binding: 'grpc', heartbeatMs: DEFAULT_HEARTBEAT_MS },
};
for (const kind of KINDS)
  if (!(kind in KIND)) throw new RangeError(`SCALE_STREAM_KINDS: unknown kind ${kind}`);

// --- the server ---------------------------------------------------------------------------

async function startStreamsServer(heartbeatMs) {
  const grpcPort = await freePort();
  const controlPort = await freePort();
  const env = { STREAMS_STORE: STORE, GRPC_PORT: String(grpcPort), CONTROL_PORT: String(controlPort) };
  if (heartbeatMs !== DEFAULT_HEARTBEAT_MS) env.STREAMS_HEARTBEAT_MS = String(heartbeatMs);
  const started = await startServer(join(here, 'streams', 'server.mjs'), env, [
    '--expose-gc',
    ...SERVING_NODE_OPTIONS.split(' '),
  ]);
  const control = `http://127.0.0.1:${controlPort}`;
  return {
    ...started,
    grpcTarget: `127.0.0.1:${grpcPort}`,
    memory: async () => (await fetch(`${control}/mem`)).json(),
    emit: async (taskId) => {
      const res = await fetch(`${control}/emit/${encodeURIComponent(taskId)}`, { method: 'POST' });
      if (!res.ok) throw new Error(`emit: ${res.status} ${await res.text()}`);
    },
    finish: async () => (await fetch(`${control}/finish`, { method: 'POST' })).json(),
  };
}

/** Creates `count` working tasks over HTTP+JSON (`message:send`, returnImmediately), 32 at a time. */
async function createTasks(server, count) {
  const url = `http://127.0.0.1:${server.port}/message:send`;
  const ids = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'wait' }] },
          configuration: { returnImmediately: true },
        }),
      });
      const body = await res.json();
      if (!res.ok || body.task?.id === undefined)
        throw new Error(`send: ${res.status} ${JSON.stringify(body)}`);
      ids.push(body.task.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(32, count) }, worker));
  return ids;
}

// --- the clients --------------------------------------------------------------------------

/** A client process on core 1; `request(msg, reply)` sends and resolves the first `reply` answer. */
async function startClient() {
  const child = spawnNodeOn(1, [join(here, 'streams', 'client.mjs')], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const handlers = new Set();
  child.on('message', (msg) => {
    for (const h of [...handlers]) h(msg);
  });
  const next = (cmd) =>
    new Promise((resolve, reject) => {
      const onExit = (code) => reject(new Error(`client exited (${code}) while waiting for ${cmd}`));
      const h = (msg) => {
        if (msg.cmd !== cmd) return;
        handlers.delete(h);
        child.off('exit', onExit);
        resolve(msg);
      };
      handlers.add(h);
      child.once('exit', onExit);
    });
  await next('ready');
  return {
    child,
    on: (h) => handlers.add(h),
    request: (msg, reply) => {
      const answer = next(reply);
      child.send(msg);
      return answer;
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.send({ cmd: 'close' });
      }),
  };
}

/** `ids` dealt out to `CLIENTS` client processes, streams opened; resolves the clients. */
async function openStreams(server, binding, ids, clientCount = CLIENTS) {
  const clients = await Promise.all(Array.from({ length: Math.min(clientCount, ids.length) }, startClient));
  const shares = clients.map((_, c) => ids.filter((_, i) => i % clients.length === c));
  const opened = await Promise.all(
    clients.map((client, c) =>
      client.request(
        {
          cmd: 'open',
          kind: binding,
          port: server.port,
          grpcTarget: server.grpcTarget,
          taskIds: shares[c],
          perConnection: PER_CONNECTION,
        },
        'opened',
      ),
    ),
  );
  const failed = opened.reduce((n, o) => n + o.failed, 0);
  if (failed > 0) throw new Error(`${failed} of ${ids.length} ${binding} streams failed to open`);
  return clients;
}

const closeAll = (clients) => Promise.all(clients.map((c) => c.close()));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const KiB = (bytes) => bytes / 1024;

// --- idle streams -------------------------------------------------------------------------

async function idleRun(kindName, n) {
  const kind = KIND[kindName];
  const server = await startStreamsServer(kind.heartbeatMs);
  try {
    const ids = await createTasks(server, n);
    await sleep(500);
    const base = await server.memory();
    const clients = await openStreams(server, kind.binding, ids);
    await sleep(500);
    const open = await server.memory();
    const mark = cpuMark(server.child.pid);
    const before = await Promise.all(clients.map((c) => c.request({ cmd: 'stats' }, 'stats')));
    await sleep(IDLE_S * 1000);
    const cpu = cpuSince(mark, null, pinning.pinned);
    const after = await Promise.all(clients.map((c) => c.request({ cmd: 'stats' }, 'stats')));
    const idle = await server.memory();
    const heartbeats = after.reduce((s, a, i) => s + a.heartbeats - before[i].heartbeats, 0);
    const finished = await server.finish();
    const ends = await Promise.all(clients.map((c) => c.request({ cmd: 'ends' }, 'ends')));
    const ended = ends.reduce((s, e) => s + e.ended, 0);
    await closeAll(clients);
    const serverCpuS = (cpu.serverPct / 100) * IDLE_S;
    const row = {
      kind: kindName,
      n,
      rssPerStreamKiB: KiB(open.rss - base.rss) / n,
      heapPerStreamKiB: KiB(open.heapUsed - base.heapUsed) / n,
      baseRssMiB: base.rss / 2 ** 20,
      openRssMiB: open.rss / 2 ** 20,
      idleCpuPct: cpu.serverPct,
      heartbeats,
      // What the heap kept over the window, per stream and per heartbeat it sent.
      heapGrowthPerHeartbeatB: heartbeats > 0 ? (idle.heapUsed - open.heapUsed) / heartbeats : null,
      cpuPerHeartbeatUs: heartbeats > 0 ? (serverCpuS * 1e6) / heartbeats : null,
      otherPct: cpu.serverCore?.otherPct ?? null,
      ended,
      finished: finished.finished,
    };
    log(
      `${kind.label}, ${n} streams: ${row.rssPerStreamKiB.toFixed(1)} KiB RSS/stream, ` +
        `${row.heapPerStreamKiB.toFixed(1)} KiB heap/stream, idle CPU ${row.idleCpuPct.toFixed(2)}%, ` +
        `${heartbeats} heartbeats, heap ${KiB(idle.heapUsed - open.heapUsed).toFixed(0)} KiB over the window, ` +
        `${ended}/${n} streams ended on completion`,
    );
    if (ended !== n)
      throw new Error(`${n - ended} of ${n} ${kindName} streams did not end when their tasks completed`);
    return row;
  } finally {
    await stopServer(server.child);
  }
}

// --- fan-out ------------------------------------------------------------------------------

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function fanoutRun(binding, subscribers) {
  const server = await startStreamsServer(DEFAULT_HEARTBEAT_MS);
  try {
    const [taskId] = await createTasks(server, 1);
    const clients = await openStreams(server, binding, Array(subscribers).fill(taskId));
    // An event counts as delivered once every client process has it on every one of its streams.
    let waiting;
    for (const client of clients) {
      client.on((msg) => {
        if (msg.cmd === 'delivered' && waiting && --waiting.count === 0) waiting.resolve();
      });
    }
    const warmup = Math.min(10, FANOUT_EVENTS);
    for (let e = 0; e < warmup + FANOUT_EVENTS; e++) {
      if (e === warmup) await Promise.all(clients.map((c) => c.request({ cmd: 'latencies' }, 'latencies')));
      const all = new Promise((resolve) => (waiting = { count: clients.length, resolve }));
      await server.emit(taskId);
      await all;
    }
    const values = (await Promise.all(clients.map((c) => c.request({ cmd: 'latencies' }, 'latencies'))))
      .flatMap((l) => l.values)
      .sort((a, b) => a - b);
    await server.finish();
    await Promise.all(clients.map((c) => c.request({ cmd: 'ends' }, 'ends')));
    await closeAll(clients);
    const row = {
      binding,
      subscribers,
      deliveries: values.length,
      p50: percentile(values, 50),
      p99: percentile(values, 99),
      max: values.at(-1),
    };
    log(
      `fan-out ${binding}, ${subscribers} subscribers: p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms ` +
        `(${values.length} deliveries)`,
    );
    return row;
  } finally {
    await stopServer(server.child);
  }
}

// --- the run ------------------------------------------------------------------------------

const idle = [];
for (const kind of KINDS) for (const n of STREAMS) idle.push(await idleRun(kind, n));
// A heartbeat's CPU is what the short-heartbeat run spent beyond the default run at the same
// count (no heartbeat falls in a short window at 15 s), divided by the heartbeats it sent.
for (const row of idle) {
  const quiet = idle.find((r) => r.kind === 'sse' && r.n === row.n);
  if (row.kind !== 'sse-heartbeat' || quiet === undefined || row.heartbeats === 0) {
    row.cpuPerHeartbeatUs = null;
    continue;
  }
  row.cpuPerHeartbeatUs = (((row.idleCpuPct - quiet.idleCpuPct) / 100) * IDLE_S * 1e6) / row.heartbeats;
}
const fanout = [];
for (const binding of [...new Set(KINDS.map((k) => KIND[k].binding))]) {
  for (const f of FANOUT) fanout.push(await fanoutRun(binding, f));
}

const label = (kind) => KIND[kind].label;
const series = (kinds, y) =>
  kinds.map((kind) => ({
    name: label(kind),
    points: idle.filter((r) => r.kind === kind).map((r) => [r.n, y(r)]),
  }));
const last = (kind) => idle.filter((r) => r.kind === kind).at(-1);
const largest = (binding) => fanout.filter((r) => r.binding === binding).at(-1);
const result = {
  part: 'streams',
  heading: 'Streams: many open streams on one process',
  setup: [
    `one Concord server (${STORE} store) pinned to core 0; subscribers in ${CLIENTS} client process(es) pinned to core 1 (${pinning.note})`,
    'SSE streams: A2A 1.0 HTTP+JSON SubscribeToTask (POST /tasks/{id}:subscribe), one HTTP/1.1 connection each; ' +
      `gRPC streams: SubscribeToTask, ${PER_CONNECTION} per HTTP/2 connection`,
    'idle streams: one working task per stream, created first; memory per stream = (RSS or heap used with the streams open − the same with the tasks alone) / streams, both after two full collections',
    `idle CPU: the server's CPU over ${IDLE_S} s with every stream open and no events, as % of one core; heartbeats at the server's default (${DEFAULT_HEARTBEAT_MS} ms) and at ${HEARTBEAT_MS} ms; CPU per heartbeat is the short-heartbeat run's CPU beyond the default run's at the same count, and heap kept per heartbeat the heap's growth over the window, each divided by the keep-alive comments the clients received`,
    `fan-out: one task, its subscribers opened first, ${FANOUT_EVENTS} events after 10 warm-up ones, each emitted once every subscriber has the previous one; ` +
      "latency runs from the executor's updater call (taken just before it: the store's commit, the hub's publish and the write to the socket all come after) to the subscriber's socket read, on one clock (performance.timeOrigin + performance.now(), one machine); " +
      "at many subscribers the client's reading of the other streams is part of the later ones' latency",
  ],
  tables: [
    {
      title: 'Idle streams',
      columns: [
        'kind',
        'streams',
        'RSS, tasks alone (MiB)',
        'RSS with streams (MiB)',
        'RSS per stream (KiB)',
        'heap per stream (KiB)',
        'idle CPU (% core)',
        'heartbeats in window',
        'CPU per heartbeat (µs)',
        'heap kept per heartbeat (B)',
        'other load on core 0 (%)',
      ],
      rows: idle.map((r) => [
        label(r.kind),
        r.n,
        r.baseRssMiB,
        r.openRssMiB,
        r.rssPerStreamKiB,
        r.heapPerStreamKiB,
        r.idleCpuPct,
        r.heartbeats,
        r.cpuPerHeartbeatUs,
        r.heapGrowthPerHeartbeatB,
        r.otherPct,
      ]),
      note: 'Every stream ended when its task completed, in every run (checked).',
    },
    {
      title: 'Fan-out: emit to delivery',
      columns: ['binding', 'subscribers', 'deliveries', 'p50 (ms)', 'p99 (ms)', 'max (ms)'],
      rows: fanout.map((r) => [
        r.binding === 'sse' ? 'SSE' : 'gRPC',
        r.subscribers,
        r.deliveries,
        r.p50,
        r.p99,
        r.max,
      ]),
    },
  ],
  curves: [
    {
      id: 'streams-memory',
      title: 'Memory per idle stream',
      x: { label: 'open streams', log: true },
      y: { label: 'KiB per stream' },
      series: [
        ...series(
          KINDS.filter((k) => k !== 'sse-heartbeat'),
          (r) => r.rssPerStreamKiB,
        ).map((s) => ({ ...s, name: `${s.name} RSS` })),
        ...series(
          KINDS.filter((k) => k !== 'sse-heartbeat'),
          (r) => r.heapPerStreamKiB,
        ).map((s) => ({ ...s, name: `${s.name} heap` })),
      ],
    },
    {
      id: 'streams-idle-cpu',
      title: 'Server CPU with the streams open and idle',
      x: { label: 'open streams', log: true },
      y: { label: '% of one core' },
      series: series(KINDS, (r) => r.idleCpuPct),
    },
    {
      id: 'streams-fanout',
      title: 'Emit to delivery, subscribers of one task',
      x: { label: 'subscribers', log: true },
      y: { label: 'ms', log: true },
      series: [...new Set(fanout.map((r) => r.binding))].flatMap((binding) =>
        ['p50', 'p99'].map((p) => ({
          name: `${binding === 'sse' ? 'SSE' : 'gRPC'} ${p}`,
          points: fanout.filter((r) => r.binding === binding).map((r) => [r.subscribers, r[p]]),
        })),
      ),
    },
  ],
  summary: [
    ...KINDS.filter((k) => k !== 'sse-heartbeat' && last(k)).map(
      (k) =>
        `${label(k)}: ${last(k).rssPerStreamKiB.toFixed(1)} KiB RSS (${last(k).heapPerStreamKiB.toFixed(1)} KiB heap) per idle stream at ${last(k).n} streams`,
    ),
    ...(last('sse-heartbeat')?.cpuPerHeartbeatUs != null
      ? [
          `SSE heartbeat: ${last('sse-heartbeat').cpuPerHeartbeatUs.toFixed(1)} µs of server CPU each, heap kept per heartbeat ${last('sse-heartbeat').heapGrowthPerHeartbeatB.toFixed(1)} B, at ${last('sse-heartbeat').n} streams`,
        ]
      : []),
    ...['sse', 'grpc']
      .filter((b) => largest(b))
      .map(
        (b) =>
          `fan-out ${b === 'sse' ? 'SSE' : 'gRPC'}: p99 ${largest(b).p99.toFixed(2)} ms (p50 ${largest(b).p50.toFixed(2)} ms) at ${largest(b).subscribers} subscribers of one task`,
      ),
  ],
};

const out = process.env.SCALE_RESULT ?? join(here, '..', '.tmp', 'scale', 'streams.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2));
log(`result written to ${out}`);
