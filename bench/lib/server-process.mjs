// Starting, watching and stopping one benchmarked server process, and reading its memory.
//
// A server is ready when it prints a line `READY {json}` on stdout (the JSON may name the
// JSON-RPC `path`, default "/"). A server that exits or stays silent is reported "not available"
// with the tail of its stderr, and the run goes on with the others.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { spawnNodeOn } from './pin.mjs';

const READY_TIMEOUT_MS = 20_000;

/** A free TCP port on 127.0.0.1 (bound, read and released — fine for a local benchmark). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The most telling line of a crashed server's stderr: the first `…Error…` line, else the last line. */
export function errorLine(stderr) {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.find((l) => /^\w*Error\b|^Error \[/.test(l)) ?? lines.at(-1) ?? '').slice(0, 240);
}

/**
 * Starts `script` on core 0 with PORT (and `env`) set, node itself given `nodeArgs`. Resolves
 * { child, port, path } once ready; rejects with a reason (including stderr) if it exits or times
 * out first.
 */
export async function startServer(script, env, nodeArgs = []) {
  const port = await freePort();
  const child = spawnNodeOn(0, [...nodeArgs, script], {
    env: { ...process.env, NODE_ENV: 'production', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  // Keep only the tail: a server logging per-request errors must not grow the harness's memory.
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  child.stdout.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let out = '';
    const fail = (why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      const reason = errorLine(stderr);
      reject(new Error(reason ? `${why}: ${reason}` : why));
    };
    const timer = setTimeout(
      () => fail(`no READY line within ${READY_TIMEOUT_MS / 1000}s`),
      READY_TIMEOUT_MS,
    );
    child.once('exit', (code, signal) => fail(`exited before ready (code ${code ?? signal})`));
    child.once('error', (e) => fail(`could not start: ${e.message}`));
    child.stdout.on('data', function onData(chunk) {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('READY'));
      if (!line) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout.off('data', onData);
      child.stdout.resume(); // keep draining so a chatty server never blocks on a full pipe
      let path = '/';
      try {
        path = JSON.parse(line.slice(5).trim() || '{}').path ?? '/';
      } catch {
        // a bare READY line is fine
      }
      resolve({ child, port, path, stderrTail: () => stderr });
    });
  });
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
export function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function statusKiB(pid, field) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Resets the kernel's peak-RSS mark (VmHWM) so the next read covers one run only. Returns false
 * where /proc/<pid>/clear_refs is unavailable; VmHWM is then the peak since process start.
 */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Peak RSS in MiB (VmHWM), or null off Linux. */
export const peakRssMiB = (pid) => {
  const kib = statusKiB(pid, 'VmHWM');
  return kib === null ? null : kib / 1024;
};

/** Current RSS in MiB (VmRSS), or null off Linux. */
export const rssMiB = (pid) => {
  const kib = statusKiB(pid, 'VmRSS');
  return kib === null ? null : kib / 1024;
};
