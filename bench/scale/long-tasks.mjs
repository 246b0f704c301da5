// Scale part `long-tasks` (issue 27, item 3): what reading and growing one task costs as the task
// grows to SCALE_EVENTS events. A resubscription from a recent cursor should cost what the events
// after the cursor cost, GetTask with historyLength what the window holds, and one more commit
// the same at 100 events as at 100,000; each is measured at several sizes of the task.
//
// The server (agents/long-task-server.mjs, pinned to core 0) runs an agent whose one task grows
// on command; this process (core 1) grows it to each size in SCALE_EVENT_POINTS and measures over
// real HTTP (HTTP+JSON binding, A2A 1.0):
//   - SubscribeToTask with Last-Event-ID ten events back (A2A 1.0 §3.1.6): time to the first and
//     to the 10th event, bytes on the wire until then
//   - GetTask with historyLength=10 and without (§3.1.3): p50/p99 and answer bytes
//   - the server's CPU time per call of each (all its threads, /proc schedstat)
//   - one more commit: the agent emits single events and times each from emit to durable
//
// Environment (short defaults; SCALE_FULL=1 takes the sizes):
//   SCALE_EVENTS        the largest size, events in the task (10,000; full 100,000)
//   SCALE_EVENT_POINTS  comma-separated sizes measured (1,000 × powers of √10 up to SCALE_EVENTS)
//   SCALE_LONG_STORES   stores, comma-separated (sqlite,memory; postgres added when
//                       SCALE_POSTGRES_URL or BENCH_POSTGRES_URL is set)
//   SCALE_READS         calls per measured read (30)
//   SCALE_COMMITS       single-event commits timed at each size (30)
//   SCALE_GROW_BATCH    events per commit while growing between sizes (500): growth is setup, not
//                       what is measured, so it goes in bursts
//   SCALE_SERVER_NODE_ARGS  extra node options of the server, space-separated (e.g. `--cpu-prof
//                       --cpu-prof-dir=bench/.tmp/prof` to profile where its time goes)

import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, rssMiB, startServer, stopServer } from '../lib/server-process.mjs';
import { pinning } from '../lib/pin.mjs';
import { exchange, percentile, processCpuSeconds, readSseEvents } from '../lib/scale-probes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const full = process.env.SCALE_FULL === '1';
const int = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const EVENTS = int('SCALE_EVENTS', full ? 100_000 : 10_000);
const READS = int('SCALE_READS', 30);
const COMMITS = int('SCALE_COMMITS', 30);
const GROW_BATCH = int('SCALE_GROW_BATCH', 500);
const POINTS = process.env.SCALE_EVENT_POINTS
  ? process.env.SCALE_EVENT_POINTS.split(',').map(Number)
  : defaultPoints(EVENTS);
const pgUrl = process.env.SCALE_POSTGRES_URL ?? process.env.BENCH_POSTGRES_URL;
const STORES = (
  process.env.SCALE_LONG_STORES ?? ['sqlite', 'memory', ...(pgUrl ? ['postgres'] : [])].join(',')
)
  .split(',')
  .map((s) => s.trim());
const log = (msg) => process.stderr.write(`[long-tasks] ${msg}\n`);

/** 1,000, 3,162, 10,000, ... (half decades) up to `max`, with `max` itself last. */
function defaultPoints(max) {
  const points = [];
  for (let p = 1000; p < max; p = Math.round(p * Math.sqrt(10))) points.push(p);
  return [...points, max];
}

const A2A = { 'a2a-version': '1.0', 'content-type': 'application/json' };
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** `calls` sequential runs of `call`; the server's CPU per call is taken around all of them. */
async function measure(pid, calls, call) {
  const results = [];
  const cpu0 = processCpuSeconds(pid);
  for (let i = 0; i < calls; i++) results.push(await call());
  const cpu1 = processCpuSeconds(pid);
  return { results, cpuMs: cpu0 === null ? null : ((cpu1 - cpu0) * 1000) / calls };
}

async function control(port, path, args) {
  const answer = await exchange(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    body: JSON.stringify(args ?? {}),
    keep: true,
  });
  if (answer.status !== 200) throw new Error(`control ${path}: ${answer.status} ${answer.body}`);
  return JSON.parse(answer.body);
}

