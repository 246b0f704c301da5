// inventory.search over the dealer's seeded inventory (`npm run build && node bench/dealer-search.mjs`):
// starts `concord serve examples/dealer` on a temporary data dir, waits for the seed, then sends
// a fixed mix of AAP search requests over HTTP+JSON, one at a time, and reports p50 / p99 latency
// of the whole round trip. Bounded in count; loopback only.
//
// Environment: DEALER_BENCH_REQUESTS (default 2000), DEALER_BENCH_WARMUP (default 200).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(import.meta.dirname, '..');
const REQUESTS = Number(process.env.DEALER_BENCH_REQUESTS ?? 2000);
const WARMUP = Number(process.env.DEALER_BENCH_WARMUP ?? 200);

const FILTERS = [
  { make: ['Honda'], condition: ['used', 'certified'], year_min: 2020, price_max: 30000 },
  { make: ['Toyota'], model: ['RAV4', 'RAV4 Hybrid'], condition: ['new'] },
  { body_type: ['suv'], fuel: ['hybrid', 'bev'], price_max: 45000 },
  { query: 'certified civic' },
  { condition: ['used'], mileage_max: 40000, year_min: 2021 },
  {},
];
const SORTS = [
  { field: 'price', order: 'asc' },
  { field: 'mileage', order: 'asc' },
  { field: 'year', order: 'desc' },
];

function body(i) {
  return JSON.stringify({
    message: {
      messageId: `bench-${i}`,
      role: 'ROLE_USER',
      parts: [
        {
          data: {
            type: 'inventory.search.request',
            filters: FILTERS[i % FILTERS.length],
            sort: SORTS[i % SORTS.length],
            pagination: { skip: 0, limit: 20 },
          },
          mediaType: 'application/vnd.autoagent.inventory-search-request+json',
        },
      ],
    },
  });
}

const dir = mkdtempSync(join(tmpdir(), 'concord-dealer-bench-'));
const child = spawn(
  process.execPath,
  [join(ROOT, 'dist/cli/main.js'), 'serve', 'examples/dealer', '--port', '0', '--data-dir', dir],
  {
    cwd: ROOT,
    env: {
      ...process.env,
      DEALER_RATE_LIMIT: '0',
      DEALER_JWT_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const url = await new Promise((done, fail) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /is serving "[^"]+" at (http:\/\/\S+\/)/.exec(out);
    if (match) done(match[1]);
  });
  child.on('exit', (code) => fail(new Error(`dealer exited ${code}: ${out}`)));
});

try {
  const times = [];
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(`${url}message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(i),
    });
    const json = await response.json();
    if (response.status !== 200 || json.message === undefined)
      throw new Error(`unexpected answer ${response.status}: ${JSON.stringify(json)}`);
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(
    `inventory.search over 3000 seeded vehicles, ${REQUESTS} sequential requests (HTTP+JSON, loopback)`,
  );
  console.log(
    `p50 ${at(0.5)} ms  p90 ${at(0.9)} ms  p99 ${at(0.99)} ms  max ${times[times.length - 1].toFixed(2)} ms`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  rmSync(dir, { recursive: true, force: true });
}
