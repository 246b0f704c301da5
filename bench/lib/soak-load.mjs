// The soak's load generator (bench/soak.mjs), run as its own process so the harness can pin it to
// core 1. A mixed A2A 1.0 load on one server, from `connections` workers on keep-alive sockets:
// sends on JSON-RPC (45%) and HTTP+JSON (30%), streamed sends on JSON-RPC (10%), GetTask of a
// recently created task on HTTP+JSON (10%) and ListTasks pages on JSON-RPC (5%). Every reply is
// checked (a send must come back completed with the echo artifact) and failures are counted.
//
// Job (JSON in argv[2]): { url, connections, durationS, sampleS, rate } (rate: sends and streams
// per second across all workers; 0 runs each worker as fast as the server answers). Every
// `sampleS` seconds it prints one JSON line for the window just ended: counts per kind, errors,
// tasks created, and the p50/p99 latency of the window's requests in ms; a last line
// `{"done":true}` when the load has stopped.

import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

const job = JSON.parse(process.argv[2]);
const base = new URL(job.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
const HEADERS = { 'content-type': 'application/json', 'a2a-version': '1.0' };

const KINDS = ['send-jsonrpc', 'send-rest', 'stream', 'get', 'list'];
const WEIGHTS = [45, 30, 10, 10, 5];

/** One request; resolves { status, body } with the whole body as text. */
function request(method, path, body, headers = HEADERS) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, path, method, headers, agent, timeout: 30_000 },
      (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const message = (text) => ({ messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] });
let rpcId = 1;
const rpc = (method, params) => JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method, params });

/** Ids of the tasks created last, for GetTask. */
const recent = [];
function remember(id) {
  recent.push(id);
  if (recent.length > 1000) recent.splice(0, 500);
}

/** A completed echo task, or throws naming what came back. */
function completedTask(task, text) {
  if (task?.status?.state !== 'TASK_STATE_COMPLETED') throw new Error(`task state ${task?.status?.state}`);
  if (!JSON.stringify(task.artifacts ?? []).includes(`echo: ${text}`)) throw new Error('no echo artifact');
  remember(task.id);
}

const OPS = {
  async 'send-jsonrpc'() {
    const { status, body } = await request(
      'POST',
      base.pathname,
      rpc('SendMessage', { message: message('soak') }),
    );
    if (status !== 200) throw new Error(`HTTP ${status}`);
    completedTask(JSON.parse(body).result?.task, 'soak');
    return 1;
  },
  async 'send-rest'() {
    const { status, body } = await request(
      'POST',
      `${base.pathname}message:send`,
      JSON.stringify({ message: message('soak') }),
    );
    if (status !== 200) throw new Error(`HTTP ${status}`);
    completedTask(JSON.parse(body).task, 'soak');
    return 1;
  },
  async stream() {
    const headers = { ...HEADERS, accept: 'text/event-stream' };
    const { status, body } = await request(
      'POST',
      base.pathname,
      rpc('SendStreamingMessage', { message: message('soak') }),
      headers,
    );
    if (status !== 200) throw new Error(`HTTP ${status}`);
    const events = body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)).result);
    const last = events.at(-1);
    const task = last?.task ?? events.find((e) => e?.task)?.task;
    if (
      last?.statusUpdate?.status?.state !== 'TASK_STATE_COMPLETED' &&
      last?.task?.status?.state !== 'TASK_STATE_COMPLETED'
    ) {
      throw new Error(`stream ended without completing: ${body.slice(-160)}`);
    }
    if (task?.id !== undefined) remember(task.id);
    else if (last?.statusUpdate?.taskId !== undefined) remember(last.statusUpdate.taskId);
    return 1;
  },
  async get() {
    if (recent.length === 0) return 0;
    const id = recent[Math.floor(Math.random() * recent.length)];
    const { status } = await request('GET', `${base.pathname}tasks/${encodeURIComponent(id)}`, undefined);
    if (status !== 200) throw new Error(`GetTask HTTP ${status}`);
    return 0;
  },
  async list() {
    const { status, body } = await request('POST', base.pathname, rpc('ListTasks', { pageSize: 20 }));
    if (status !== 200 || JSON.parse(body).result?.tasks === undefined)
      throw new Error(`ListTasks HTTP ${status}`);
    return 0;
  },
};

function pickKind() {
  let roll = Math.random() * 100;
  for (let i = 0; i < KINDS.length; i++) {
    roll -= WEIGHTS[i];
    if (roll < 0) return KINDS[i];
  }
  return KINDS[0];
}

const started = Date.now();
const deadline = started + job.durationS * 1000;
/** Sends and streams are paced to `rate` when it is set: each takes the next free slot. */
let nextSlot = started;
const interval = job.rate > 0 ? 1000 / job.rate : 0;

let window = freshWindow();
function freshWindow() {
  return {
    counts: Object.fromEntries(KINDS.map((k) => [k, 0])),
    errors: 0,
    created: 0,
    latencies: [],
    firstError: undefined,
  };
}

async function worker() {
  while (Date.now() < deadline) {
    const kind = pickKind();
    if (interval > 0 && (kind.startsWith('send') || kind === 'stream')) {
      const slot = Math.max(Date.now(), nextSlot);
      nextSlot = slot + interval;
      if (slot > Date.now()) await new Promise((resolve) => setTimeout(resolve, slot - Date.now()));
      if (Date.now() >= deadline) break;
    }
    const t0 = performance.now();
    const w = window;
    try {
      // Awaited first: `w.created += await …` would read the count before the await.
      const made = await OPS[kind]();
      w.created += made;
      w.counts[kind]++;
      w.latencies.push(performance.now() - t0);
    } catch (error) {
      w.errors++;
      w.firstError ??= `${kind}: ${error.message}`;
    }
  }
}

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report() {
  const w = window;
  window = freshWindow();
  const sorted = w.latencies.sort((a, b) => a - b);
  process.stdout.write(
    JSON.stringify({
      atS: Math.round((Date.now() - started) / 1000),
      counts: w.counts,
      errors: w.errors,
      firstError: w.firstError,
      created: w.created,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
    }) + '\n',
  );
}

const ticker = setInterval(report, job.sampleS * 1000);
await Promise.all(Array.from({ length: job.connections }, worker));
clearInterval(ticker);
// The last, partial window, unless the ticker has just reported it.
if (window.errors > 0 || Object.values(window.counts).some((n) => n > 0)) report();
agent.destroy();
process.stdout.write('{"done":true}\n');
