// What `concord serve`'s and `npm start`'s process policy (src/cli/serve/process-tuning.ts) does to V8,
// measured in child node processes. These assert V8 internals, so they live with the benchmark
// rather than in the test suite: `npm run bench:v8` builds, prints each measurement and
// exits 1 when one is outside its bound.
//
// - SERVING_NODE_OPTIONS (docs/performance.md, 'Serving node options'): a young generation of at
// most 16 MiB under a few thousand "requests in flight", where V8's default grows it to 32.
// - limitHeapGrowth (docs/performance.md, 'Heap growth limit'): a churning ~30 MB live set; the
// heap at a full collection's start over what the previous one left is V8's growing factor plus the
// young generation's share. Measured on the development machine: 4.5 with V8's default, 2.3 with
// the limit (1.5); a percentage given to node on its command line is left as it is.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const TUNING = pathToFileURL(resolve(import.meta.dirname, '../dist/cli/serve/process-tuning.js')).href;
const { SERVING_NODE_OPTIONS } = await import(TUNING);

const IN_FLIGHT = `
import { getHeapSpaceStatistics } from 'node:v8';
const inFlight = new Array(4096);
let largest = 0;
for (let n = 0; n < 3_000_000; n++) {
  inFlight[n % inFlight.length] = { id: 'request-' + n, parts: [{ text: 'hello ' + n }], at: [n, n + 1] };
  if (n % 10_000 === 0) {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    largest = Math.max(largest, young.space_size);
  }
}
process.stdout.write(String(largest / 1048576));
`;

const CHURN = `
import { limitHeapGrowth } from ${JSON.stringify(TUNING)};
if (process.env.LIMIT === '1') limitHeapGrowth();
const live = new Array(150_000);
const item = (i) => ({ i, name: 'item-' + i, tags: [i, i + 1, i + 2], nested: { a: i, b: String(i) } });
for (let i = 0; i < live.length; i++) live[i] = item(i);
// A fixed amount of work, not of time, so that a busy machine sees as many full collections.
for (let n = 0; n < 4_000_000; n++) live[(n * 7919) % live.length] = item(n);
`;

function child(args, script, env = {}) {
  return execFileSync(process.execPath, [...args, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Median of (heap at a full collection's start / heap after the previous one). */
function growthRatio(limit, nodeFlags = []) {
  const out = child(['--trace-gc', ...nodeFlags], CHURN, { LIMIT: limit ? '1' : '0' });
  // "... Mark-Compact 139.1 (170.7) -> 45.4 (95.4) MB, ..."
  const sizes = [...out.matchAll(/Mark-Compact ([\d.]+) \([\d.]+\) -> ([\d.]+)/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
  const ratios = sizes
    .slice(1)
    .map(([before], i) => before / sizes[i][1])
    .slice(1);
  if (ratios.length < 3) throw new Error(`too few full collections:\n${out}`);
  ratios.sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)];
}

const checks = [
  [
    'young generation with SERVING_NODE_OPTIONS (MiB)',
    () => Number(child(SERVING_NODE_OPTIONS.split(' '), IN_FLIGHT)),
    (v) => v <= 16,
    '<= 16',
  ],
  ['young generation with V8 defaults (MiB)', () => Number(child([], IN_FLIGHT)), (v) => v > 16, '> 16'],
  ['old-generation growth with limitHeapGrowth()', () => growthRatio(true), (v) => v < 3, '< 3'],
  ['old-generation growth with V8 defaults', () => growthRatio(false), (v) => v > 3.5, '> 3.5'],
  [
    'old-generation growth, limitHeapGrowth() under --heap-growing-percent=300',
    () => growthRatio(true, ['--heap-growing-percent=300']),
    (v) => v > 3.5,
    '> 3.5',
  ],
];

let failed = 0;
for (const [name, measure, within, bound] of checks) {
  const value = measure();
  const ok = within(value);
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${value.toFixed(2)} (expected ${bound})`);
}
process.exit(failed === 0 ? 0 : 1);
