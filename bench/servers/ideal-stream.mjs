// The ideal streaming A2A server: the floor under any server's SSE answer to `message/stream`,
// measured in the same run as Concord's streams (issue 27, item 5).
//
// Like bare-a2a.mjs it reads and parses the body and mints fresh ids; then it writes, as an SSE
// stream, the three events Concord writes for the echo agent: the task first, then its artifact
// update, then the status update with `final: true` (A2A 1.0 §3.1.2; decision 0004), each
// a JSON-RPC response carrying the request's id in one `data:` line (SSE framing as in A2A 1.0
// §9.4.2), with the `id:` line by which Concord's clients resume (decision 0004). The bytes match
// Concord's but for ids and times.
//
// One `write` per event: a streaming server writes each event when it exists, not knowing whether
// the next one will follow in the same turn, so the chunked framing of each event is part of the
// floor. The writes are corked and `end()` uncorks them, so a stream that ends within its turn
// leaves in one system call, as Concord's node adapter manages by corking until the end of the
// turn (docs/performance.md, 'End-of-turn writes'). No validation, no state machine, no event log,
// no store, no agent call, no heartbeats, no backpressure wait (the answer is three small writes).

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { onJsonCall } from '../lib/json-call.mjs';

// The headers Concord sends with a stream (src/server/http/sse-body.ts, SSE_HEADERS): the same
// bytes on the wire.
const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/** The stream's events for `message`: the submitted task, its echo artifact, the final status. */
function streamEvents(message) {
  const taskId = randomUUID();
  const contextId = randomUUID();
  const submitted = {
    kind: 'task',
    id: taskId,
    contextId,
    status: { state: 'submitted', timestamp: new Date().toISOString() },
    history: [{ ...message, contextId, taskId }],
  };
  const artifact = {
    kind: 'artifact-update',
    taskId,
    contextId,
    artifact: { artifactId: randomUUID(), parts: [{ kind: 'text', text: 'echo: ' + message.parts[0].text }] },
  };
  const completed = {
    kind: 'status-update',
    taskId,
    contextId,
    status: { state: 'completed', timestamp: new Date().toISOString() },
    final: true,
  };
  return [submitted, artifact, completed];
}

const server = createServer(
  onJsonCall((call, res) => {
    const id = JSON.stringify(call.id ?? null);
    res.cork();
    res.writeHead(200, SSE_HEADERS);
    const events = streamEvents(call.params.message);
    for (let i = 0; i < events.length; i++) {
      res.write(`id: ${i + 1}\ndata: {"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(events[i])}}\n\n`);
    }
    res.end();
  }),
);

server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write('READY {"path":"/"}\n');
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
