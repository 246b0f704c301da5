// Store micro-benchmark (`npm run build && node bench/store-micro.mjs`): commits per second of the
// memory and SQLite TaskStores with 1 and 64 concurrent writers, and the cost of a get and of a
// first ListTasks page once the store is full. Each writer plays the task runner's usual life of a
// task: create (submitted + user message), working, completed with an artifact: three commits.
//
// Environment: STORE_BENCH_SECONDS (per run, default 2), STORE_BENCH_WRITERS (default "1,64").

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMemoryTaskStore } from '../dist/store/index.js';
import { openSqliteTaskStore } from '../dist/store/sqlite/index.js';

const SECONDS = Number(process.env.STORE_BENCH_SECONDS ?? 2);
const WRITERS = (process.env.STORE_BENCH_WRITERS ?? '1,64').split(',').map(Number);
const scope = { tenant: '', owner: '' };

function status(state) {
  return { state, timestamp: new Date().toISOString() };
}

/** One task's life in three commits; returns how many commits it made. */
async function lifecycle(store, id) {
  const message = {
    messageId: `m-${id}`,
    role: 'ROLE_USER',
    parts: [{ text: 'Hello, agent. Please echo this.' }],
  };
  let task = { id, contextId: `ctx-${id}`, status: status('TASK_STATE_SUBMITTED'), history: [message] };
  let version = await store.commit({ ...scope, task, expectedVersion: 0, events: [{ task }] });
  task = { ...task, status: status('TASK_STATE_WORKING') };
  const working = { statusUpdate: { taskId: id, contextId: task.contextId, status: task.status } };
  version = await store.commit({ ...scope, task, expectedVersion: version, events: [working] });
  const artifact = { artifactId: `a-${id}`, parts: [{ text: 'Hello, agent. Please echo this.' }] };
  task = { ...task, artifacts: [artifact], status: status('TASK_STATE_COMPLETED') };
  const events = [
    { artifactUpdate: { taskId: id, contextId: task.contextId, artifact, lastChunk: true } },
    { statusUpdate: { taskId: id, contextId: task.contextId, status: task.status } },
  ];
  await store.commit({ ...scope, task, expectedVersion: version, events });
  return 3;
}

let run = 0;

async function measure(store, writers) {
  const prefix = `r${run++}`;
  let next = 0;
  let commits = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < deadline) {
        const made = await lifecycle(store, `${prefix}-${next++}`);
        commits += made;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  const cpuUsPerCommit = (used.user + used.system) / commits;
  return {
    commits,
    cpuUsPerCommit,
    seconds: (performance.now() - started) / 1000,
    tasks: next,
    lastId: `${prefix}-${next - 1}`,
  };
}

async function readCosts(store, lastId) {
  const rounds = 20_000;
  let started = performance.now();
  for (let i = 0; i < rounds; i++) await store.get(lastId, scope);
  const getUs = ((performance.now() - started) * 1000) / rounds;
  started = performance.now();
  for (let i = 0; i < 50; i++) await store.list({ ...scope, pageSize: 50 });
  const listMs = (performance.now() - started) / 50;
  return { getUs, listMs };
}

const dir = mkdtempSync(join(tmpdir(), 'concord-store-bench-'));
const stores = [
  ['memory', () => createMemoryTaskStore()],
  ['sqlite', (writers) => openSqliteTaskStore({ path: join(dir, `tasks-${writers}.db`) })],
];
const rows = [];
try {
  for (const [name, open] of stores) {
    for (const writers of WRITERS) {
      const store = open(writers);
      await measure(store, writers === 1 ? 1 : 8); // warm up JIT and statement caches
      const { commits, cpuUsPerCommit, seconds, tasks, lastId } = await measure(store, writers);
      const { getUs, listMs } = await readCosts(store, lastId);
      await store.close();
      const row = {
        store: name,
        writers,
        commitsPerSec: Math.round(commits / seconds),
        cpuUsPerCommit,
        tasks,
        getUs,
        listMs,
      };
      rows.push(row);
      process.stderr.write(`${name} x${writers}: ${row.commitsPerSec} commits/s\n`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `| store | writers | commits/s | CPU µs/commit | tasks written | get (µs) | list page of 50 (ms) |`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|`);
for (const r of rows) {
  console.log(
    `| ${r.store} | ${r.writers} | ${r.commitsPerSec} | ${r.cpuUsPerCommit.toFixed(1)} | ${r.tasks} | ${r.getUs.toFixed(2)} | ${r.listMs.toFixed(2)} |`,
  );
}
