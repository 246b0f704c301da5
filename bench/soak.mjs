// Soak (`npm run soak`): `concord serve examples/echo` as an operator starts it (the built CLI,
// SERVING_NODE_OPTIONS, the SQLite store in a fresh data directory, the default retention unless
// SOAK_SERVE_ARGS says otherwise) under a mixed A2A 1.0 load for a bounded time
// (bench/lib/soak-load.mjs: sends on JSON-RPC and HTTP+JSON, streams, gets and lists). Every
// window it samples the server: resident memory (VmRSS), open files (/proc/<pid>/fd), the database
// on disk (tasks.db with its -wal and -shm), the tasks it keeps (ListTasks totalSize), its CPU, and
// the window's request rate, tasks created per second, errors and latency. Prints a markdown table
// and the start and end figures (also written to bench/.tmp/soak-last.md). The server runs on
// core 0 and the load on core 1 where taskset is available.
//
// Environment: SOAK_DURATION (s of load, default 180), SOAK_SAMPLE (s per window, default 15),
// SOAK_CONNECTIONS (default 16), SOAK_RATE (sends per second, default 0: as fast as the server
// answers), SOAK_SERVE_ARGS (more `concord serve` flags, e.g. "--retention off" or
// "--retention-max-tasks 20000"), SOAK_KEEP=1 (keep the data directory).

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachine } from './lib/machine.mjs';
import { pinning, spawnNodeOn } from './lib/pin.mjs';
import { errorLine, rssMiB, stopServer } from './lib/server-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const env = process.env;

function numberFrom(name, fallback, min) {
  const value = Number(env[name] ?? fallback);
  if (!Number.isFinite(value) || value < min)
    throw new RangeError(`${name} must be a number of at least ${min}, got ${env[name]}`);
  return value;
}
const DURATION = numberFrom('SOAK_DURATION', 180, 1);
const SAMPLE = numberFrom('SOAK_SAMPLE', 15, 1);
const CONNECTIONS = numberFrom('SOAK_CONNECTIONS', 16, 1);
const RATE = numberFrom('SOAK_RATE', 0, 0);
const SERVE_ARGS = (env.SOAK_SERVE_ARGS ?? '').split(/\s+/).filter(Boolean);

const { SERVING_NODE_OPTIONS } = await import('../dist/cli/serve/process-tuning.js');
const dataDir = mkdtempSync(join(tmpdir(), 'concord-soak-'));
const log = (line) => process.stderr.write(`${line}\n`);

/** Starts the server; resolves { child, url, banner } once it serves. */
function startConcord() {
  const args = [
    ...SERVING_NODE_OPTIONS.split(' '),
    join(root, 'dist/cli/main.js'),
    'serve',
    join(root, 'examples/echo'),
    '--port',
    '0',
    '--data-dir',
    dataDir,
    ...SERVE_ARGS,
  ];
  const child = spawnNodeOn(0, args, {
    env: { ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 20 s: ${errorLine(stderr)}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`concord serve exited (${code}): ${errorLine(stderr)}`)));
    child.stdout.setEncoding('utf8').on('data', function onData(chunk) {
      stdout += chunk;
      const url = / at (http:\/\/\S+\/)/.exec(stdout)?.[1];
      if (url === undefined || !stdout.includes('task retention:')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout.off('data', onData).resume();
      resolve({ child, url, banner: stdout });
    });
  });
}

/** A file's size in MiB, 0 when it is not there (yet). */
function sizeMiB(name) {
  try {
    return statSync(join(dataDir, name)).size / 1048576;
  } catch {
    return 0;
  }
}

/** The database on disk: the file, its WAL and its shared-memory index, and the WAL alone. */
const database = () => ({
  db: sizeMiB('tasks.db') + sizeMiB('tasks.db-wal') + sizeMiB('tasks.db-shm'),
  wal: sizeMiB('tasks.db-wal'),
});

const openFiles = (pid) => readdirSync(`/proc/${pid}/fd`).length;

