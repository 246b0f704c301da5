// Scale part `artifacts` (issue 27, item 4): one artifact of SCALE_ARTIFACT_MB megabytes streamed
// in SCALE_CHUNK_KB chunks through SSE and gRPC and read back. Asked: the server's and the
// client's RSS stay flat (no whole-artifact buffering), and the time against a bare copy of the
// same bytes over the same kind of socket.
//
// The server (agents/artifact-server.mjs, core 0) serves HTTP and gRPC; its agent sends the
// artifact as appended file-part chunks, one commit each. Each phase's client is a process of its
// own (agents/artifact-client.mjs, core 1) using Concord's client (dist/client), hashing the bytes
// as they come without keeping them. At each size in SCALE_ARTIFACT_POINTS:
//   bare      a bare node:http server (agents/bare-bytes-server.mjs, core 0) writing the same bytes
//             in the same chunks to a bare client: the floor
//   sse       SendStreamingMessage over HTTP+JSON (SSE)
//   grpc      SendStreamingMessage over gRPC
//   readback  GetTask of the finished task through Concord's client (HTTP+JSON), each part hashed
//             as it arrives (onArtifactPart, decision 0173); the same through the client read
//             whole (readwhole), and with plain node:http and JSON.parse (rawread)
// Each phase reports its time, whether the bytes were exact (SHA-256), the client's peak RSS and
// the server's (VmHWM, reset before the phase) and both RSS over time.
//
// Environment (short defaults; SCALE_FULL=1 takes the issue's sizes):
//   SCALE_ARTIFACT_MB      the largest artifact (20; full 200)
//   SCALE_ARTIFACT_POINTS  comma-separated sizes in MB (max/4, max/2, max; at least 5 MB; full:
//                          max/8 up)
//   SCALE_CHUNK_KB         chunk size (1024)
//   SCALE_ARTIFACT_STORE   the server's store (sqlite; memory; postgres with SCALE_POSTGRES_URL)

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnNodeOn, pinning } from '../lib/pin.mjs';
import {
  freePort,
  peakRssMiB,
  resetPeakRss,
  rssMiB,
  startServer,
  stopServer,
} from '../lib/server-process.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const full = process.env.SCALE_FULL === '1';
const MAX_MB = Number(process.env.SCALE_ARTIFACT_MB ?? (full ? 200 : 20));
const CHUNK = Number(process.env.SCALE_CHUNK_KB ?? 1024) * 1024;
const STORE = process.env.SCALE_ARTIFACT_STORE ?? 'sqlite';
const POINTS = process.env.SCALE_ARTIFACT_POINTS
  ? process.env.SCALE_ARTIFACT_POINTS.split(',').map(Number)
  : [...new Set((full ? [8, 4, 2, 1] : [4, 2, 1]).map((d) => Math.max(5, Math.round(MAX_MB / d))))].filter(
      (mb) => mb <= MAX_MB,
    );
const MB = 1024 * 1024;
const log = (msg) => process.stderr.write(`[artifacts] ${msg}\n`);

/** Runs one client phase while sampling the server's RSS; resolves the client's report. */
async function phase(serverPid, env) {
  resetPeakRss(serverPid);
  const serverRss = [];
  const t0 = Date.now();
  const sampler = setInterval(() => serverRss.push([Date.now() - t0, rssMiB(serverPid)]), 100);
  const child = spawnNodeOn(1, [join(here, 'agents', 'artifact-client.mjs')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => (out += d));
  const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? s)));
  clearInterval(sampler);
  const line = out.trim().split('\n').at(-1);
  const report = code === 0 && line ? JSON.parse(line) : { ok: false, error: `client exited ${code}` };
  return { ...report, serverPeakRssMiB: peakRssMiB(serverPid), serverRss };
}

