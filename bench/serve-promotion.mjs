// Finished requests must not end up in V8's old generation (docs/performance.md, 'Releasing
// registries' and 'No allocation-site pretenuring'). This asserts V8 internals (`--trace-gc-nvp`),
// so it lives with the benchmark rather than in the test suite (issue 24): `npm run bench:gc` runs
// it after bench/gc-promotion.mjs. It serves the echo example on the SQLite store from the built
// CLI (dist/cli/main.js) in a child node, calls it on 32 keep-alive lanes over HTTP, sums what the
// server's scavenges promoted per call, prints it and exits 1 over the bound.
//
// Measured on the development machine with this load:
// - sends: 3,070-3,250 bytes each with V8's allocation-site pretenuring on (the call taken out of
//   the serve command), 400-500 with it off;
// - streams: 1,940-2,710 bytes each with the node adapter's open streams in a plain Set,
//   1,080-1,100 with a ReleasingSet.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist/cli/main.js');
const LANES = 32;
const PER_LANE = 500;
const CHECKS = [
  { method: 'message/send', bound: 1200, why: 'No allocation-site pretenuring' },
  { method: 'message/stream', bound: 1500, why: 'Releasing registries (open streams in a ReleasingSet)' },
];

/**
 * Starts `concord serve examples/echo` with `--trace-gc-nvp`; resolves { child, url, stdout() }
 * once it prints the address it serves at, rejects if it exits first.
 */
function startServe(dataDir) {
  const args = ['serve', join(ROOT, 'examples/echo'), '--port', '0', '--data-dir', dataDir];
  const child = spawn(process.execPath, ['--trace-gc-nvp', CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk.toString()));
  return new Promise((done, fail) => {
    const onData = (chunk) => {
      out += chunk.toString();
      const ready = / at (http:\S+)\n/.exec(out);
      if (ready === null) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      const start = out.length;
      child.stdout.on('data', (more) => (out += more.toString()));
      // Only what the server printed after it was ready: the scavenges of the calls.
      done({ child, url: new URL(ready[1]), stdout: () => out.slice(start) });
    };
    const onExit = (code) => fail(new Error(`concord serve exited ${code} first: ${out}${err}`));
    child.stdout.on('data', onData);
    child.on('exit', onExit);
  });
}

function call(agent, url, method, id) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: {
      message: { kind: 'message', role: 'user', messageId: id, parts: [{ kind: 'text', text: 'hi' }] },
    },
  });
  return new Promise((done, fail) => {
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
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => done(text));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

/** Serves the echo example, makes LANES × PER_LANE calls of `method`, returns bytes promoted per call. */
async function promotedPerCall(method, dataDir) {
  const serve = await startServe(mkdtempSync(join(dataDir, 'run-')));
  const agent = new Agent({ keepAlive: true, maxSockets: LANES });
  try {
    let completed = 0;
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let i = 0; i < PER_LANE; i++) {
          const reply = await call(agent, serve.url, method, `m-${lane}-${i}`);
          if (reply.includes('"completed"')) completed++;
        }
      }),
    );
    if (completed !== LANES * PER_LANE)
      throw new Error(`expected ${LANES * PER_LANE} completed, got ${completed}`);
    const scavenges = serve
      .stdout()
      .split('\n')
      .filter((line) => line.includes(' gc=s '));
    // Enough scavenges that the calls in flight at each are a small share of what they promote.
    if (scavenges.length <= 20) throw new Error(`only ${scavenges.length} scavenges`);
    const promoted = scavenges.reduce((sum, line) => sum + Number(/ promoted=(\d+)/.exec(line)[1]), 0);
    return promoted / completed;
  } finally {
    agent.destroy();
    if (serve.child.exitCode === null) {
      const exited = new Promise((done) => serve.child.once('exit', done));
      serve.child.kill('SIGTERM');
      await exited;
    }
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'concord-pretenuring-'));
let over = false;
try {
  for (const { method, bound, why } of CHECKS) {
    const perCall = await promotedPerCall(method, dataDir);
    console.log(`${method}: ${perCall.toFixed(0)} bytes promoted per call (bound ${bound})`);
    if (perCall >= bound) {
      console.error(`concord serve promotes finished ${method} calls (docs/performance.md, "${why}")`);
      over = true;
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
if (over) process.exit(1);
