// The ideal durable A2A server: the floor under any A2A server that keeps its tasks on disk
// before answering, as the SQLite store does (a task acknowledged survives kill -9).
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
import { newId } from '../../dist/server/common/ids.js';
import { freshTask, onJsonCall, sendJson } from '../lib/json-call.mjs';

const dir = mkdtempSync(join(tmpdir(), 'concord-ideal-durable-'));
const db = new Database(join(dir, 'tasks.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(
  'CREATE TABLE tasks (id TEXT PRIMARY KEY, context_id TEXT NOT NULL, task TEXT NOT NULL) WITHOUT ROWID',
);
const insert = db.prepare('INSERT INTO tasks (id, context_id, task) VALUES (?, ?, ?)');

// Replies waiting for the turn's commit: [res, row, rpcId, ...].
let turn = [];
const writeAll = db.transaction((rows) => {
  for (let i = 0; i < rows.length; i += 3)
    insert.run(rows[i + 1].id, rows[i + 1].contextId, rows[i + 1].json);
});
function commitTurn() {
  const rows = turn;
  turn = [];
  writeAll(rows);
  for (let i = 0; i < rows.length; i += 3) {
    sendJson(rows[i], `{"jsonrpc":"2.0","id":${JSON.stringify(rows[i + 2])},"result":${rows[i + 1].json}}`);
  }
}

const server = createServer(
  onJsonCall((call, res) => {
    const task = freshTask(call.params.message, newId);
    const row = { id: task.id, contextId: task.contextId, json: JSON.stringify(task) };
    if (turn.push(res, row, call.id) === 3) setImmediate(commitTurn);
  }),
);

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
