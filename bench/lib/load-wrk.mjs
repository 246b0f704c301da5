// Runs one load job with wrk on core 1 (bench/lib/load-wrk.lua builds the requests, checks every
// reply and prints a JSON result line) and converts its result to the harness's common shape.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ECHO_TEXT, rpcTemplate } from './payload.mjs';
import { spawnOn } from './pin.mjs';

const SCRIPT = fileURLToPath(new URL('./load-wrk.lua', import.meta.url));

function which(cmd) {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** Path of the wrk binary, or null when it is not installed. */
export const wrkPath = which('wrk');

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
} catch {
  // Linux default USER_HZ
}

// Seconds added to each run for the connection ramp, which is not measured (load-wrk.lua): every
// connection has to be accepted and answered once before the timed window opens.
const RAMP_ALLOWANCE = Number(process.env.BENCH_RAMP ?? 3);

/** job: { url, rpcMethod, connections, duration }; headers: sent with every request. */
export function runWrk(job, headers) {
  const args = [
    '-t1',
    `-c${job.connections}`,
    `-d${job.duration + RAMP_ALLOWANCE}s`,
    // A server that stalls must show up as timeouts, not hang the run.
    '--timeout',
    '10s',
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    '-s',
    SCRIPT,
    job.url,
    '--',
    ...rpcTemplate(job.rpcMethod, job.kind),
    ECHO_TEXT,
    String(job.connections),
  ];
  return new Promise((resolve, reject) => {
    const child = spawnOn(1, wrkPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-2000)));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.split('\n').findLast((l) => l.startsWith('{'));
      if (code !== 0 || !line) {
        reject(
          new Error(`wrk failed (exit ${code}): ${(err || out).trim().split('\n').slice(-2).join(' | ')}`),
        );
        return;
      }
      const r = JSON.parse(line);
      // No steady window (the ramp never ended, or no reply carried its id back): fall back to
      // wrk's whole-run figures, which say so through `steady: false`.
      const steady = r.steady > 0 && r.steadyUs > 0;
      resolve({
        total: r.total,
        steady,
        requestsPerSec: steady ? r.steady / (r.steadyUs / 1e6) : r.total / (r.durationUs / 1e6),
        p50: (steady ? r.p50Us : r.wrkP50Us) / 1000,
        p99: (steady ? r.p99Us : r.wrkP99Us) / 1000,
        max: steady ? r.maxUs / 1000 : null,
        windowSeconds: steady ? r.steadyUs / 1e6 : r.durationUs / 1e6,
        rampMs: r.rampUs >= 0 ? r.rampUs / 1000 : null,
        wrkRequestsPerSec: r.total / (r.durationUs / 1e6),
        wrkP99: r.wrkP99Us / 1000,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        mismatches: r.mismatches,
        cpuSeconds: r.cpuTicks >= 0 ? r.cpuTicks / ticksPerSecond : null,
      });
    });
  });
}
