// Scale part `stores` (bench/scale.mjs; issue 27, item 1): how the durable task stores' costs grow
// with the number of tasks they hold.
//
// Each store is filled DIRECTLY to each size of SCALE_TASKS (bench/scale/stores/fill-*.mjs: rows
// copied from template tasks that went through the store's own commit, so they are what Concord
// writes), grown from one size to the next rather than refilled. At each size a Concord server on
// that store (bench/servers/concord.mjs, core 0) is measured over HTTP from core 1:
//   - task-creating sends per second (wrk, JSON-RPC message/send, SCALE_SEND_SECONDS);
//   - GetTask p50/p99 on random existing tasks (A2A 1.0 HTTP+JSON, one request at a time);
//   - ListTasks p50/p99 for each filter shape and for deep pages (a page token at a random task);
// then, with the server stopped, a retention sweep through the store's own API: deleting about one
// batch of expired tasks, the same sweep again finding nothing, and the count cap's check.
//
// Sizes (comma-separated task counts): SCALE_TASKS (short default 10000,100000; SCALE_FULL=1
// 10000,1000000,10000000), SCALE_POSTGRES_TASKS for PostgreSQL alone (full default stops at
// 1,000,000 so the full run fits an hour on 2 cores, where PostgreSQL fills about 2,500 tasks/s;
// its 10 million point is a run of its own, decision 0171). SCALE_PROBES requests per
// latency (default 200; full 1000), SCALE_SEND_SECONDS (default 3; full 5). PostgreSQL runs when
// SCALE_POSTGRES_URL or BENCH_POSTGRES_URL names a database, in a schema of its own that is dropped
// afterwards; the SQLite file lives in SCALE_DATA_DIR (default bench/.tmp/scale/stores-data) and
// is removed afterwards. A size whose fill would leave less than 5 GB of free disk is skipped, and
// the report says so. SCALE_STORES (default sqlite,postgres) picks which stores run; a store left
// out is reported from its last run's rows (bench/.tmp/scale/stores-<store>.rows.json, or else
// the rows SCALE_RECORD=1 kept beside the plots in docs/images/scale/), so the two long fills can
// run one after the other as separate processes.
// SCALE_QUIET_FILE names a file that exists while a size is measured (created SCALE_QUIET_SETTLE_S
// seconds, default 30, before the first request): other work sharing the machine during a long
// fill can wait while it exists, so only the fills run beside it.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { openSqliteTaskStore } from '../../dist/store/sqlite/index.js';
import { encodePageToken } from '../../dist/store/page-token.js';
import { runLoad, loadGeneratorNote } from '../lib/load-runner.mjs';
import { pinning } from '../lib/pin.mjs';
import { peakRssMiB, startServer, stopServer } from '../lib/server-process.mjs';
import { fillPostgres, preparePostgres, connect, settlePostgres } from './stores/fill-postgres.mjs';
import { fillSqlite, prepareSqlite, settleSqlite } from './stores/fill-sqlite.mjs';
import { measure, probeClient } from './stores/probe.mjs';
import { SPAN_MS, TASKS_PER_CONTEXT, taskAt } from './stores/tasks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const log = (msg) => process.stderr.write(`[scale:stores] ${msg}\n`);
const full = process.env.SCALE_FULL === '1';
const sizesOf = (text) =>
  text
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isSafeInteger(n) && n > 0)
    .sort((a, b) => a - b);
const SIZES = sizesOf(process.env.SCALE_TASKS ?? (full ? '10000,1000000,10000000' : '10000,100000'));
const PG_SIZES = sizesOf(
  process.env.SCALE_POSTGRES_TASKS ?? process.env.SCALE_TASKS ?? (full ? '10000,1000000' : '10000,100000'),
);
const PROBES = Number(process.env.SCALE_PROBES ?? (full ? 1000 : 200));
const SEND_SECONDS = Number(process.env.SCALE_SEND_SECONDS ?? (full ? 5 : 3));
const PG_URL = process.env.SCALE_POSTGRES_URL ?? process.env.BENCH_POSTGRES_URL;
const DATA_DIR = process.env.SCALE_DATA_DIR ?? join(here, '..', '.tmp', 'scale', 'stores-data');
const MIN_FREE_BYTES = 5 * 2 ** 30;
const SERVER = join(here, '..', 'servers', 'concord.mjs');
// The one time every task's times are measured from, so a grown store and a fresh one agree.
const NOW = Date.now();

