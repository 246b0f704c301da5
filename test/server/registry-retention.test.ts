/**
 * Decision 0121: a finished request must not be dragged into V8's old generation by the server's
 * registries. A Map that gains and loses an entry per request leaves superseded hash tables behind
 * that still hold their values and link to the next table; once those tables are old, every
 * scavenge treats what they reach as live. This runs the built package in a child node with
 * `--trace-gc-nvp`, sends 32 concurrent streams of messages through `A2AServer.handle()` to a
 * store that keeps nothing, and sums what the scavenges promoted per request.
 *
 * Measured on the development machine: about 900 bytes per send with plain Maps for the live
 * runs and in-flight sends, 190-280 with ReleasingMap (the rest is the sends that happen to be in
 * flight at two scavenges in a row).
 */
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createA2AServer } from '../../src/server/index.js';
import { createNodeHandler } from '../../src/server/adapters/node.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
import { childEchoServer } from '../helpers/child-echo-server.js';

const DIST = pathToFileURL(resolve(import.meta.dirname, '../../dist')).href;

const SCRIPT = `
// A store that acknowledges every commit and keeps nothing, so whatever survives is the server's.
const store = {
  commit: (c) => Promise.resolve(c.expectedVersion + c.events.length),
  get: () => Promise.resolve(undefined),
  readEvents: () => Promise.resolve([]),
  findIdempotencyKey: () => Promise.resolve(undefined),
  list: () => Promise.resolve({ tasks: [], nextPageToken: '', totalSize: 0 }),
  close: () => Promise.resolve(),
};
${childEchoServer(DIST)}
const headers = { 'content-type': 'application/json' };
const signal = new AbortController().signal;
const PER_LOOP = 1500;
let sent = 0;
async function loop(lane) {
  for (let i = 0; i < PER_LOOP; i++) {
    const message = { kind: 'message', messageId: 'm-' + lane + '-' + i, role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'message/send', params: { message } });
    const response = await server.handle({ method: 'POST', path: '/', query: new URLSearchParams(),
      header: (name) => headers[name], text: () => Promise.resolve(body), signal });
    if (!response.body.includes('"completed"')) throw new Error(response.body);
    sent++;
  }
}
await Promise.all(Array.from({ length: 32 }, (_, lane) => loop(lane)));
process.stdout.write('SENT ' + sent + '\\n');
`;

describe('registries and the old generation (decision 0121)', () => {
  it('finished sends are not promoted by the server registries', () => {
    const out = execFileSync(process.execPath, ['--trace-gc-nvp', '--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const sent = Number(/^SENT (\d+)$/m.exec(out)?.[1]);
    expect(sent).toBe(48_000);
    const scavenges = out.split('\n').filter((line) => line.includes(' gc=s '));
    // Enough scavenges that in-flight requests are a small share of what they promote.
    expect(scavenges.length).toBeGreaterThan(20);
    const promoted = scavenges.reduce((sum, line) => sum + Number(/ promoted=(\d+)/.exec(line)![1]), 0);
    expect(promoted / sent, 'bytes promoted per send').toBeLessThan(550);
  }, 90_000);

  it('leaves no listener on a request once its body is read', async () => {
    // Left attached, the body reader's closures tied each send's request to the old generation.
    const a2a = createA2AServer({
      agentCard: {
        name: 'gc',
        description: 'gc',
        version: '1.0.0',
        supportedInterfaces: [],
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'echo', name: 'echo', description: 'echo', tags: [] }],
      },
      executor: {
        execute(_ctx, updater) {
          updater.complete();
        },
      },
      store: createMemoryTaskStore(),
    });
    const handler = createNodeHandler(a2a);
    const requests: IncomingMessage[] = [];
    const server = createServer((req, res) => {
      requests.push(req);
      handler(req, res);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const send = { kind: 'message', messageId: 'm-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
      const small = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: send } }),
      });
      expect(((await small.json()) as { result: { status: { state: string } } }).result.status.state).toBe(
        'completed',
      );
      // A body over the limit is refused part way through; the reader lets go then too.
      const big = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(2 << 20),
      });
      expect(big.status).toBe(413);
      expect(requests).toHaveLength(2);
      for (const req of requests) {
        // node:http's own `clearIncoming` waits for the end of a body the response did not wait for.
        const ours = (event: string): number =>
          req.listeners(event).filter((listener) => listener.name !== 'clearIncoming').length;
        expect(['data', 'end', 'error'].map(ours)).toEqual([0, 0, 0]);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
