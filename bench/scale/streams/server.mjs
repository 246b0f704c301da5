// The Concord server of the streams scale part (bench/scale/streams.mjs): an agent whose tasks stay
// working until told otherwise, served over HTTP (JSON-RPC and HTTP+JSON, SSE streams) and gRPC,
// with a small control channel of its own on CONTROL_PORT that the part drives:
//
//   POST /emit/<taskId>   the task's executor emits a working status update whose message text is
//                         `t=<ms>;`, <ms> being performance.timeOrigin + performance.now() taken
//                         just before the updater call: the event's commit (the store's write, the
//                         hub's publish) and its delivery both come after that instant
//   POST /finish          every waiting task completes, which ends its streams
//   GET  /mem             memory after two full collections: { rss, heapUsed, external, arrayBuffers }
//
// Environment: PORT, GRPC_PORT, CONTROL_PORT; STREAMS_STORE 'sqlite' (default, what `concord serve`
// uses) or 'memory'; STREAMS_HEARTBEAT_MS (the SSE heartbeat interval, the server's default when
// unset). Started with --expose-gc so /mem can collect first.

import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createA2AServer } from '../../../dist/server/index.js';
import { disablePretenuring, limitHeapGrowth } from '../../../dist/cli/serve/process-tuning.js';
import { listen } from '../../../dist/server/adapters/node.js';
import { createMemoryTaskStore } from '../../../dist/store/index.js';
import { openSqliteTaskStore } from '../../../dist/store/sqlite/index.js';
import { listenGrpc } from '../../../dist/server/grpc/index.js';

// What `concord serve` does at start (bench/servers/concord.mjs does the same).
disablePretenuring();
limitHeapGrowth();

const kind = process.env.STREAMS_STORE ?? 'sqlite';
const dataDir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'concord-scale-streams-')) : null;
const store =
  kind === 'sqlite' ? openSqliteTaskStore({ path: join(dataDir, 'tasks.sqlite') }) : createMemoryTaskStore();

/** Task id → how to reach its parked execution. */
const waiting = new Map();

const server = createA2AServer({
  agentCard: {
    name: 'scale-streams',
    description: 'tasks that stay working until the benchmark says',
    version: '1.0.0',
    supportedInterfaces: [],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'wait', name: 'wait', description: 'waits', tags: ['wait'] }],
  },
  ...(process.env.STREAMS_HEARTBEAT_MS ? { heartbeatMs: Number(process.env.STREAMS_HEARTBEAT_MS) } : {}),
  executor: {
    execute(ctx, updater) {
      updater.startWork();
      return new Promise((resolve) => {
        const done = () => {
          waiting.delete(ctx.taskId);
          resolve();
        };
        waiting.set(ctx.taskId, {
          updater,
          finish: () => {
            updater.complete();
            done();
          },
        });
        ctx.signal.addEventListener('abort', done, { once: true });
      });
    },
  },
  store,
});

const grpc = await listenGrpc(server, { port: Number(process.env.GRPC_PORT), host: '127.0.0.1' });
// The listener's default connection cap is three quarters of the file limit, at most 8,192
// (decision 0146): an operator serving 10,000 streams raises it, as this server does.
const running = await listen(server, {
  port: Number(process.env.PORT),
  host: '127.0.0.1',
  maxConnections: Number(process.env.SCALE_MAX_CONNECTIONS ?? 16_000),
});

function memory() {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

const control = createServer((req, res) => {
  const answer = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method === 'POST' && req.url.startsWith('/emit/')) {
    const entry = waiting.get(decodeURIComponent(req.url.slice('/emit/'.length)));
    if (entry === undefined) return answer(404, { error: 'no such waiting task' });
    const at = performance.timeOrigin + performance.now();
    entry.updater.updateStatus('TASK_STATE_WORKING', `t=${at.toFixed(3)};`);
    return answer(200, { at });
  }
  if (req.method === 'POST' && req.url === '/finish') {
    const entries = [...waiting.values()];
    for (const entry of entries) entry.finish();
    return answer(200, { finished: entries.length });
  }
  if (req.method === 'GET' && req.url === '/mem') return answer(200, memory());
  answer(404, { error: 'unknown control request' });
});
await new Promise((resolve) => control.listen(Number(process.env.CONTROL_PORT), '127.0.0.1', resolve));
process.stdout.write(`READY ${JSON.stringify({ path: '/' })}\n`);

process.on('SIGTERM', async () => {
  control.close();
  await grpc.close();
  await running.close();
  await store.close?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