// This process is the load generator's side: keep it off the server's core.
if (pinning.pinned) spawnSync('taskset', ['-pc', '1', String(process.pid)], { stdio: 'ignore' });

const freeBytes = (dir) => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};

/** The ListTasks shapes measured, each a query string given a random task `t` and the size. */
const RECENT = new Date(NOW - 3_600_000 * 6).toISOString();
const OLD = new Date(NOW - SPAN_MS + 86_400_000).toISOString();
const LIST_SHAPES = [
  ['no filter', () => 'pageSize=50'],
  ['contextId', (t) => `contextId=${t.values.contextId}`],
  ['status=completed', () => 'status=TASK_STATE_COMPLETED&pageSize=50'],
  // A sparse state a restart leaves alone (the filled working tasks are settled, restartSettled).
  ['status=input-required', () => 'status=TASK_STATE_INPUT_REQUIRED&pageSize=50'],
  ['after 6 h ago', () => `statusTimestampAfter=${RECENT}&pageSize=50`],
  ['after 29 d ago', () => `statusTimestampAfter=${OLD}&pageSize=50`],
  [
    'completed, after 6 h ago',
    () => `status=TASK_STATE_COMPLETED&statusTimestampAfter=${RECENT}&pageSize=50`,
  ],
  ['deep page', (t) => `pageSize=50&pageToken=${cursorAt(t)}`],
  ['deep page, completed', (t) => `status=TASK_STATE_COMPLETED&pageSize=50&pageToken=${cursorAt(t)}`],
];
/** The page token the store issues for a page ending at task `t` (src/store/page-token.ts). */
const cursorAt = (t) => encodePageToken({ statusKey: t.values.statusKey, taskId: t.values.taskId });

const okJson = (status) => (status === 200 ? undefined : 'not 200');

// The finish time before which retention sweeps have deleted tasks: reads pick none of them.
let sweptBefore = '';

/** The first of tasks i, i+1, ... that no sweep deleted. */
function existing(i) {
  for (;;) {
    const t = taskAt(i++, NOW);
    if (t.values.finishedAt >= sweptBefore) return t;
  }
}

/** A random existing task among the first `filled`, deterministic per (k, salt). */
const pick = (filled, k, salt) =>
  existing(Math.floor((((k + 1) * 0.7548776662466927 * (salt + 1)) % 1) * filled));

/**
 * Waits until the server has settled the tasks the fill left working (decision 0119: a SQLite
 * server fails, at start, the tasks a process before it left running, and the filled working
 * tasks look like those). Measuring during that would time a restart's recovery, thousands of
 * commits at a million tasks, not the store. Resolves how long it took and how many were left.
 */
