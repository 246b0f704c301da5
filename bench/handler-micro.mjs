// In-process cost of one A2A send (`npm run build && node bench/handler-micro.mjs`): the echo
// agent behind `A2AServer.handle()`, no sockets, 32 sends in flight. Reports CPU µs per request
// (process user+system time, which steal and other processes disturb far less than wall time)
// for each store, best of several rounds. Use it to A/B a change to the request path; the HTTP
// benchmark (`npm run bench`) stays the measure against the targets.
//
// Environment: MICRO_DIST (a build folder, default ../dist), MICRO_STORES (default "memory,sqlite"), MICRO_REQUESTS (per round, default
// 100000), MICRO_ROUNDS (default 3), MICRO_VERSION ("0.3" JSON-RPC, default, or "1.0"),
// MICRO_REPLY ("task", default: the agent completes a task; "message": it answers with a direct
// Message), MICRO_KEYED ("1": every send carries a fresh Idempotency-Key, so a Message reply is
// kept for retries; decision 0147).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { rpcBody } from './lib/payload.mjs';

const env = process.env;
const STORES = (env.MICRO_STORES ?? 'memory,sqlite').split(',');
const REQUESTS = Number(env.MICRO_REQUESTS ?? 100_000);
const ROUNDS = Number(env.MICRO_ROUNDS ?? 3);
const VERSION = env.MICRO_VERSION ?? '0.3';
const REPLY = env.MICRO_REPLY ?? 'task';
const KEYED = env.MICRO_KEYED === '1';
const IN_FLIGHT = 32;
// MICRO_DIST points at another build (say, main's, copied aside) to A/B two versions.
const dist = env.MICRO_DIST
  ? pathToFileURL(env.MICRO_DIST + '/').href
  : new URL('../dist/', import.meta.url).href;
const { createA2AServer } = await import(dist + 'server/index.js');
const { createMemoryTaskStore } = await import(dist + 'store/index.js');
const { openSqliteTaskStore } = await import(dist + 'store/sqlite/index.js');

const card = {
  name: 'micro',
  description: 'micro',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'echo', description: 'echo', tags: ['echo'] }],
};
const executor = {
  async execute(ctx, updater) {
    const text = ctx.message.parts.find((p) => p.text !== undefined)?.text ?? '';
    if (REPLY === 'message') return updater.reply('echo: ' + text);
    updater.addArtifact([{ text: 'echo: ' + text }]);
    updater.complete();
  },
};

const signal = new AbortController().signal;
const query = new URLSearchParams();
const headers = {
  'content-type': 'application/json',
  ...(VERSION === '1.0' ? { 'a2a-version': '1.0' } : {}),
};
const header = KEYED
  ? (name) => (name === 'idempotency-key' ? randomUUID() : headers[name])
  : (name) => headers[name];

/** A `message/send` (0.3) or `SendMessage` (1.0) body with a fresh messageId. */
function messageBody(i) {
  if (VERSION !== '1.0') return rpcBody('message/send');
  const message = { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello' }] };
  return JSON.stringify({ jsonrpc: '2.0', id: i, method: 'SendMessage', params: { message } });
}

function request(i) {
  const body = messageBody(i);
  return { method: 'POST', path: '/', query, header, text: () => Promise.resolve(body), signal };
}

async function round(server, n) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const response = await server.handle(request(next++));
      if (response.status !== 200 || !response.body.includes('echo: hello')) {
        throw new Error(`unexpected reply: ${response.status} ${response.body}`);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

for (const kind of STORES) {
  const dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'concord-micro-')) : undefined;
  const store =
    dir === undefined ? createMemoryTaskStore() : openSqliteTaskStore({ path: join(dir, 'tasks.db') });
  const server = createA2AServer({ agentCard: card, executor, store });
  await round(server, Number(env.MICRO_WARM ?? Math.min(REQUESTS, 30_000)));
  const results = [];
  for (let r = 0; r < ROUNDS; r++) {
    const cpu = process.cpuUsage();
    await round(server, REQUESTS);
    const used = process.cpuUsage(cpu);
    results.push((used.user + used.system) / REQUESTS);
  }
  await store.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  const best = Math.min(...results);
  const all = results.map((r) => r.toFixed(1)).join(', ');
  process.stdout.write(`${kind}: ${best.toFixed(1)} µs CPU per send (best of ${ROUNDS}: ${all})\n`);
}
