/**
 * Decision 0120: the objects a send creates and keeps (the task, its history, its artifacts) share
 * V8 hidden classes from one request to the next. A literal that starts with a spread and then adds
 * a key gets a fresh hidden class per evaluation once V8 optimises it, which costs time, old-space
 * memory and megamorphic property access on everything that later reads those objects. This runs
 * the built package in a child node with `--allow-natives-syntax`, drives sends through
 * `A2AServer.handle()` long enough for the request path to be optimised, and asks V8 whether the
 * last tasks kept by the store have the same maps.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childEchoServer } from '../helpers/child-echo-server.js';

const DIST = pathToFileURL(resolve(import.meta.dirname, '../../dist')).href;

const SCRIPT = `
const { createMemoryTaskStore } = await import('${DIST}/store/index.js');
const version = process.argv[1];
const store = createMemoryTaskStore();
${childEchoServer(DIST)}
const headers = { 'content-type': 'application/json', ...(version === '1.0' ? { 'a2a-version': '1.0' } : {}) };
const signal = new AbortController().signal;
const ids = [];
for (let i = 0; i < 3000; i++) {
  const message = version === '1.0'
    ? { messageId: 'm-' + i, role: 'ROLE_USER', parts: [{ text: 'hi' }] }
    : { kind: 'message', messageId: 'm-' + i, role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
  const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: version === '1.0' ? 'SendMessage' : 'message/send', params: { message } });
  const response = await server.handle({ method: 'POST', path: '/', query: new URLSearchParams(),
    header: (name) => headers[name], text: () => Promise.resolve(body), signal });
  const reply = JSON.parse(response.body).result;
  ids.push(version === '1.0' ? reply.task.id : reply.id);
}
const scope = { tenant: '', owner: '' };
const kept = [];
for (const id of ids.slice(-50)) kept.push((await store.get(id, scope)).task);
const same = (pick) => kept.every((task) => %HaveSameMap(pick(task), pick(kept[0])));
process.stdout.write(JSON.stringify({
  task: same((t) => t),
  status: same((t) => t.status),
  message: same((t) => t.history[0]),
  artifact: same((t) => t.artifacts[0]),
}));
`;

describe('hidden classes of kept tasks (decision 0120)', () => {
  for (const version of ['0.3', '1.0']) {
    it(`are shared from one send to the next (${version})`, () => {
      const out = execFileSync(
        process.execPath,
        ['--allow-natives-syntax', '--input-type=module', '-e', SCRIPT, version],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(JSON.parse(out)).toEqual({ task: true, status: true, message: true, artifact: true });
    }, 90_000);
  }
});