const rows = [];
const rssCurves = [];
const bare = await startServer(join(here, 'agents', 'bare-bytes-server.mjs'), {});
/**
 * A Concord server of its own for each streamed phase: V8 keeps the heap a phase grew (a read-back
 * of the whole task grows it by several times the artifact), so a server shared across phases and
 * sizes would report in each peak what the phases before it left, not what this one needs.
 */
async function startConcord() {
  const grpcPort = await freePort();
  const server = await startServer(join(here, 'agents', 'artifact-server.mjs'), {
    SCALE_ARTIFACT_STORE: STORE,
    GRPC_PORT: String(grpcPort),
  });
  return { server, url: `http://127.0.0.1:${server.port}` };
}
try {
  for (const mb of POINTS) {
    const sizeEnv = { TOTAL: String(mb * MB), CHUNK: String(CHUNK) };
    const results = {};
    log(`${mb} MB: bare copy`);
    results.bare = await phase(bare.child.pid, {
      ...sizeEnv,
      MODE: 'bare',
      URL: `http://127.0.0.1:${bare.port}`,
    });
    for (const [name, binding] of [
      ['sse', 'HTTP+JSON'],
      ['grpc', 'GRPC'],
    ]) {
      const concord = await startConcord();
      try {
        log(`${mb} MB: streamed over ${binding}`);
        results[name] = await phase(concord.server.child.pid, {
          ...sizeEnv,
          MODE: 'stream',
          BINDING: binding,
          URL: concord.url,
        });
        if (name !== 'grpc') continue;
        // Read back from the server that holds the task, once it has streamed it.
        const taskId = results.grpc.taskId;
        log(`${mb} MB: read back (task ${taskId})`);
        results.readback = await phase(concord.server.child.pid, {
          ...sizeEnv,
          MODE: 'readback',
          URL: concord.url,
          TASK_ID: taskId,
        });
        results.readwhole = await phase(concord.server.child.pid, {
          ...sizeEnv,
          MODE: 'readwhole',
          URL: concord.url,
          TASK_ID: taskId,
        });
        results.rawread = await phase(concord.server.child.pid, {
          ...sizeEnv,
          MODE: 'rawread',
          URL: concord.url,
          TASK_ID: taskId,
        });
      } finally {
        await stopServer(concord.server.child);
      }
    }
    for (const [name, r] of Object.entries(results)) {
      rows.push({ mb, phase: name, ...r });
      log(
        `${mb} MB ${name}: ${r.ok ? 'exact' : `NOT EXACT (${r.error ?? 'hash differs'})`}, ${Math.round(r.ms)} ms, ` +
          `client peak ${r.peakRssMiB?.toFixed(0)} MiB, server peak ${r.serverPeakRssMiB?.toFixed(0)} MiB`,
      );
    }
    if (mb === POINTS.at(-1)) {
      for (const [name, r] of Object.entries(results)) {
        if (name === 'bare') continue;
        rssCurves.push({ name, client: r.rss, server: r.serverRss });
      }
    }
  }
} finally {
  await stopServer(bare.child);
}

const PHASES = ['bare', 'sse', 'grpc', 'readback', 'readwhole', 'rawread'];
const at = (mb, name) => rows.find((r) => r.mb === mb && r.phase === name);
const series = (metric, phases = PHASES) =>
  phases.map((name) => ({
    name,
    points: POINTS.map((mb) => [mb, at(mb, name)?.ok ? at(mb, name)[metric] : null]).filter(
      ([, y]) => y !== null,
    ),
  }));
const last = POINTS.at(-1);
const vsBare = (name, mb = last) =>
  at(mb, name)?.ok && at(mb, 'bare')?.ok ? at(mb, name).ms / at(mb, 'bare').ms : null;
const fmt = (n) => (n === null || n === undefined ? '–' : Number(n.toPrecision(3)).toString());

