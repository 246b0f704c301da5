// The gRPC benchmark line (decision 0070): unary A2A 1.0 SendMessage to Concord (memory store) over
// gRPC, beside the same send over JSON-RPC and HTTP+JSON, from one Node load generator
// (lib/load-bindings.mjs) so only the binding differs. The server runs pinned to core 0 serving
// all three; the generator runs pinned to core 1, one binding at a time, after a warm-up. Prints
// a markdown table (req/s, p50, p99).
//
// Usage: npm run build && node bench/grpc-run.mjs
// Environment: BENCH_DURATION (s per run, default 10), BENCH_WARMUP (s, default 3),
// BENCH_CONNECTIONS (calls in flight, default 32).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnNodeOn, pinning } from './lib/pin.mjs';
import { freePort, startServer, stopServer } from './lib/server-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

function load(binding, target, seconds) {
  return new Promise((resolve, reject) => {
    const child = spawnNodeOn(
      1,
      [join(here, 'lib/load-bindings.mjs'), binding, target, String(CONNECTIONS), String(seconds)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${binding} load exited ${code}`)),
    );
  });
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const grpcPort = await freePort();
const { SERVING_NODE_OPTIONS } = await import('../dist/cli/serve/process-tuning.js');
const server = await startServer(
  join(here, 'servers/concord.mjs'),
  { BENCH_STORE: 'memory', BENCH_GRPC_PORT: String(grpcPort) },
  SERVING_NODE_OPTIONS.split(' '),
);
const http = `http://127.0.0.1:${server.port}/`;
const targets = { grpc: `127.0.0.1:${grpcPort}`, jsonrpc: http, rest: http };
const rows = [];
try {
  for (const binding of ['grpc', 'jsonrpc', 'rest']) {
    process.stderr.write(`[bench] ${binding}: warm-up ${WARMUP}s, run ${DURATION}s, c=${CONNECTIONS}\n`);
    await load(binding, targets[binding], WARMUP);
    // The server's own CPU per call: what the binding costs Concord, whatever the generator's
    // limits (a Node gRPC client spends more per call than the server does, so req/s there is
    // mostly the generator's ceiling).
    const before = cpuSeconds(server.child.pid);
    const row = await load(binding, targets[binding], DURATION);
    row.serverUsPerCall = ((cpuSeconds(server.child.pid) - before) * 1e6) / row.requests;
    rows.push(row);
  }
} finally {
  await stopServer(server.child);
}
const names = {
  grpc: 'gRPC (lf.a2a.v1 SendMessage)',
  jsonrpc: 'JSON-RPC (SendMessage)',
  rest: 'HTTP+JSON (POST /message:send)',
};
console.log(
  `Concord memory store, A2A 1.0 unary send, c=${CONNECTIONS}, ${DURATION} s, Node load generator; ${pinning.note}\n`,
);
console.log('| binding | req/s | p50 ms | p99 ms | server CPU µs / call | errors |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const r of rows) {
  console.log(
    `| ${names[r.binding]} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${Math.round(r.serverUsPerCall)} | ${r.errors} |`,
  );
}
