// Benchmark harness (`npm run bench`): Concord against the floors under any A2A server, the
// official A2A JS SDK and a bare node:http server, all serving the same echo agent, in one process
// tree on this machine.
//
// Concord is measured against the floors (docs/performance.md, 'Against the floors'; issue 27,
// item 5): the least an A2A server on node:http can cost for the same answer, measured in the same
// run. The memory store's sends against `ideal-a2a` (target 0.9×), the SQLite store's against
// `ideal-durable` (0.75×), the PostgreSQL store's against `ideal-durable` too (no target: its
// database shares the two cores), and streams on each store against `ideal-stream` (0.7×). Each
// ratio is paired round by round (bench/lib/floors.mjs); the report says per target whether it is
// met and by how much. The ratios to bare and the multiples of @a2a-js/sdk are kept beside them.
//
// Every server is started at the beginning and pinned to core 0, where it waits while the others
// are measured; the load generator (wrk, or autocannon where wrk is not installed) runs in a child
// process pinned to core 1. The runs are measured in interleaved rounds (docs/performance.md,
// 'Interleaved rounds'): in each round, each run in turn, each server in turn (each floor just
// before the Concord servers compared with it, see MEASURED_FIRST), a strict one-request check then
// a timed load run (warmed up the first time a server meets that kind of request). Results (req/s,
// p50/p99 in the steady state after every connection is up, docs/performance.md, 'Steady-state
// latency'; bad responses, peak RSS, CPU, ratios to bare taken round by round,
// bench/lib/rounds.mjs; the floors table) go to stdout as markdown and to bench/.tmp/last-run.md;
// progress goes to stderr. To record a run, see docs/performance.md, 'Running the benchmarks'.
//
// Environment: BENCH_ROUNDS (default 3), BENCH_DURATION (s per run and round, default 5),
// BENCH_WARMUP (s, default 3),
// BENCH_RAMP (s added to each wrk run for the connection ramp, which is not measured; default 3),
// BENCH_CONNECTIONS (send runs, default "32,128"), BENCH_STREAM_CONNECTIONS (default 32),
// BENCH_QUIET_WAIT (s to wait for other processes to go quiet before each run, default 5),
// BENCH_RETRIES (how many noisy runs may be repeated once, default 8),
// BENCH_ONLY (comma-separated server names), BENCH_POSTGRES_URL (the database of concord-postgres;
// without it the local default database is tried, bench/lib/postgres-target.mjs, and the server is
// skipped when none answers; the PostgreSQL server runs unpinned, sharing both cores).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkServer } from './lib/check.mjs';
import { backgroundBusyPct, cpuMark, cpuSince, waitForQuiet } from './lib/cpu.mjs';
import { loadGeneratorNote, runLoad } from './lib/load-runner.mjs';
import { describeMachine } from './lib/machine.mjs';
import { pinning } from './lib/pin.mjs';
import { floorComparisons, renderFloors } from './lib/floors.mjs';
import { findPostgres } from './lib/postgres-target.mjs';
import { badCount, pairedRatioText, renderReport } from './lib/report.mjs';
import { pairedRatio, summariseCell } from './lib/rounds.mjs';
import { errorLine, peakRssMiB, resetPeakRss, startServer, stopServer } from './lib/server-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const env = process.env;
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) {
  throw new RangeError(`BENCH_ROUNDS must be a whole number of at least 1, got ${env.BENCH_ROUNDS}`);
}
const DURATION = Number(env.BENCH_DURATION ?? 5);
const WARMUP = Number(env.BENCH_WARMUP ?? 3);
const SEND_CONNECTIONS = (env.BENCH_CONNECTIONS ?? '32,128').split(',').map(Number);
const STREAM_CONNECTIONS = Number(env.BENCH_STREAM_CONNECTIONS ?? 32);
// More bad responses than this share and the run's numbers mean nothing.
const MAX_BAD_SHARE = 0.01;
// CPU lost to others on the server's or the load generator's core (other processes + hypervisor
// steal, % of that core) above which a run is noisy.
const NOISY_PCT = 15;
// Seconds to wait, before each server and each timed run, for other processes to go quiet.
const QUIET_WAIT = Number(env.BENCH_QUIET_WAIT ?? 5);
// Noisy runs are repeated once each, up to this many repeats in all (keeps the total time bounded).
const RETRIES = Number(env.BENCH_RETRIES ?? 8);
let retriesLeft = RETRIES;

