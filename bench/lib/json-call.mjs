// What the bench's own servers (bare, ideal-a2a, ideal-durable) share: reading a POST body,
// JSON.parse-ing it as a JSON-RPC call, and the fresh completed task the ideal servers answer with.

/** A request listener that reads the whole body, parses it and calls `onCall(call, res)`. */
export function onJsonCall(onCall) {
  return (req, res) => {
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
      onCall(call, res);
    });
  };
}

/**
 * The work no A2A server can skip for a non-streaming `message/send`: read the message, mint task,
 * context and artifact ids with `newId`, stamp the status time, and build the completed task
 * (history and the echo artifact included).
 */
export function freshTask(message, newId) {
  const id = newId();
  const contextId = newId();
  return {
    kind: 'task',
    id,
    contextId,
    status: { state: 'completed', timestamp: new Date().toISOString() },
    history: [{ ...message, taskId: id, contextId }],
    artifacts: [{ artifactId: newId(), parts: [{ kind: 'text', text: 'echo: ' + message.parts[0].text }] }],
  };
}

/** Writes a JSON reply with its length. */
export function sendJson(res, body) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