async function restartSettled(client) {
  const started = performance.now();
  let first;
  for (;;) {
    const { status, body } = await client.get('/tasks?status=TASK_STATE_WORKING&pageSize=1');
    if (status !== 200) throw new Error(`ListTasks working: ${status} ${body.slice(0, 200)}`);
    const left = JSON.parse(body).totalSize;
    first ??= left;
    if (left === 0) return { tasks: first, seconds: (performance.now() - started) / 1000 };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Measures one served store of `filled` tasks; returns the row of numbers. */
async function measureServed(env, filled, kind) {
  const server = await startServer(SERVER, env);
  try {
    const url = `http://127.0.0.1:${server.port}/`;
    const client = probeClient(server.port);
    try {
      let restart;
      if (kind === 'sqlite') {
        restart = await restartSettled(client);
        log(`  restart settled ${restart.tasks} working tasks in ${restart.seconds.toFixed(1)} s`);
      }
      log(`  sends for ${SEND_SECONDS}s`);
      const sends = await runLoad({
        url,
        rpcMethod: 'message/send',
        connections: 16,
        duration: SEND_SECONDS,
      });
      const get = await measure(
        client,
        (k) => `/tasks/${pick(filled, k, 1).values.taskId}`,
        PROBES,
        (status, body) => (status !== 200 ? 'not 200' : body.includes('"id"') ? undefined : 'no task'),
      );
      log(`  GetTask p50 ${get.p50.toFixed(2)} ms p99 ${get.p99.toFixed(2)} ms`);
      const lists = {};
      for (const [name, query] of LIST_SHAPES) {
        lists[name] = await measure(client, (k) => `/tasks?${query(pick(filled, k, 2))}`, PROBES, okJson);
        log(`  ListTasks ${name}: p50 ${lists[name].p50.toFixed(2)} ms p99 ${lists[name].p99.toFixed(2)} ms`);
      }
      return {
        ...(restart === undefined ? {} : { restart }),
        sent: sends.total,
        sendsPerSec: sends.requestsPerSec,
        sendErrors: sends.non2xx + sends.errors + sends.mismatches,
        get,
        lists,
        rss: peakRssMiB(server.child.pid),
      };
    } finally {
      client.close();
    }
  } finally {
    await stopServer(server.child);
  }
}

/**
 * A retention sweep through the store's API: about one batch of the oldest expired tasks (the
 * cutoff placed where ~500 of `filled` evenly spread tasks fall before it), then the same sweep
 * again (nothing left to delete), then the count cap's check with a cap above the store's size
 * (`stored`, the filled tasks and those the sends created): what a store under its cap pays.
 */
async function measureRetention(store, filled, stored) {
  const oldest = NOW - SPAN_MS - 3_600_000;
  const cutoff = oldest + SPAN_MS * (500 / filled) + 3_600_000 * (500 / filled);
  const maxAgeMs = 86_400_000;
  const cutoffIso = new Date(cutoff).toISOString();
  if (cutoffIso > sweptBefore) sweptBefore = cutoffIso;
  let t = performance.now();
  const deleted = await store.deleteExpiredTasks(maxAgeMs, cutoff + maxAgeMs);
  const batchMs = performance.now() - t;
  t = performance.now();
  const again = await store.deleteExpiredTasks(maxAgeMs, cutoff + maxAgeMs);
  const emptyMs = performance.now() - t;
  t = performance.now();
  const overCap = await store.deleteTasksOverCap(stored * 2);
  const capMs = performance.now() - t;
  if (again !== 0 || overCap !== 0)
    throw new Error(`retention: a repeated sweep deleted ${again}, the cap ${overCap}`);
  log(
    `  retention: ${deleted} expired in ${batchMs.toFixed(1)} ms, empty sweep ${emptyMs.toFixed(1)} ms, cap check ${capMs.toFixed(1)} ms`,
  );
  return { deleted, batchMs, emptyMs, capMs };
}

/** Reads a filled task back through the store's `get` and `list`, as a served request would. */
async function verify(store, filled) {
  for (const i of [0, Math.floor(filled / 2), filled - 1]) {
    const t = existing(i);
    const got = await store.get(t.values.taskId, { tenant: '', owner: '' });
    const task = got?.task;
    // A working task a served size's restart has since settled reads back failed (decision 0119).
    const settled = t.state === 'TASK_STATE_WORKING' && task?.status.state === 'TASK_STATE_FAILED';
    if (
      task?.id !== t.values.taskId ||
      task.contextId !== t.values.contextId ||
      (task.status.state !== t.state && !settled) ||
      (task.status.timestamp !== t.values.finishedAt && !settled)
    ) {
      throw new Error(`filled task ${i} reads back wrong: ${JSON.stringify(task)?.slice(0, 300)}`);
    }
    const page = await store.list({ tenant: '', owner: '', contextId: t.values.contextId, pageSize: 10 });
    if (!page.tasks.some((x) => x.id === t.values.taskId) || page.totalSize > TASKS_PER_CONTEXT) {
      throw new Error(`filled task ${i} is not listed in its context (totalSize ${page.totalSize})`);
    }
  }
}

/** Raises SCALE_QUIET_FILE and lets other work settle; returns what lowers it again. */
async function quietPlease() {
  const file = process.env.SCALE_QUIET_FILE;
  if (!file) return () => undefined;
  writeFileSync(file, `${process.pid}\n`);
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.SCALE_QUIET_SETTLE_S ?? 30) * 1000));
  return () => rmSync(file, { force: true });
}

