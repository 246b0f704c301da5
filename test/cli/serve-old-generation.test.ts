/**
 * Finished requests must not end up in V8's old generation (docs/performance.md, 'Releasing registries' and
 * 'No allocation-site pretenuring'). This serves
 * the echo example on the SQLite store from the built CLI in a child node with `--trace-gc-nvp`,
 * calls it on 32 keep-alive lanes over HTTP, and sums what the server's scavenges promoted per call.
 *
 * Measured on the development machine with this load:
 * - sends: 3,070-3,250 bytes each with V8's allocation-site pretenuring on (the call taken out of
 *   the serve command), 400-500 with it off;
 * - streams: 1,940-2,710 bytes each with the node adapter's open streams in a plain Set,
 *   1,080-1,100 with a ReleasingSet.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, startConcord } from './cli-process.js';

const LANES = 32;
const PER_LANE = 500;
const dataDir = mkdtempSync(join(tmpdir(), 'concord-pretenuring-'));

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function call(agent: Agent, url: URL, method: string, id: string): Promise<string> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      message: { kind: 'message', role: 'user', messageId: id, parts: [{ kind: 'text', text: 'hi' }] },
    },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Serves the echo example, makes LANES × PER_LANE calls of `method`, returns bytes promoted per call. */
async function promotedPerCall(method: string): Promise<number> {
  const serve = startConcord(
    ['serve', join(ROOT, 'examples/echo'), '--port', '0', '--data-dir', mkdtempSync(join(dataDir, 'run-'))],
    ['--trace-gc-nvp'],
  );
  const agent = new Agent({ keepAlive: true, maxSockets: LANES });
  try {
    const ready = await serve.until((out) => / at http:\S+\n/.test(out));
    const url = new URL(/ at (http:\S+)\n/.exec(ready)![1]!);
    let completed = 0;
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let i = 0; i < PER_LANE; i++) {
          const reply = await call(agent, url, method, `m-${lane}-${i}`);
          if (reply.includes('"completed"')) completed++;
        }
      }),
    );
    expect(completed).toBe(LANES * PER_LANE);
    const all = await serve.until(() => true);
    const scavenges = all
      .slice(ready.length)
      .split('\n')
      .filter((line) => line.includes(' gc=s '));
    // Enough scavenges that the calls in flight at each are a small share of what they promote.
    expect(scavenges.length).toBeGreaterThan(20);
    const promoted = scavenges.reduce((sum, line) => sum + Number(/ promoted=(\d+)/.exec(line)![1]), 0);
    return promoted / completed;
  } finally {
    agent.destroy();
    serve.child.kill('SIGTERM');
  }
}

describe('concord serve and the old generation', () => {
  it('does not promote finished sends (docs/performance.md, "No allocation-site pretenuring")', async () => {
    expect(await promotedPerCall('message/send'), 'bytes promoted per send').toBeLessThan(1200);
  }, 120_000);

  it('does not promote finished streams (open streams in a ReleasingSet)', async () => {
    expect(await promotedPerCall('message/stream'), 'bytes promoted per stream').toBeLessThan(1500);
  }, 120_000);
});