/** Every measure of one store at every size: rows keyed by size. */
async function runStore(kind) {
  const controlPort = await freePort();
  const server = await startServer(
    join(here, 'agents', 'long-task-server.mjs'),
    {
      SCALE_STORE: kind,
      CONTROL_PORT: String(controlPort),
    },
    (process.env.SCALE_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  const pid = server.child.pid;
  const base = `http://127.0.0.1:${server.port}`;
  const rows = [];
  try {
    const sent = await exchange(`${base}/message:send`, {
      method: 'POST',
      headers: A2A,
      keep: true,
      body: JSON.stringify({
        message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'work long' }] },
        configuration: { returnImmediately: true },
      }),
    });
    const taskId = JSON.parse(sent.body).task.id;
    let state = await control(controlPort, '/state');
    for (const size of POINTS) {
      // Grow to the size less the single commits timed below, so the reads see `size` events.
      const growBy = size - COMMITS - state.version;
      if (growBy > 0) {
        log(`${kind}: growing ${state.version} → ${state.version + growBy} events`);
        await control(controlPort, '/grow', { events: growBy, batch: GROW_BATCH });
      }
      const commits = await control(controlPort, '/commits', { count: COMMITS });
      state = await control(controlPort, '/state');
      const version = state.version;
      log(`${kind}: ${version} events; reading`);

      const resub = await measure(pid, READS, () =>
        readSseEvents(`${base}/tasks/${taskId}:subscribe`, {
          headers: { ...A2A, accept: 'text/event-stream', 'last-event-id': String(version - 10) },
          body: '{}',
          count: 10,
        }),
      );
      const expected = Array.from({ length: 10 }, (_, i) => String(version - 9 + i));
      if (resub.results.some((r) => r.ids.join() !== expected.join())) {
        throw new Error(`${kind}: resubscription did not replay exactly events ${expected[0]}..${version}`);
      }
      const windowed = await measure(pid, READS, () =>
        exchange(`${base}/tasks/${taskId}?historyLength=10`, { headers: A2A, agent: keepAlive }),
      );
      // The whole task is the large read: fewer calls, enough for a p50.
      const whole = await measure(pid, Math.max(5, Math.round(READS / 3)), () =>
        exchange(`${base}/tasks/${taskId}`, { headers: A2A, agent: keepAlive }),
      );
      for (const r of [...windowed.results, ...whole.results]) {
        if (r.status !== 200) throw new Error(`${kind}: GetTask answered ${r.status}`);
      }
      const column = (results, field = 'ms') => results.map((r) => r[field]);
      const resubTenth = column(resub.results, 'lastMs');
      rows.push({
        kind,
        size: version,
        resubFirstP50: percentile(column(resub.results, 'firstMs'), 50),
        resubTenthP50: percentile(resubTenth, 50),
        resubTenthP99: percentile(resubTenth, 99),
        resubBytes: percentile(column(resub.results, 'bytes'), 50),
        resubCpuMs: resub.cpuMs,
        getWindowP50: percentile(column(windowed.results), 50),
        getWindowP99: percentile(column(windowed.results), 99),
        getWindowBytes: windowed.results[0].bytes,
        getWindowCpuMs: windowed.cpuMs,
        getWholeP50: percentile(column(whole.results), 50),
        getWholeP99: percentile(column(whole.results), 99),
        getWholeBytes: whole.results[0].bytes,
        getWholeCpuMs: whole.cpuMs,
        commitP50: percentile(commits.durable, 50),
        commitP99: percentile(commits.durable, 99),
        storeCommitP50: percentile(commits.store, 50),
        commitCpuMs: commits.cpuMsPerCommit,
        rssMiB: rssMiB(pid),
      });
      const r = rows.at(-1);
      log(
        `${kind} @${version}: resub 10th ${r.resubTenthP50.toFixed(2)} ms, get(hl=10) ${r.getWindowP50.toFixed(2)} ms ` +
          `${r.getWindowBytes} B, get ${r.getWholeP50.toFixed(1)} ms ${r.getWholeBytes} B, commit ${r.commitP50.toFixed(2)} ms, rss ${r.rssMiB?.toFixed(0)} MiB`,
      );
    }
  } finally {
    await stopServer(server.child);
  }
  return rows;
}

const all = [];
const skipped = [];
for (const kind of STORES) {
  try {
    all.push(...(await runStore(kind)));
  } catch (error) {
    log(`${kind}: ${error.message}`);
    skipped.push(`${kind}: not measured (${error.message})`);
  }
}
if (!pgUrl && !STORES.includes('postgres')) skipped.push('postgres: skipped (no SCALE_POSTGRES_URL)');

