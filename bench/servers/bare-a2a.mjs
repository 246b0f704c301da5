// The ideal A2A server: the floor under any real implementation, measured in the same run.
//
// Like bare.mjs it reads the POST body and JSON.parses it; then it does only the work that no
// A2A server can skip for a non-streaming `message/send`: read the message, mint task, context
// and artifact ids, stamp the status time, and serialise a fresh completed task (history and
// artifact included) as the JSON-RPC result. No validation, no state machine, no store, no
// agent call. Its ratio to bare shows how much of the bare limit the protocol itself costs.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let call;
    try {
      call = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
      return;
    }
    const message = call.params.message;
    const text = message.parts[0].text;
    const id = randomUUID();
    const contextId = randomUUID();
    const task = {
      kind: 'task',
      id,
      contextId,
      status: { state: 'completed', timestamp: new Date().toISOString() },
      history: [{ ...message, taskId: id, contextId }],
      artifacts: [{ artifactId: randomUUID(), parts: [{ kind: 'text', text: 'echo: ' + text }] }],
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: call.id, result: task });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write('READY {"path":"/"}\n');
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