/** One store's curve: fill, verify, serve, sweep at each size. */
async function runStore(kind, sizes) {
  const rows = [];
  let filled = 0;
  let sqlitePath;
  let pgSchema;
  let prepared;
  let skipped;
  if (kind === 'sqlite') {
    mkdirSync(DATA_DIR, { recursive: true });
    sqlitePath = join(DATA_DIR, `tasks-${process.pid}.sqlite`);
    prepared = await prepareSqlite(sqlitePath);
  } else {
    pgSchema = `concord_scale_${process.pid}`;
    prepared = await preparePostgres(PG_URL, pgSchema);
  }
  const open = async () =>
    kind === 'sqlite'
      ? openSqliteTaskStore({ path: sqlitePath })
      : (await import('../../dist/store/postgres/index.js')).openPostgresStore({
          connectionString: PG_URL,
          schema: pgSchema,
        });
  const bytesUsed = async () => {
    if (kind === 'sqlite') return statSync(sqlitePath).size;
    const client = await connect(PG_URL, pgSchema);
    try {
      const { rows: r } = await client.query(
        `SELECT sum(pg_total_relation_size(c.oid))::float8 AS b FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [pgSchema],
      );
      return r[0].b;
    } finally {
      await client.end();
    }
  };
  try {
    for (const size of sizes) {
      if (filled > 0) {
        const perTask = (await bytesUsed()) / filled;
        const need = perTask * (size - filled);
        const free = freeBytes(kind === 'sqlite' ? DATA_DIR : '/');
        if (free - need < MIN_FREE_BYTES) {
          skipped = `${size.toLocaleString('en-US')} tasks skipped: the fill needs about ${(need / 2 ** 30).toFixed(0)} GiB, ${(free / 2 ** 30).toFixed(0)} GiB free`;
          log(skipped);
          break;
        }
      }
      log(`${kind}: filling ${filled.toLocaleString('en-US')} -> ${size.toLocaleString('en-US')}`);
      const started = performance.now();
      let lastLog = started;
      const progress = (done) => {
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          log(
            `  ${(filled + done).toLocaleString('en-US')} (${Math.round(done / ((lastLog - started) / 1000))}/s)`,
          );
        }
      };
      if (kind === 'sqlite') fillSqlite(sqlitePath, prepared, filled, size, NOW, progress);
      else {
        await fillPostgres(PG_URL, pgSchema, prepared, filled, size, NOW, progress);
        const client = await connect(PG_URL, pgSchema);
        // The counters too: the fill moved them a million times in a minute, where autovacuum keeps up
        // with a server's steady rate (decisions 0160, 0163).
        for (const table of ['tasks', 'task_events', 'idempotency_keys', 'task_counts', 'task_hours'])
          await client.query(`VACUUM ANALYZE ${table}`);
        await client.end();
      }
      const fillRate = (size - filled) / ((performance.now() - started) / 1000);
      // Flushed and its indexes read, as a server that has run on it would find it (settle*).
      const settling = performance.now();
      if (kind === 'sqlite') settleSqlite(sqlitePath);
      else await settlePostgres(PG_URL, pgSchema);
      log(`  settled (flushed, indexes read) in ${((performance.now() - settling) / 1000).toFixed(1)} s`);
      filled = size;
      const bytes = await bytesUsed();
      log(`  filled at ${Math.round(fillRate)} tasks/s, ${(bytes / filled).toFixed(0)} bytes per task`);
      let store = await open();
      await verify(store, filled);
      await store.close();
      const env =
        kind === 'sqlite'
          ? { BENCH_STORE: 'sqlite', BENCH_SQLITE_PATH: sqlitePath }
          : { BENCH_STORE: 'postgres', BENCH_POSTGRES_URL: PG_URL, BENCH_POSTGRES_SCHEMA: pgSchema };
      const quiet = await quietPlease();
      let served;
      let retention;
      try {
        served = await measureServed(env, filled, kind);
        store = await open();
        retention = await measureRetention(store, filled, filled + served.sent);
        await store.close();
      } finally {
        quiet();
      }
      rows.push({ size, fillRate, bytesPerTask: bytes / filled, ...served, retention });
    }
  } finally {
    if (sqlitePath) for (const suffix of ['', '-wal', '-shm']) rmSync(sqlitePath + suffix, { force: true });
    if (pgSchema) {
      const client = await connect(PG_URL, 'public');
      await client.query(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
      await client.end();
    }
  }
  return { rows, skipped };
}

const NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const setup = [
  `sizes: SQLite ${SIZES.join(', ')}; PostgreSQL ${PG_URL ? PG_SIZES.join(', ') : '–'} finished tasks (${TASKS_PER_CONTEXT} per context, finished over the last 30 days; 85% completed with a 0.5-1.2 KB artifact, the rest failed, canceled, input-required or working; 20% hold an idempotency key)`,
  `latencies: ${PROBES} requests per figure, one at a time over one keep-alive connection (A2A 1.0 HTTP+JSON); sends: ${loadGeneratorNote}, 16 connections, ${SEND_SECONDS} s`,
  pinning.note,
];
const STORES = (process.env.SCALE_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const rowsFile = (kind) => join(here, '..', '.tmp', 'scale', `stores-${kind}.rows.json`);
// The rows behind the plots in docs/ (SCALE_RECORD=1 writes them beside the plots), so a store
// left out of a run on a fresh checkout still has its recorded curve.
const recordedRowsFile = (kind) =>
  join(here, '..', '..', 'docs', 'images', 'scale', `stores-${kind}.rows.json`);
const results = {};
for (const [kind, sizes] of [
  ['sqlite', SIZES],
  ['postgres', PG_SIZES],
]) {
  if (!STORES.includes(kind)) {
    // Left out of this run: its last run's rows, or else the recorded ones, still make its curve.
    const file = [rowsFile(kind), recordedRowsFile(kind)].find((f) => existsSync(f));
    if (file !== undefined) {
      const earlier = JSON.parse(readFileSync(file, 'utf8'));
      results[kind] = earlier.result;
      setup.push(`${NAMES[kind]}: rows of an earlier run (${earlier.at}), not measured in this one`);
    }
    continue;
  }
  if (kind === 'postgres' && !PG_URL) {
    setup.push(
      'PostgreSQL skipped: set SCALE_POSTGRES_URL (or BENCH_POSTGRES_URL) to a database URL to measure it',
    );
    continue;
  }
  results[kind] = await runStore(kind, sizes);
  mkdirSync(dirname(rowsFile(kind)), { recursive: true });
  const rows = JSON.stringify({ at: new Date().toISOString(), result: results[kind] });
  writeFileSync(rowsFile(kind), rows);
  if (process.env.SCALE_RECORD === '1') {
    mkdirSync(dirname(recordedRowsFile(kind)), { recursive: true });
    writeFileSync(recordedRowsFile(kind), rows);
  }
  if (results[kind].skipped) setup.push(`${NAMES[kind]}: ${results[kind].skipped}`);
}

const ms = (v) => Number(v.toFixed(v < 10 ? 2 : 1));
const tables = [];
const curves = [];
const summary = [];
const series = (metric) =>
  Object.entries(results).map(([kind, r]) => ({
    name: NAMES[kind],
    points: r.rows.map((row) => [row.size, metric(row)]),
  }));
for (const [kind, r] of Object.entries(results)) {
  tables.push({
    title: `${NAMES[kind]}: writes, reads and retention by size`,
    columns: [
      'tasks',
      'fill tasks/s',
      'bytes/task',
      'restart: working tasks settled (s)',
      'sends/s',
      'send errors',
      'GetTask p50 ms',
      'GetTask p99 ms',
      'server peak RSS MiB',
      'expired deleted',
      'sweep ms',
      'empty sweep ms',
      'cap check ms',
    ],
    rows: r.rows.map((row) => [
      row.size,
      row.fillRate,
      row.bytesPerTask,
      row.restart === undefined ? '–' : `${row.restart.tasks} (${row.restart.seconds.toFixed(1)})`,
      row.sendsPerSec,
      row.sendErrors,
      ms(row.get.p50),
      ms(row.get.p99),
      row.rss,
      row.retention.deleted,
      ms(row.retention.batchMs),
      ms(row.retention.emptyMs),
      ms(row.retention.capMs),
    ]),
  });
  tables.push({
    title: `${NAMES[kind]}: ListTasks p50 / p99 (ms) by size`,
    columns: ['tasks', ...LIST_SHAPES.map(([name]) => name)],
    rows: r.rows.map((row) => [
      row.size,
      // A shape an earlier run's rows (SCALE_STORES) did not measure shows as '–'.
      ...LIST_SHAPES.map(([name]) =>
        row.lists[name] === undefined ? '–' : `${ms(row.lists[name].p50)} / ${ms(row.lists[name].p99)}`,
      ),
    ]),
  });
  curves.push({
    id: `stores-list-${kind}`,
    title: `${NAMES[kind]}: ListTasks p99 by filter`,
    x: { label: 'stored tasks', log: true },
    y: { label: 'ms', log: true },
    series: LIST_SHAPES.map(([name]) => ({
      name,
      points: r.rows
        .filter((row) => row.lists[name] !== undefined)
        .map((row) => [row.size, ms(row.lists[name].p99)]),
    })),
  });
}
curves.unshift(
  {
    id: 'stores-sends',
    title: 'Task-creating sends per second',
    x: { label: 'stored tasks', log: true },
    y: { label: 'sends/s' },
    series: series((row) => Math.round(row.sendsPerSec)),
  },
  {
    id: 'stores-get',
    title: 'GetTask p99',
    x: { label: 'stored tasks', log: true },
    y: { label: 'ms' },
    series: series((row) => ms(row.get.p99)),
  },
  {
    id: 'stores-retention',
    title: 'Retention: sweep finding nothing, and the cap check',
    x: { label: 'stored tasks', log: true },
    y: { label: 'ms', log: true },
    series: [
      ...series((row) => ms(row.retention.emptyMs)).map((s) => ({ ...s, name: `${s.name} empty sweep` })),
      ...series((row) => ms(row.retention.capMs)).map((s) => ({ ...s, name: `${s.name} cap check` })),
    ],
  },
);
for (const [kind, r] of Object.entries(results)) {
  if (r.rows.length < 2) continue;
  const [a, b] = [r.rows[0], r.rows.at(-1)];
  const ratio = (x, y) => `${ms(x)} → ${ms(y)} (×${(y / x).toFixed(2)})`;
  summary.push(
    `${NAMES[kind]} ${a.size.toLocaleString('en-US')} → ${b.size.toLocaleString('en-US')} tasks: sends/s ${ratio(a.sendsPerSec, b.sendsPerSec)}; GetTask p99 ${ratio(a.get.p99, b.get.p99)} ms`,
  );
  const worst = LIST_SHAPES.filter(([name]) => a.lists[name] !== undefined && b.lists[name] !== undefined)
    .map(([name]) => [name, b.lists[name].p99 / a.lists[name].p99])
    .sort((x, y) => y[1] - x[1])[0];
  summary.push(
    `${NAMES[kind]} ListTasks p99, steepest shape: ${worst[0]} ${ratio(a.lists[worst[0]].p99, b.lists[worst[0]].p99)} ms; empty retention sweep ${ratio(a.retention.emptyMs, b.retention.emptyMs)} ms; cap check ${ratio(a.retention.capMs, b.retention.capMs)} ms`,
  );
}

const result = { part: 'stores', heading: 'Store size curves', setup, tables, curves, summary };
const out = process.env.SCALE_RESULT ?? join(here, '..', '.tmp', 'scale', 'stores.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2));
log(`result written to ${out}`);