const series = (metric) =>
  STORES.filter((k) => all.some((r) => r.kind === k)).map((kind) => ({
    name: kind,
    points: all.filter((r) => r.kind === kind).map((r) => [r.size, r[metric]]),
  }));
// GetTask with historyLength still carries every artifact (no artifact window in A2A 1.0 §3.1.3),
// so its answer grows with the task; its cost per megabyte answered shows whether anything beyond
// the answer grows with it.
for (const row of all) row.getWindowMsPerMB = row.getWindowP50 / (row.getWindowBytes / 1e6);
const curve = (id, title, metric, yLabel = 'ms') => ({
  id: `long-tasks-${id}`,
  title,
  x: { label: 'events in the task', log: true },
  y: { label: yLabel, log: true },
  series: series(metric),
});
const ratio = (kind, metric) => {
  const rows = all.filter((r) => r.kind === kind);
  if (rows.length < 2 || !(rows[0][metric] > 0)) return null;
  return rows.at(-1)[metric] / rows[0][metric];
};
const fmt = (n) => (n === null || n === undefined ? '–' : Number(n.toPrecision(3)).toString());

const result = {
  part: 'long-tasks',
  heading: 'Long tasks: reading and growing a task of many events',
  setup: [
    `one task grown to ${POINTS.join(', ')} events: status updates with an agent message (history) and artifact appends (one transcript artifact), half each; left working`,
    `HTTP+JSON, A2A 1.0; ${READS} calls per read, ${COMMITS} single-event commits per size; growth in commits of ${GROW_BATCH} events`,
    pinning.note,
    ...skipped,
  ],
  tables: [
    {
      title: 'Reads and commits by task size',
      columns: [
        'store',
        'events',
        'resubscribe: 1st event p50 ms',
        '10th event p50 ms',
        '10th p99 ms',
        'bytes',
        'server CPU ms',
        'GetTask hl=10 p50 ms',
        'p99 ms',
        'bytes',
        'server CPU ms',
        'GetTask p50 ms',
        'bytes',
        'server CPU ms',
        'commit emit→durable p50 ms',
        'p99 ms',
        'store commit p50 ms',
        'server CPU ms / commit',
        'server RSS MiB',
      ],
      rows: all.map((r) => [
        r.kind,
        r.size,
        r.resubFirstP50,
        r.resubTenthP50,
        r.resubTenthP99,
        r.resubBytes,
        r.resubCpuMs,
        r.getWindowP50,
        r.getWindowP99,
        r.getWindowBytes,
        r.getWindowCpuMs,
        r.getWholeP50,
        r.getWholeBytes,
        r.getWholeCpuMs,
        r.commitP50,
        r.commitP99,
        r.storeCommitP50,
        r.commitCpuMs,
        r.rssMiB,
      ]),
      note: 'GetTask always carries every artifact (A2A 1.0 §3.1.3 has no artifact window), so its bytes grow with the transcript even with historyLength=10.',
    },
  ],
  curves: [
    curve('resubscribe', 'Resubscribe from 10 events back: time to the 10th event', 'resubTenthP50'),
    curve('get-window', 'GetTask historyLength=10: p50', 'getWindowP50'),
    curve(
      'get-window-per-mb',
      'GetTask historyLength=10: p50 per MB answered',
      'getWindowMsPerMB',
      'ms per MB',
    ),
    curve('get-whole', 'GetTask (whole task): p50', 'getWholeP50'),
    curve('commit', 'One more commit: emit→durable p50', 'commitP50'),
    curve('read-cpu', 'Server CPU per resubscription', 'resubCpuMs'),
  ],
  summary: STORES.filter((k) => all.some((r) => r.kind === k)).map(
    (kind) =>
      `${kind}: from ${all.find((r) => r.kind === kind).size} to ${all.filter((r) => r.kind === kind).at(-1).size} events, ` +
      `resubscribe ×${fmt(ratio(kind, 'resubTenthP50'))}, GetTask hl=10 ×${fmt(ratio(kind, 'getWindowP50'))}, ` +
      `GetTask ×${fmt(ratio(kind, 'getWholeP50'))}, commit ×${fmt(ratio(kind, 'commitP50'))}; ` +
      `GetTask hl=10 per MB answered ×${fmt(ratio(kind, 'getWindowMsPerMB'))}`,
  ),
};

const out = process.env.SCALE_RESULT ?? join(here, '..', '.tmp', 'scale', 'long-tasks.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2));
log(`result written to ${out}`);
keepAlive.destroy();