// Concord's servers are started as the README asks a serving process to be started: node given
// SERVING_NODE_OPTIONS (a young generation of 8 MiB semi-spaces; docs/performance.md, 'Serving node
// options'), as `npm start` does. The other servers run on node's defaults, as their own
// documentation leaves them.
const { SERVING_NODE_OPTIONS } = await import('../dist/cli/serve/process-tuning.js');
const CONCORD_NODE_ARGS = SERVING_NODE_OPTIONS.split(' ');

// Asked before the list is made, so the list can say why concord-postgres is skipped.
const postgres = await findPostgres(env.BENCH_POSTGRES_URL);

const SEND_RUNS = SEND_CONNECTIONS.map((c) => `send c=${c}`);
const SERVERS = [
  { name: 'bare', script: 'servers/bare.mjs' },
  // The same, with its replies written at the end of the event-loop turn as Concord's node adapter
  // writes them (docs/performance.md, 'End-of-turn writes'). Ratios stay to "bare", the limit the
  // issue names; this row shows what the same trick is worth without any A2A work.
  {
    name: 'bare-turn',
    script: 'servers/bare.mjs',
    env: { BENCH_TURN_WRITES: '1' },
    runs: SEND_RUNS,
  },
  // The floor under any A2A server: parse, mint ids, serialise a fresh task; nothing else.
  { name: 'ideal-a2a', script: 'servers/bare-a2a.mjs', runs: SEND_RUNS },
  // The same, keeping each task in SQLite before answering: the floor under a durable store.
  { name: 'ideal-durable', script: 'servers/ideal-durable.mjs', runs: SEND_RUNS },
  // The floor under an SSE answer to message/stream: the same events as Concord's, one write each.
  { name: 'ideal-stream', script: 'servers/ideal-stream.mjs', runs: [`stream c=${STREAM_CONNECTIONS}`] },
  { name: 'a2a-js', script: 'servers/a2a-js.mjs' },
  {
    name: 'concord-memory',
    script: 'servers/concord.mjs',
    env: { BENCH_STORE: 'memory' },
    nodeArgs: CONCORD_NODE_ARGS,
  },
  {
    name: 'concord-sqlite',
    script: 'servers/concord.mjs',
    env: { BENCH_STORE: 'sqlite' },
    nodeArgs: CONCORD_NODE_ARGS,
  },
  // Several instances' store: one fresh schema, dropped after the runs (bench/servers/concord.mjs).
  {
    name: 'concord-postgres',
    script: 'servers/concord.mjs',
    env: { BENCH_STORE: 'postgres', ...(postgres.url ? { BENCH_POSTGRES_URL: postgres.url } : {}) },
    nodeArgs: CONCORD_NODE_ARGS,
    skip: postgres.url ? undefined : postgres.note,
  },
  // The same agent with its contract gate switched off: the contract send's cost without validation.
  {
    name: 'concord-memory-ungated',
    script: 'servers/concord.mjs',
    env: { BENCH_STORE: 'memory', BENCH_CONTRACTS: 'off' },
    nodeArgs: CONCORD_NODE_ARGS,
    runs: ['contract send c=32'],
  },
].filter((s) => !env.BENCH_ONLY || env.BENCH_ONLY.split(',').includes(s.name));

const RUNS = [
  ...SEND_CONNECTIONS.map((c, i) => ({ label: SEND_RUNS[i], rpcMethod: 'message/send', connections: c })),
  { label: `stream c=${STREAM_CONNECTIONS}`, rpcMethod: 'message/stream', connections: STREAM_CONNECTIONS },
  // Contract sends (decision 0016): the same send, as the seed's research.request envelope, validated
  // against its input schema before delivery. Only Concord has contracts; compare with "send c=32".
  {
    label: 'contract send c=32',
    rpcMethod: 'message/send',
    kind: 'contract',
    connections: 32,
    servers: ['concord-memory', 'concord-sqlite', 'concord-memory-ungated'],
  },
];

const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const rows = [];
let peakIsPerRun = true;
let backgroundPct = 0;

const lostPct = (core) => (core ? core.otherPct + core.stealPct : 0);
/** CPU lost to others during a run (other processes + steal), % of a core, on the worse of our two cores. */
const interference = (cpu) => Math.max(lostPct(cpu.serverCore), lostPct(cpu.loadCore));

