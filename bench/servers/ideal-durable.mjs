// The ideal durable A2A server: the floor under any A2A server that keeps its tasks on disk
// before answering, as the SQLite store does (a task acknowledged survives kill -9, issue 2).
//
// It is bare-a2a.mjs (parse, mint ids, serialise a fresh completed task) plus one row per task in
// a SQLite file in WAL mode with synchronous=NORMAL (Concord's settings), the rows of one
// event-loop turn written in one transaction, each reply sent only after its commit. Ids are
// Concord's time-ordered UUIDv7 (decision 0009), so each row lands at the end of the key's
// B-tree. No validation, no state machine, no event log, no idempotency key, no agent call: its
// ratio to bare shows what durability on SQLite costs before any of Concord's work.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { newId } from '../../dist/server/ids.js';

const dir = mkdtempSync(join(tmpdir(), 'concord-ideal-durable-'));
const db = new Database(join(dir, 'tasks.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(
  'CREATE TABLE tasks (id TEXT PRIMARY KEY, context_id TEXT NOT NULL, task TEXT NOT NULL) WITHOUT ROWID',
);
const insert = db.prepare('INSERT INTO tasks (id, context_id, task) VALUES (?, ?, ?)');

// Replies waiting for the turn's commit: [res, taskId, contextId, taskJson, rpcId, ...].
let turn = [];
const writeAll = db.transaction((rows) => {
  for (let i = 0; i < rows.length; i += 5) insert.run(rows[i + 1], rows[i + 2], rows[i + 3]);
});
function commitTurn() {
  const rows = turn;
  turn = [];
  writeAll(rows);
  for (let i = 0; i < rows.length; i += 5) {
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(rows[i + 4])},"result":${rows[i + 3]}}`;
    rows[i].writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    rows[i].end(body);
  }
}

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
    const id = newId();
    const contextId = newId();
    const task = JSON.stringify({
      kind: 'task',
      id,
      contextId,
      status: { state: 'completed', timestamp: new Date().toISOString() },
      history: [{ ...message, taskId: id, contextId }],
      artifacts: [{ artifactId: newId(), parts: [{ kind: 'text', text: 'echo: ' + text }] }],
    });
    if (turn.push(res, id, contextId, task, call.id) === 5) setImmediate(commitTurn);
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write('READY {"path":"/"}\n');
});
process.on('SIGTERM', () => {
  server.close(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  server.closeAllConnections();
});
