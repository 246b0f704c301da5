// Scale benchmark (`npm run bench:scale`): how Concord's cost grows with its work, not how fast one
// small task goes (issue 27; docs/performance.md, 'Scale curves'). Four parts, each a script in
// bench/scale/ run in a process of its own so one part's heap never weighs on the next:
//
//   stores     SQLite and PostgreSQL filled directly to SCALE_TASKS finished tasks: sends/s, GetTask
//              and ListTasks (each filter, deep pages) p50/p99, a retention sweep, at each size
//   streams    SCALE_STREAMS idle SSE and gRPC subscriptions on one process: memory per stream,
//              heartbeat CPU; commit-to-delivery latency to 1 and SCALE_FANOUT subscribers
//   long-tasks a task of SCALE_EVENTS events: resubscribing from a recent cursor, GetTask with
//              historyLength, against the task's size
//   artifacts  a SCALE_ARTIFACT_MB artifact streamed in 1 MB chunks over SSE and gRPC and read
//              back: server and client peak RSS, time against a bare copy of the bytes
//
// Sizes: the defaults make a short run of a few minutes; SCALE_FULL=1 takes the sizes (10
// million tasks, 10,000 streams, 100,000 events, 200 MB), under an hour on a 2-core machine. Every
// SCALE_* variable is passed to the parts (each documents its own). SCALE_PARTS picks parts
// (comma-separated). PostgreSQL is measured when SCALE_POSTGRES_URL (or BENCH_POSTGRES_URL) names
// a database; the run says so when it is skipped.
//
// A part writes its result as JSON to the path in SCALE_RESULT (shape: bench/lib/scale-report.mjs).
// The report goes to stdout and bench/.tmp/scale/report.md, each curve as an SVG beside it;
// SCALE_RECORD=1 also writes the SVGs to docs/images/scale/, where docs/performance.md shows them.
// SCALE_RENDER_ONLY=1 measures nothing: it renders the report and plots from the results the parts
// last wrote (after a part was run on its own, or a change to the report's look).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachine } from './lib/machine.mjs';
import { renderPart, renderSvg } from './lib/scale-report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const PARTS = ['stores', 'streams', 'long-tasks', 'artifacts'];
const chosen = (process.env.SCALE_PARTS ?? PARTS.join(',')).split(',').map((p) => p.trim());
for (const part of chosen) {
  if (!PARTS.includes(part))
    throw new RangeError(`SCALE_PARTS: unknown part ${part} (parts: ${PARTS.join(', ')})`);
}
const outDir = join(here, '.tmp', 'scale');
const recordDir = join(here, '..', 'docs', 'images', 'scale');
mkdirSync(outDir, { recursive: true });
const log = (msg) => process.stderr.write(`[scale] ${msg}\n`);

/** Runs one part's script; resolves its result, or a stand-in section saying why there is none. */
async function runPart(part) {
  const script = join(here, 'scale', `${part}.mjs`);
  const resultPath = join(outDir, `${part}.json`);
  // The report and plots again from the results the parts last wrote, with nothing measured.
  if (process.env.SCALE_RENDER_ONLY === '1') {
    if (existsSync(resultPath)) return JSON.parse(readFileSync(resultPath, 'utf8'));
    return { part, heading: part, setup: [`no result in ${resultPath}: run the part first`] };
  }
  rmSync(resultPath, { force: true });
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', script], {
      env: { ...process.env, SCALE_RESULT: resultPath },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? signal));
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  if (code !== 0 || !existsSync(resultPath)) {
    log(`${part}: failed (exit ${code}) after ${seconds}s`);
    return { part, heading: part, setup: [`FAILED: the part exited with ${code} after ${seconds}s`] };
  }
  log(`${part}: done in ${seconds}s`);
  const result = JSON.parse(readFileSync(resultPath, 'utf8'));
  result.setup = [...(result.setup ?? []), `took ${seconds}s`];
  return result;
}

const started = Date.now();
const results = [];
for (const part of chosen) results.push(await runPart(part));

const sections = [];
for (const result of results) {
  for (const curve of result.curves ?? []) {
    const svg = renderSvg(curve);
    writeFileSync(join(outDir, `${curve.id}.svg`), svg);
    if (process.env.SCALE_RECORD === '1') {
      mkdirSync(recordDir, { recursive: true });
      writeFileSync(join(recordDir, `${curve.id}.svg`), svg);
    }
  }
  sections.push(renderPart(result, (curve) => `${curve.id}.svg`));
}
const report = [
  '# Concord scale curves',
  '',
  ...(await describeMachine()).slice(0, 2).map((l) => `- ${l}`),
  `- ${process.env.SCALE_FULL === '1' ? 'full sizes (SCALE_FULL=1)' : 'short sizes (SCALE_FULL=1 for the full run)'}; took ${Math.round((Date.now() - started) / 1000)}s in all`,
  '',
  ...sections,
].join('\n');
process.stdout.write(report);
writeFileSync(join(outDir, 'report.md'), report);
log(`written to ${join(outDir, 'report.md')}`);