const result = {
  part: 'artifacts',
  heading: 'Large artifacts: streamed in chunks and read back',
  setup: [
    `artifacts of ${POINTS.join(', ')} MB in ${CHUNK / 1024} KiB chunks, each an appended file part with base64 \`raw\`; store ${STORE}`,
    "server Concord on node:http and gRPC; each phase's client its own process using Concord's client, hashing without keeping the bytes",
    'floor: a bare node:http server writing the same bytes in the same chunks to a bare client',
    pinning.note,
  ],
  tables: [
    {
      title: 'Each phase at each size',
      columns: [
        'MB',
        'phase',
        'exact',
        'time ms',
        '× bare copy',
        'client peak RSS MiB',
        'server peak RSS MiB',
        'stream taken up again',
        'error',
      ],
      rows: rows.map((r) => [
        r.mb,
        r.phase,
        r.ok ? 'yes' : 'NO',
        r.ms,
        r.phase === 'bare' ? 1 : vsBare(r.phase, r.mb),
        r.peakRssMiB,
        r.serverPeakRssMiB,
        r.reattached ?? 0,
        r.error ?? '',
      ]),
      note: "readback goes through Concord's client, each part as it arrives (onArtifactPart); readwhole through the client, the task whole; rawread reads the same GetTask answer with node:http and JSON.parse. Peak RSS is VmHWM (the server's reset before each phase). Stream taken up again: times the client's stream was cut off (a reader more than 64 MiB behind, the hub's bound) and re-attached; over gRPC, which has no cursor, a re-attached stream starts with the whole Task.",
    },
  ],
  curves: [
    {
      id: 'artifacts-server-rss',
      title: 'Server peak RSS by artifact size',
      x: { label: 'artifact MB' },
      y: { label: 'MiB' },
      series: series('serverPeakRssMiB'),
    },
    {
      id: 'artifacts-client-rss',
      title: 'Client peak RSS by artifact size',
      x: { label: 'artifact MB' },
      y: { label: 'MiB' },
      series: series('peakRssMiB'),
    },
    {
      id: 'artifacts-time',
      title: 'Time by artifact size, against the bare copy',
      x: { label: 'artifact MB' },
      y: { label: 'ms', log: true },
      series: series('ms'),
    },
    ...rssCurves.map((c) => ({
      id: `artifacts-rss-over-time-${c.name}`,
      title: `RSS over time, ${last} MB, ${c.name}`,
      x: { label: 'ms' },
      y: { label: 'MiB' },
      series: [
        { name: 'server', points: c.server.filter(([, y]) => y !== null) },
        { name: 'client', points: c.client },
      ],
    })),
  ],
  summary: [
    `${last} MB: SSE ${fmt(at(last, 'sse')?.ms)} ms (×${fmt(vsBare('sse'))} the bare copy), gRPC ${fmt(at(last, 'grpc')?.ms)} ms (×${fmt(vsBare('grpc'))})`,
    `${last} MB peak RSS, server / client: SSE ${fmt(at(last, 'sse')?.serverPeakRssMiB)} / ${fmt(at(last, 'sse')?.peakRssMiB)} MiB, gRPC ${fmt(at(last, 'grpc')?.serverPeakRssMiB)} / ${fmt(at(last, 'grpc')?.peakRssMiB)} MiB, read back a part at a time ${fmt(at(last, 'readback')?.serverPeakRssMiB)} / ${fmt(at(last, 'readback')?.peakRssMiB)} MiB, whole ${fmt(at(last, 'readwhole')?.serverPeakRssMiB)} / ${fmt(at(last, 'readwhole')?.peakRssMiB)} MiB; bare copy client ${fmt(at(last, 'bare')?.peakRssMiB)} MiB`,
    ...rows.filter((r) => !r.ok).map((r) => `${r.mb} MB ${r.phase}: failed (${r.error ?? 'bytes differ'})`),
  ],
};

const out = process.env.SCALE_RESULT ?? join(here, '..', '.tmp', 'scale', 'artifacts.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(result, null, 2));
log(`result written to ${out}`);
