// Bare node:http server: the practical ceiling for the A2A servers in the benchmark.
//
// It does the unavoidable work every JSON-RPC server does — read the whole POST body, JSON.parse
// it, echo the request id — and then writes a pre-serialised reply: a small completed task with
// the same "echo: hello" artifact the real agents produce (the harness always sends "hello").
// No task store, no validation, no framework. `message/stream` gets a fixed three-event SSE reply
// so the streaming run has a ceiling too.

import { createServer } from 'node:http';
import { onJsonCall, sendJson } from '../lib/json-call.mjs';

// BENCH_BUSY_US adds that much CPU (a busy-wait) to each request: the bare server at another
// server's cost per request, to tell what comes from the cost alone (docs/performance.md,
// 'Steady-state latency').
const BUSY_NS = BigInt(Math.round(Number(process.env.BENCH_BUSY_US ?? 0) * 1000));
// BENCH_TURN_WRITES=1 writes send replies at the end of the event-loop turn, all together, as
// Concord's node adapter does (docs/performance.md, 'End-of-turn writes'): the limit for a server that uses the same trick.
const TURN_WRITES = process.env.BENCH_TURN_WRITES === '1';
let turn = [];
const writeTurn = () => {
  const ready = turn;
  turn = [];
  for (let i = 0; i < ready.length; i += 2) sendJson(ready[i], ready[i + 1]);
};

const task = (extra) => ({
  kind: 'task',
  id: 'task-1',
  contextId: 'ctx-1',
  status: { state: 'completed', timestamp: '2025-01-01T00:00:00.000Z' },
  ...extra,
});
const artifact = { artifactId: 'a-1', parts: [{ kind: 'text', text: 'echo: hello' }] };

// Split around the id so each reply is two constant strings and the stringified id.
const SEND_HEAD = '{"jsonrpc":"2.0","id":';
const SEND_TAIL = `,"result":${JSON.stringify(task({ artifacts: [artifact] }))}}`;

const STREAM_RESULTS = [
  task({ status: { state: 'submitted' } }),
  { kind: 'artifact-update', taskId: 'task-1', contextId: 'ctx-1', artifact, lastChunk: true },
  {
    kind: 'status-update',
    taskId: 'task-1',
    contextId: 'ctx-1',
    status: { state: 'completed' },
    final: true,
  },
].map((r) => `,"result":${JSON.stringify(r)}}\n\n`);

const server = createServer(
  onJsonCall((call, res) => {
    if (BUSY_NS > 0n) {
      const until = process.hrtime.bigint() + BUSY_NS;
      while (process.hrtime.bigint() < until);
    }
    const id = JSON.stringify(call.id ?? null);
    if (call.method === 'message/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const r of STREAM_RESULTS) res.write(`data: ${SEND_HEAD}${id}${r}`);
      res.end();
      return;
    }
    const body = SEND_HEAD + id + SEND_TAIL;
    if (!TURN_WRITES) return sendJson(res, body);
    if (turn.push(res, body) === 2) setImmediate(writeTurn);
  }),
);

server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write('READY {"path":"/"}\n');
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
