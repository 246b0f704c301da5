// Runs one load job on core 1 with the chosen load generator and returns a common result:
// { total, requestsPerSec, p50, p99 (ms), non2xx, errors, timeouts, mismatches, cpuSeconds }.
//
// wrk (C, epoll) is preferred: on one core it drives about 1.5× the request rate autocannon
// (Node) can, so the bare ceiling is not capped by the load generator. autocannon is the fallback
// when wrk is absent (`apt-get install wrk`); BENCH_LOADGEN=wrk|autocannon forces one.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { REQUEST_HEADERS } from './payload.mjs';
import { spawnNodeOn } from './pin.mjs';
import { runWrk, wrkPath } from './load-wrk.mjs';

const AUTOCANNON_SCRIPT = fileURLToPath(new URL('./load-autocannon.mjs', import.meta.url));

function pickGenerator() {
  const wanted = process.env.BENCH_LOADGEN;
  if (wanted === 'autocannon') return 'autocannon';
  if (wrkPath) return 'wrk';
  if (wanted === 'wrk') throw new Error('BENCH_LOADGEN=wrk but wrk is not installed (apt-get install wrk)');
  return 'autocannon';
}

/** Which load generator runs, for the report header. */
export const loadGenerator = pickGenerator();

function versionNote() {
  if (loadGenerator !== 'wrk') {
    return wrkPath
      ? 'autocannon (BENCH_LOADGEN)'
      : 'autocannon (wrk not found; install it for a higher bare ceiling)';
  }
  // `wrk -v` prints "wrk <version> [epoll] ..." (and exits non-zero).
  const version = spawnSync(wrkPath, ['-v'], { encoding: 'utf8' }).stdout?.split(' ')[1] ?? '';
  return `wrk ${version}, 1 thread`;
}
/** Human-readable load-generator line for the report. */
export const loadGeneratorNote = versionNote();

function runAutocannon(job) {
  return new Promise((resolve, reject) => {
    const child = spawnNodeOn(1, [AUTOCANNON_SCRIPT, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-2000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        if (code === 0) return resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        // fall through to the error below
      }
      reject(new Error(`autocannon failed (exit ${code}): ${err.trim().split('\n').slice(-2).join(' | ')}`));
    });
  });
}

/** job: { url, rpcMethod, connections, duration (s) }. */
export function runLoad(job) {
  return loadGenerator === 'wrk' ? runWrk(job, REQUEST_HEADERS) : runAutocannon(job);
}
