// Whether the objects a send creates and keeps (the task, its status, its history, its artifacts)
// share V8 hidden classes from one request to the next (docs/performance.md, "Shared hidden
// classes"). A literal that starts with a spread and then adds a key gets a fresh hidden class per
// evaluation once V8 optimises it, which costs time, old-space memory and megamorphic property
// access on everything that later reads those objects. This asserts V8 internals (`%HaveSameMap`,
// `--allow-natives-syntax`), so it lives with the benchmark rather than in the test suite (issue
// 24): `npm run bench:shapes` builds, runs the built package in a child node for A2A 0.3 and 1.0,
// drives 3,000 sends through `A2AServer.handle()` so the request path is optimised, asks V8 whether
// the last 50 tasks the store kept have the same maps, prints the answers and exits 1 when one is no.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DIST = pathToFileURL(resolve(import.meta.dirname, '../dist')).href;

const SCRIPT = `
const { createMemoryTaskStore } = await import('${DIST}/store/index.js');
const { createA2AServer } = await import('${DIST}/server/index.js');
const version = process.argv[1];
const store = createMemoryTaskStore();
const server = createA2AServer({
  agentCard: { name: 'echo', description: 'echo', version: '1.0.0', capabilities: {},
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'echo', description: 'echo', tags: [] }] },
  executor: { async execute(ctx, updater) {
    updater.addArtifact([{ text: 'echo: ' + ctx.message.parts[0].text }]);
    updater.complete();
  } },
  store,
});
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

let failed = 0;
for (const version of ['0.3', '1.0']) {
  const out = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--input-type=module', '-e', SCRIPT, version],
    { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } },
  );
  for (const [object, shared] of Object.entries(JSON.parse(out))) {
    if (!shared) failed++;
    console.log(
      `${shared ? 'ok  ' : 'FAIL'} A2A ${version}: the last 50 kept tasks' ${object} maps are ${shared ? '' : 'not '}shared`,
    );
  }
}
process.exit(failed === 0 ? 0 : 1);