/** CPU seconds the process has used (user + system). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function tasksKept(url) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: { pageSize: 1 } }),
  });
  return (await response.json()).result?.totalSize ?? NaN;
}

function sample(pid) {
  return { rss: rssMiB(pid), fds: openFiles(pid), ...database(), cpu: cpuSeconds(pid), at: Date.now() };
}

const fmt = (n, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '-';

const machine = await describeMachine();
// Other processes on this machine: the load average (1 min) when the soak starts and ends.
const loadAtStart = loadavg()[0];
const { child, url, banner } = await startConcord();
const pid = child.pid;
const retentionLine = /task retention: (.*)/.exec(banner)?.[1] ?? '?';
log(`concord serve (pid ${pid}) at ${url}; task retention: ${retentionLine}`);
log(
  `${DURATION} s of load, ${CONNECTIONS} connections, ${RATE > 0 ? `${RATE} sends/s` : 'unpaced'}; ${pinning.note}`,
);

// The figures at the start: the server up, no load yet.
await new Promise((resolve) => setTimeout(resolve, 1000));
const start = { ...sample(pid), kept: await tasksKept(url) };
const rows = [];
let previous = start;

const load = spawnNodeOn(
  1,
  [
    join(here, 'lib/soak-load.mjs'),
    JSON.stringify({ url, connections: CONNECTIONS, durationS: DURATION, sampleS: SAMPLE, rate: RATE }),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let pending = '';
let firstError;
const finished = new Promise((resolve, reject) => {
  load.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`load generator exited ${code}`))));
  load.stdout.setEncoding('utf8').on('data', async (chunk) => {
    pending += chunk;
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = JSON.parse(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      if (line.done === true) continue;
      const now = sample(pid);
      const seconds = (now.at - previous.at) / 1000;
      const requests = Object.values(line.counts).reduce((a, b) => a + b, 0);
      firstError ??= line.firstError;
      const row = {
        ...now,
        atS: line.atS,
        reqPerS: requests / seconds,
        created: line.created,
        tasksPerS: line.created / seconds,
        errors: line.errors,
        p50: line.p50,
        p99: line.p99,
        cpuPct: ((now.cpu - previous.cpu) / seconds) * 100,
        kept: await tasksKept(url).catch(() => NaN),
      };
      previous = now;
      rows.push(row);
      log(
        `t=${row.atS}s req/s ${fmt(row.reqPerS)} tasks/s ${fmt(row.tasksPerS)} RSS ${fmt(row.rss, 1)} MiB fds ${row.fds} db ${fmt(row.db, 1)} MiB kept ${fmt(row.kept)} errors ${row.errors}`,
      );
    }
  });
});
await finished;
// Settled: the last sweep done, the WAL checkpointed by the server's own worker.
await new Promise((resolve) => setTimeout(resolve, 2000));
const end = { ...sample(pid), kept: await tasksKept(url) };
await stopServer(child);

const created = rows.reduce((sum, row) => sum + row.created, 0);
const minutes = (rows.at(-1)?.atS ?? DURATION) / 60;
// Growth over the last minute: once at its cap, a bounded store stops growing.
const last = rows.at(-1);
const minuteBefore = rows.findLast((row) => row.atS <= last.atS - 60) ?? start;
const lateGrowth = ((last.db - minuteBefore.db) / ((last.at - minuteBefore.at) / 1000)) * 60;

const lines = [
  `Soak of \`concord serve examples/echo\` (SQLite): ${machine[0]}; ${machine[1]}`,
  '',
  `- task retention: ${retentionLine}${SERVE_ARGS.length > 0 ? ` (flags: \`${SERVE_ARGS.join(' ')}\`)` : ' (the default)'}`,
  `- load: ${fmt(DURATION)} s, ${CONNECTIONS} connections, ${RATE > 0 ? `${RATE} sends/s` : 'unpaced'}; 45% SendMessage on JSON-RPC, 30% message:send on HTTP+JSON, 10% streamed sends, 10% GetTask, 5% ListTasks; ${pinning.note}`,
  `- load average (1 min) of the machine: ${fmt(loadAtStart, 1)} at the start, ${fmt(loadavg()[0], 1)} at the end`,
  `- tasks created: ${fmt(created)} (${fmt(created / minutes / 60)} per second)${firstError === undefined ? '' : `; first error: ${firstError}`}`,
  '',
  '| t (s) | req/s | tasks/s | p50 / p99 (ms) | errors | server CPU | RSS (MiB) | open files | database (MiB) | of which WAL | tasks kept |',
  '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  `| start | | | | | | ${fmt(start.rss, 1)} | ${start.fds} | ${fmt(start.db, 1)} | ${fmt(start.wal, 1)} | ${fmt(start.kept)} |`,
  ...rows.map(
    (r) =>
      `| ${r.atS} | ${fmt(r.reqPerS)} | ${fmt(r.tasksPerS)} | ${fmt(r.p50, 1)} / ${fmt(r.p99, 1)} | ${r.errors} | ${fmt(r.cpuPct)}% | ${fmt(r.rss, 1)} | ${r.fds} | ${fmt(r.db, 1)} | ${fmt(r.wal, 1)} | ${fmt(r.kept)} |`,
  ),
  `| end (2 s after) | | | | | | ${fmt(end.rss, 1)} | ${end.fds} | ${fmt(end.db, 1)} | ${fmt(end.wal, 1)} | ${fmt(end.kept)} |`,
  '',
  `Start → end: RSS ${fmt(start.rss, 1)} → ${fmt(end.rss, 1)} MiB, open files ${start.fds} → ${end.fds}, database ${fmt(start.db, 1)} → ${fmt(end.db, 1)} MiB (${fmt((end.db - start.db) / minutes, 1)} MiB per minute over the run, ${fmt(lateGrowth, 1)} MiB per minute over its last minute), tasks kept ${fmt(start.kept)} → ${fmt(end.kept)}.`,
];
const report = lines.join('\n');
process.stdout.write(`${report}\n`);
mkdirSync(join(here, '.tmp'), { recursive: true });
writeFileSync(join(here, '.tmp/soak-last.md'), `${report}\n`);
if (env.SOAK_KEEP === '1') log(`data directory kept: ${dataDir}`);
else rmSync(dataDir, { recursive: true, force: true });