function describeLoss(cpu) {
  const part = (label, core) =>
    core && lostPct(core) > NOISY_PCT
      ? [
          `${label} core lost ${Math.round(lostPct(core))}% (processes ${Math.round(core.otherPct)}%, steal ${Math.round(core.stealPct)}%)`,
        ]
      : [];
  return [...part('server', cpu.serverCore), ...part('load', cpu.loadCore)].join(', ');
}

function judge(result, cpu) {
  if (result.total === 0) return 'FAILED: no responses';
  const bad = badCount(result);
  if (bad / result.total > MAX_BAD_SHARE)
    return `FAILED: ${((100 * bad) / result.total).toFixed(1)}% bad responses`;
  const noisy = interference(cpu) > NOISY_PCT ? `, noisy: ${describeLoss(cpu)}` : '';
  return (bad > 0 ? 'ok (a few bad responses)' : 'ok') + noisy;
}

/** Whether the server process is gone. */
const exited = (server) => server.child.exitCode !== null || server.child.signalCode !== null;

/**
 * One timed sample of a run against a started server: strict check, a warm-up the first time the
 * server meets this kind of request, load, peak RSS. Returns { round, status, result?, cpu?, ... }.
 */
async function benchSample(entry, run, round) {
  const { spec, server } = entry;
  const sample = { round };
  if (exited(server)) {
    sample.status = `FAILED: server exited (${errorLine(server.stderrTail())})`;
    return sample;
  }
  const problem = await checkServer(server.url, run.rpcMethod, run.kind);
  if (problem) {
    log(`${spec.name} ${run.label}: check failed: ${problem}`);
    sample.status = `FAILED: ${problem}`;
    return sample;
  }
  const job = { url: server.url, rpcMethod: run.rpcMethod, kind: run.kind, connections: run.connections };
  // Warm the JIT before the server's first run, and briefly before its first run of another kind
  // of request (another code path).
  const kind = `${run.rpcMethod} ${run.kind ?? ''}`;
  if (!entry.warmed.has(kind)) {
    const warm = entry.warmed.size === 0 ? WARMUP : Math.min(1, WARMUP);
    if (warm > 0) {
      log(`${spec.name}: warm-up ${warm}s (${run.rpcMethod})`);
      server.served += (await runLoad({ ...job, duration: warm })).total;
    }
    entry.warmed.add(kind);
  }
  // On a shared machine another process can land on our cores mid-run: wait for quiet first,
  // and repeat a run that still turned out noisy (while the retry budget lasts), keeping the
  // cleaner of the two.
  for (let attempt = 1; attempt <= 2; attempt++) {
    await waitForQuiet(NOISY_PCT, QUIET_WAIT * 1000);
    peakIsPerRun = resetPeakRss(server.child.pid) && peakIsPerRun;
    log(
      `${spec.name} ${run.label}, round ${round + 1}/${ROUNDS}: ${DURATION}s${attempt > 1 ? ' (repeat: the first attempt was noisy)' : ''}`,
    );
    const mark = cpuMark(server.child.pid);
    const result = await runLoad({ ...job, duration: DURATION });
    const cpu = cpuSince(mark, result.cpuSeconds, pinning.pinned);
    server.served += result.total;
    if (!sample.result || interference(cpu) < interference(sample.cpu)) {
      const peakRss = peakRssMiB(server.child.pid);
      Object.assign(sample, { result, cpu, peakRss, tasksHeld: server.served, status: judge(result, cpu) });
    }
    if (attempt === 2 || !(interference(cpu) > NOISY_PCT) || retriesLeft <= 0) break;
    retriesLeft--;
  }
  const r = sample.result;
  log(
    `${spec.name} ${run.label}: ${Math.round(r.requestsPerSec)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${sample.status}`,
  );
  return sample;
}

