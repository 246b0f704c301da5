// The server of the long-tasks part (bench/scale/long-tasks.mjs): Concord on node:http with an
// agent whose one task grows on command, so the part can measure reads and commits of a task of
// 1,000, 10,000, 100,000 events without restarting anything.
//
// The agent's executor never ends: it starts the task (working, so it can be subscribed to, A2A
// 1.0 §3.1.6) and then waits for commands on a side HTTP port (CONTROL_PORT, JSON bodies):
//   POST /grow    {events, batch}  emit `events` more events, `batch` per commit (each batch in
//                                  one tick joins one commit), each batch awaited until durable
//   POST /commits {count}          emit `count` events one commit each, awaited until durable;
//                                  answers each one's emit→durable ms and the store's commit ms
// The mix is what a working agent sends (A2A 1.0 §4.2): status updates carrying an agent message
// (they join the history) and artifact updates appending a chunk to a transcript artifact.
//
// SCALE_STORE picks the store: sqlite (a fresh file, removed on exit; the default), memory, or
// postgres (a fresh schema in SCALE_POSTGRES_URL, dropped on exit). Imports the built dist/.

import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createA2AServer } from '../../../dist/server/index.js';
import { disablePretenuring, limitHeapGrowth } from '../../../dist/cli/serve/process-tuning.js';
import { listen } from '../../../dist/server/adapters/node.js';
import { createMemoryTaskStore } from '../../../dist/store/index.js';
import { openSqliteTaskStore } from '../../../dist/store/sqlite/index.js';
import { agentCard, openScaleStore, watchCommits } from './scale-store.mjs';

disablePretenuring();
limitHeapGrowth();

const kind = process.env.SCALE_STORE ?? 'sqlite';
const opened = await openScaleStore(kind, { createMemoryTaskStore, openSqliteTaskStore });
const { store, commits } = watchCommits(opened.store);

// A status message of about 120 characters and an artifact chunk of about 240: a model's step
// note and a slice of its output, the sizes a chatty agent streams.
const NOTE = ' '.padEnd(100, 'thinking about the next step; ');
const CHUNK = ' '.padEnd(220, 'lorem ipsum dolor sit amet, consectetur adipiscing elit; ');

/** The one running task's handle, set once its executor started. */
let agent;
let emitted = 0;
let started;
const startedOnce = new Promise((resolve) => (started = resolve));

function emitOne(updater) {
  const i = ++emitted;
  if (i % 2 === 1) {
    updater.updateStatus('TASK_STATE_WORKING', `step ${i}:${NOTE}`);
  } else {
    updater.addArtifact([{ text: `chunk ${i}:${CHUNK}` }], {
      artifactId: 'transcript',
      name: 'transcript',
      append: i > 2,
    });
  }
}

const server = createA2AServer({
  agentCard: agentCard('long-task', 'an agent whose task grows on command'),
  executor: {
    async execute(ctx, updater) {
      updater.startWork('starting');
      agent = { updater, taskId: ctx.taskId };
      // The task's first commit must be durable before commands count versions from it.
      await commits.durable(ctx.taskId, 1);
      started();
      // Never returns: the task stays working for as long as the benchmark reads it.
      await new Promise(() => {});
    },
  },
  store,
});

/** Emits `n` events in one tick (one commit) and resolves once they are durable. */
async function burst(n) {
  const target = commits.version(agent.taskId) + n;
  for (let i = 0; i < n; i++) emitOne(agent.updater);
  await commits.durable(agent.taskId, target);
}

const control = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  const args = body === '' ? {} : JSON.parse(body);
  try {
    await startedOnce;
    let answer;
    if (req.url === '/grow') {
      const t0 = performance.now();
      for (let left = args.events; left > 0; left -= args.batch) await burst(Math.min(args.batch, left));
      answer = { ms: performance.now() - t0 };
    } else if (req.url === '/commits') {
      const durable = [];
      const store = [];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < args.count; i++) {
        const t0 = performance.now();
        commits.lastCommitMs = 0;
        await burst(1);
        durable.push(performance.now() - t0);
        store.push(commits.lastCommitMs);
      }
      const cpu = process.cpuUsage(cpu0);
      answer = { durable, store, cpuMsPerCommit: (cpu.user + cpu.system) / 1000 / args.count };
    } else if (req.url === '/state') {
      answer = { taskId: agent.taskId, version: commits.version(agent.taskId), events: emitted };
    } else {
      res.writeHead(404).end();
      return;
    }
    answer.version = commits.version(agent.taskId);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  } catch (error) {
    res.writeHead(500).end(String(error?.stack ?? error));
  }
});
await new Promise((resolve) => control.listen(Number(process.env.CONTROL_PORT), '127.0.0.1', resolve));

const running = await listen(server, { port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write(`READY ${JSON.stringify({ path: '/' })}\n`);

process.on('SIGTERM', async () => {
  control.close();
  control.closeAllConnections();
  // The executor never ends; closing drops its task's open streams and the store.
  await running.close().catch(() => {});
  await store.close?.();
  await opened.cleanup();
  process.exit(0);
});
