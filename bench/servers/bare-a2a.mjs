// The ideal A2A server: the floor under any real implementation, measured in the same run.
//
// Like bare.mjs it reads the POST body and JSON.parses it; then it does only the work that no
// A2A server can skip for a non-streaming `message/send`: read the message, mint task, context
// and artifact ids, stamp the status time, and serialise a fresh completed task (history and
// artifact included) as the JSON-RPC result. No validation, no state machine, no store, no
// agent call. Its ratio to bare shows how much of the bare limit the protocol itself costs.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { freshTask, onJsonCall, sendJson } from '../lib/json-call.mjs';

const server = createServer(
  onJsonCall((call, res) => {
    const task = freshTask(call.params.message, randomUUID);
    sendJson(res, JSON.stringify({ jsonrpc: '2.0', id: call.id, result: task }));
  }),
);

server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write('READY {"path":"/"}\n');
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