/** Starts a server; returns its entry, or null after recording why it is not measured. */
async function startEntry(spec) {
  const cells = RUNS.filter(
    (run) =>
      (run.servers === undefined || run.servers.includes(spec.name)) &&
      (spec.runs === undefined || spec.runs.includes(run.label)),
  );
  const skipAll = (status) => {
    for (const run of cells) rows.push({ server: spec.name, run: run.label, status });
    return null;
  };
  if (spec.skip !== undefined) {
    log(`${spec.name}: ${spec.skip}`);
    return skipAll(spec.skip);
  }
  try {
    const server = await startServer(join(here, spec.script), spec.env ?? {}, spec.nodeArgs);
    server.url = `http://127.0.0.1:${server.port}${server.path}`;
    // Requests answered so far: the in-memory stores keep tasks, so RSS follows this count.
    server.served = 0;
    return {
      spec,
      server,
      runs: new Set(cells.map((run) => run.label)),
      warmed: new Set(),
      samples: new Map(),
    };
  } catch (e) {
    log(`${spec.name}: not available (${e.message})`);
    return skipAll(`not available: ${e.message}`);
  }
}

const started = Date.now();
log(`${pinning.note}; load generator: ${loadGeneratorNote}`);
{
  const outside = await waitForQuiet(NOISY_PCT, QUIET_WAIT * 1000);
  backgroundPct = outside ?? 0;
  log(`interference before the start: ${outside === null ? 'unknown' : `${Math.round(outside)}%`} of a core`);
}
// Every server runs for the whole benchmark, waiting while the others are measured.
// Measured in this order within a round: the targets compare each Concord server with its floor,
// so each floor goes just before the servers compared with it (ideal-a2a before concord-memory on
// sends, ideal-stream before it on streams, where ideal-a2a has no run; ideal-durable before
// concord-sqlite and concord-postgres), then @a2a-js/sdk and bare; the table keeps the order of
// SERVERS.
const MEASURED_FIRST = [
  'ideal-a2a',
  'ideal-stream',
  'concord-memory',
  'ideal-durable',
  'concord-sqlite',
  'concord-postgres',
  'a2a-js',
  'bare',
];
const measureRank = (name) =>
  MEASURED_FIRST.includes(name) ? MEASURED_FIRST.indexOf(name) : MEASURED_FIRST.length;
const entries = [];
for (const spec of [...SERVERS].sort((a, b) => measureRank(a.name) - measureRank(b.name))) {
  const entry = await startEntry(spec);
  if (entry !== null) entries.push(entry);
}
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const run of RUNS) {
      for (const entry of entries) {
        if (!entry.runs.has(run.label)) continue;
        let sample;
        try {
          sample = await benchSample(entry, run, round);
        } catch (e) {
          log(`${entry.spec.name} ${run.label}: ${e.message}`);
          sample = { round, status: `FAILED: ${e.message}` };
        }
        const samples = entry.samples.get(run.label) ?? [];
        entry.samples.set(run.label, samples.concat(sample));
      }
    }
    const quiet = await backgroundBusyPct();
    if (quiet !== null) backgroundPct = Math.max(backgroundPct, quiet);
  }
} finally {
  await Promise.all(entries.map((entry) => stopServer(entry.server.child)));
}
const samplesOf = (name, run) => entries.find((e) => e.spec.name === name)?.samples.get(run) ?? [];
for (const entry of entries) {
  for (const [run, samples] of entry.samples) {
    const base = entry.spec.name === 'bare' ? [] : samplesOf('bare', run);
    rows.push(summariseCell(entry.spec.name, run, samples, base));
  }
}
// Concord against the floors, paired round by round (bench/lib/floors.mjs).
const floors = floorComparisons(
  samplesOf,
  RUNS.map((run) => run.label),
);
// Concord's multiples of @a2a-js/sdk (issue 2's target was 4×), paired round by round as the
// ratios to the floors are.
const multiples = RUNS.flatMap((run) =>
  ['concord-memory', 'concord-sqlite', 'concord-postgres'].flatMap((name) => {
    const ratio = pairedRatio(samplesOf(name, run.label), samplesOf('a2a-js', run.label));
    if (ratio === undefined) return [];
    const { median, range } = pairedRatioText(ratio, 1);
    return [`${name} ${run.label} ${median}${range && ` (${range})`}`];
  }),
);
// In the order of SERVERS, then of RUNS, whatever order skips and samples were recorded in.
const serverOrder = (name) => SERVERS.findIndex((s) => s.name === name);
const runOrder = (label) => RUNS.findIndex((r) => r.label === label);
rows.sort((a, b) => serverOrder(a.server) - serverOrder(b.server) || runOrder(a.run) - runOrder(b.run));

