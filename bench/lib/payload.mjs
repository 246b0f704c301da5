// Request bodies and response checks shared by the harness and the load generator.
//
// Every server gets byte-for-byte the same kind of request: an A2A 0.3 JSON-RPC call with no
// A2A-Version header (absent header means 0.3, which all servers accept). The text is fixed so
// the bare server's fixed reply can carry the same "echo: hello" artifact the real agents produce;
// the messageId is fresh per request so servers that index by message cannot short-cut.

import { randomUUID } from 'node:crypto';

/** The text every request carries; agents answer with `ECHO_TEXT`. */
export const INPUT_TEXT = 'hello';
/** The artifact text a correct echo agent returns. */
export const ECHO_TEXT = `echo: ${INPUT_TEXT}`;

const ID_SENTINEL = 918273645;
const MESSAGE_ID_SENTINEL = '__message_id__';

/** The contract the contract runs invoke: the seed's research.request, with its input schema. */
export const BENCH_CONTRACT = {
  name: 'research.request',
  input: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Research query' },
      depth: { type: 'string', enum: ['shallow', 'deep'] },
    },
    required: ['query'],
  },
};

/** The message parts of a request: plain text, or (kind 'contract') the seed's envelope as data. */
function partsOf(kind) {
  if (kind === 'contract') {
    return [
      {
        kind: 'data',
        data: { _a2a: true, contract: BENCH_CONTRACT.name, payload: { query: INPUT_TEXT, depth: 'deep' } },
      },
    ];
  }
  return [{ kind: 'text', text: INPUT_TEXT }];
}

/**
 * The request body for `method` ('message/send' or 'message/stream') as three constant pieces:
 * body = pieces[0] + jsonRpcId + pieces[1] + messageId + pieces[2]. Both load generators fill in
 * the blanks per request, so neither pays for JSON.stringify on the hot path. `kind` is 'text'
 * (default) or 'contract'.
 */
export function rpcTemplate(method, kind = 'text') {
  const json = JSON.stringify({
    jsonrpc: '2.0',
    id: ID_SENTINEL,
    method,
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: MESSAGE_ID_SENTINEL,
        parts: partsOf(kind),
      },
    },
  });
  const [a, rest] = json.split(String(ID_SENTINEL));
  const [b, c] = rest.split(MESSAGE_ID_SENTINEL);
  return [a, b, c];
}

let nextId = 1;
const templates = new Map();

/** One request body for `method` with the next JSON-RPC id and a fresh random messageId. */
export function rpcBody(method, kind = 'text') {
  const key = `${method} ${kind}`;
  let t = templates.get(key);
  if (!t) templates.set(key, (t = rpcTemplate(method, kind)));
  return t[0] + nextId++ + t[1] + randomUUID() + t[2];
}

/** Headers sent with every request (no A2A-Version: the 0.3 default applies). */
export const REQUEST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/**
 * Cheap per-response check used during timed runs (runs on the load generator's core, so it is a
 * few substring scans, not a parse). Anything carrying a JSON-RPC error, or lacking the completed
 * state or the echo artifact, counts as a mismatch — a server answering errors fast must not
 * look fast.
 */
export function looksCompleted(body) {
  if (typeof body !== 'string' || body.includes('"error"')) return false;
  if (!body.includes(ECHO_TEXT)) return false;
  return body.includes('"completed"') || body.includes('TASK_STATE_COMPLETED');
}

const COMPLETED = new Set(['completed', 'TASK_STATE_COMPLETED']);

function hasEchoArtifact(artifacts) {
  return (artifacts ?? []).some((a) => (a?.parts ?? []).some((p) => p?.text === ECHO_TEXT));
}

/** Full check of a `message/send` reply: a JSON-RPC result that is a completed task with the echo artifact. */
export function checkSendReply(text, id) {
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {
    return `reply is not JSON: ${text.slice(0, 120)}`;
  }
  if (reply.error) return `JSON-RPC error ${JSON.stringify(reply.error).slice(0, 160)}`;
  if (reply.id !== id) return `reply id ${JSON.stringify(reply.id)} does not match request id ${id}`;
  // 0.3 returns the task as the result; a 1.0-shaped reply wraps it as { task }.
  const task = reply.result?.task ?? reply.result;
  if (!task || !task.status) return `result is not a task: ${text.slice(0, 160)}`;
  if (!COMPLETED.has(task.status.state)) return `task state is ${task.status.state}, not completed`;
  if (!hasEchoArtifact(task.artifacts)) return `task has no "${ECHO_TEXT}" artifact`;
  return null;
}

/** Full check of a `message/stream` SSE body: an echo artifact arrives and the stream ends completed. */
export function checkStreamReply(text) {
  const events = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      events.push(JSON.parse(line.slice(5)));
    } catch {
      return `SSE data line is not JSON: ${line.slice(0, 120)}`;
    }
  }
  if (events.length === 0) return `no SSE events in reply: ${text.slice(0, 160)}`;
  const failed = events.find((e) => e.error);
  if (failed) return `JSON-RPC error in stream ${JSON.stringify(failed.error).slice(0, 160)}`;
  const results = events.map((e) => e.result ?? {});
  // An artifact can arrive as an artifact-update event or inside a task snapshot (0.3 or 1.0 shape).
  const sawEcho = results.some(
    (r) =>
      hasEchoArtifact([r.artifact, r.artifactUpdate?.artifact]) ||
      hasEchoArtifact(r.artifacts) ||
      hasEchoArtifact(r.task?.artifacts),
  );
  if (!sawEcho) return `stream carried no "${ECHO_TEXT}" artifact`;
  const last = results[results.length - 1];
  const state = last.status?.state ?? last.statusUpdate?.status?.state ?? last.task?.status?.state;
  if (!COMPLETED.has(state)) return `stream ended in state ${state}, not completed`;
  return null;
}