const report = renderReport({
  header: [
    '# Concord benchmark',
    '',
    ...(await describeMachine()).map((l) => `- ${l}`),
    `- ${pinning.note}; load generator: ${loadGeneratorNote}`,
    `- ${ROUNDS} interleaved rounds of ${DURATION}s per run, after a ${WARMUP}s warm-up; took ${Math.round((Date.now() - started) / 1000)}s in all`,
    `- interference (other processes + steal) at the start and between rounds: up to ${Math.round(backgroundPct)}% of one core` +
      (backgroundPct > NOISY_PCT ? ' — the machine was not quiet, treat the numbers with care' : ''),
    `- ${postgres.note}`,
    ...(floors.length > 0
      ? [
          '',
          '## Against the floors',
          '',
          "Each Concord server's req/s over its floor's, paired round by round (median, then range); " +
            'the floor is the least an A2A server on node:http can cost for the same answer, measured in the same run ' +
            '(ideal-a2a: parse, mint ids, serialise the task; ideal-durable: the same plus one SQLite row per task; ' +
            'ideal-stream: the same three SSE events Concord writes, one write each). ' +
            "The µs figure is the target's time budget per request (1 / (target × the floor's req/s)) against the server's own " +
            "(1 / its req/s): what it would have to lose, or may still spend; it means CPU time where the server's core is saturated.",
          '',
          ...renderFloors(floors),
          '',
          '## Every run',
        ]
      : []),
  ],
  rows,
  notes: [
    ...(multiples.length > 0
      ? [
          "Multiples of @a2a-js/sdk's req/s, paired round by round (median, then range): " +
            multiples.join('; ') +
            '.',
        ]
      : []),
    'Requests are A2A 0.3 JSON-RPC (`message/send`, `message/stream`) with no A2A-Version header, ' +
      'each with a fresh messageId and JSON-RPC id; every server runs the same echo agent (one artifact, then completed).',
    'req/s, p50, p99 and max are the steady state: each request carries its send time as its JSON-RPC id, so every reply gives one ' +
      'exact latency, and only requests sent after every connection had been accepted and answered once are counted. ' +
      '"ramp" is how long that took: Node 20 (libuv 1.46) accepts one connection per event-loop iteration, so a saturated server ' +
      'takes about c²/2 request times to accept c connections. "wrk p99" is wrk\'s own figure over the whole run, ramp included, ' +
      'after its coordinated-omission correction (synthetic samples for each long wait), shown for comparison with earlier results.',
    `Each row is ${ROUNDS} samples of ${DURATION}s, one per round; within a round the servers take their turns at a run back to back (docs/performance.md, "Interleaved rounds"). ` +
      'req/s, p50, wrk p99, ramp and CPU are the medians of the samples; p99, max and peak RSS the highest (their targets are upper bounds); errors the sum. ' +
      'A FAILED sample is left out of the figures and ratios, and the status says how many samples were used.',
    '×bare compares with the bare node:http server on the same run: it parses the body and writes a fixed reply, the practical ceiling. ' +
      "The req/s ratio is the median of the per-round ratios (each against bare's sample of the same round), followed by their range; " +
      "the other ratios compare the row's figures.",
    'Before each run one request is fully checked (completed task carrying the echo artifact, matching id); during the run every ' +
      `reply is scanned, and one without the completed echo task or with a JSON-RPC error counts as "bad body". More than ${MAX_BAD_SHARE * 100}% bad marks the run FAILED.`,
    peakIsPerRun
      ? 'Peak RSS is the server process VmHWM over a sample only (reset through /proc/<pid>/clear_refs before each sample).'
      : 'Peak RSS is the server process VmHWM since it started (clear_refs unavailable, so later samples include earlier peaks).',
    '"CPU server / load gen" is each process\'s CPU time over the run as % of one core (a server near 100% was the bottleneck); ' +
      `a run during which other processes and hypervisor steal took more than ${NOISY_PCT}% of the server's or the load generator's core is marked noisy (and repeated once, up to ${RETRIES} repeats per benchmark, the cleaner attempt kept).`,
    '"tasks held" is how many requests the server had answered by the end of its last sample (warm-ups and repeats included): ' +
      "@a2a-js/sdk's store and Concord's SQLite store keep every task, Concord's memory store the newest 10,000 finished ones, so RSS can follow this count.",
  ],
});

process.stdout.write(report);
const out = join(here, '.tmp', 'last-run.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report);
log(`written to ${out}`);
