// Telemetry overhead (`npm run bench:telemetry`; docs/performance.md, 'Telemetry overhead'):
// the benchmark's echo agent on Concord's memory store (bench/servers/concord.mjs), blocking sends
// over JSON-RPC, measured in one run under three configurations, in interleaved rounds
// (docs/performance.md, 'Interleaved rounds'):
//
// - `today`: the same server script and load from a checkout of the commit before the
//   instrumentation (BENCH_BASELINE_REF, default 600e002: the telemetry layer with no call sites),
//   built into bench/.tmp/baseline-<ref> on first use (a `git clone` of this repository with
//   node_modules symlinked, then tsc). BENCH_BASELINE_DIR names an already built checkout instead;
//   BENCH_BASELINE_REF=none leaves the row out.
// - `no-sdk`: this tree, no OpenTelemetry SDK registered: the API's no-op tracer and meter, the
//   library default (decision 0157).
// - `sdk`: this tree with the SDK registered as `concord serve --otlp` registers it: every trace
//   sampled (AlwaysOn), a BatchSpanProcessor exporting OTLP/HTTP JSON, metrics read every
//   BENCH_METRIC_INTERVAL ms (default 10 000) and exported the same way, W3C trace context, an
//   AsyncLocalStorage context manager; the exporters post to a local receiver in its own process
//   (on the load generator's core) that reads and counts the bodies and answers `{}`.
//
// Reported per configuration: req/s, p50, p99 (medians over the rounds), and the per-round req/s
// ratio of `sdk` and `today` to `no-sdk`, and of both to `today`. The receiver's request and byte
// counts show that the `sdk` server did export (a row with nothing exported says so).
//
// Environment: BENCH_ROUNDS (default 3), BENCH_DURATION (s, default 5), BENCH_WARMUP (s, default 3),
// BENCH_CONNECTIONS (default 32), BENCH_QUIET_WAIT (s, default 5), BENCH_LOADGEN (wrk|autocannon).
//
// The same file is the `sdk` server (BENCH_TELEMETRY_ROLE=server: registers the SDK, then runs
// bench/servers/concord.mjs) and the receiver (BENCH_TELEMETRY_ROLE=receiver).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const env = process.env;

if (env.BENCH_TELEMETRY_ROLE === 'receiver') await receiver();
else if (env.BENCH_TELEMETRY_ROLE === 'server') await sdkServer();
else await main();

/** An OTLP/HTTP sink: reads every body, counts it, answers an empty ExportServiceResponse. */
async function receiver() {
  const counts = { traces: 0, metrics: 0, bytes: 0 };
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/stats') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
      return;
    }
    let bytes = 0;
    request.on('data', (chunk) => (bytes += chunk.length));
    request.on('end', () => {
      counts.bytes += bytes;
      if (request.url === '/v1/traces') counts.traces++;
      else if (request.url === '/v1/metrics') counts.metrics++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(Number(env.PORT), '127.0.0.1', () => process.stdout.write('READY {}\n'));
  process.on('SIGTERM', () => process.exit(0));
}

/** The `sdk` configuration: the SDK registered as `concord serve --otlp` does, then the bench server. */
async function sdkServer() {
  const { context, metrics, propagation, trace } = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } =
    await import('@opentelemetry/core');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { OTLPMetricExporter } = await import('@opentelemetry/exporter-metrics-otlp-http');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const { AlwaysOnSampler, BatchSpanProcessor, TracerProvider } = await import('@opentelemetry/sdk-trace');
  const { MeterProvider, PeriodicExportingMetricReader } = await import('@opentelemetry/sdk-metrics');
  const url = env.BENCH_OTLP_URL;
  const resource = resourceFromAttributes({ 'service.name': 'concord-bench' });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(
    new TracerProvider({
      resource,
      sampler: new AlwaysOnSampler(),
      spanProcessors: [
        new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${url}/v1/traces` }) }),
      ],
    }),
  );
  metrics.setGlobalMeterProvider(
    new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: new OTLPMetricExporter({ url: `${url}/v1/metrics` }),
          exportIntervalMillis: Number(env.BENCH_METRIC_INTERVAL ?? 10_000),
        }),
      ],
    }),
  );
  await import(pathToFileURL(join(here, 'servers/concord.mjs')).href);
}

/** A checkout of `ref` with dist built, for the `today` row; undefined when left out. */
function baselineDir() {
  if (env.BENCH_BASELINE_DIR) return resolve(env.BENCH_BASELINE_DIR);
  const ref = env.BENCH_BASELINE_REF ?? '600e002';
  if (ref === 'none') return undefined;
  const dir = join(here, '.tmp', `baseline-${ref}`);
  if (existsSync(join(dir, 'dist/server/index.js'))) return dir;
  process.stderr.write(`[bench] building the baseline ${ref} in ${dir}\n`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  execFileSync('git', ['clone', '--quiet', '--no-checkout', root, dir], { stdio: 'inherit' });
  execFileSync('git', ['-C', dir, 'checkout', '--quiet', ref], { stdio: 'inherit' });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: dir,
      stdio: 'inherit',
    },
  );
  return dir;
}

async function main() {
  const { checkServer } = await import('./lib/check.mjs');
  const { waitForQuiet } = await import('./lib/cpu.mjs');
  const { loadGeneratorNote, runLoad } = await import('./lib/load-runner.mjs');
  const { describeMachine } = await import('./lib/machine.mjs');
  const { pinning, spawnNodeOn } = await import('./lib/pin.mjs');
  const { badCount, pairedRatioText } = await import('./lib/report.mjs');
  const { median, pairedRatio } = await import('./lib/rounds.mjs');
  const { freePort, startServer, stopServer } = await import('./lib/server-process.mjs');
  const { SERVING_NODE_OPTIONS } = await import('../dist/cli/serve/process-tuning.js');

  const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
  const DURATION = Number(env.BENCH_DURATION ?? 5);
  const WARMUP = Number(env.BENCH_WARMUP ?? 3);
  const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 32);
  const QUIET_WAIT = Number(env.BENCH_QUIET_WAIT ?? 5);
  const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
  const nodeArgs = SERVING_NODE_OPTIONS.split(' ');
  const server = { BENCH_STORE: 'memory' };

  // The receiver shares the load generator's core: the server's core stays the server's own.
  const receiverPort = await freePort();
  const sink = spawnNodeOn(1, [fileURLToPath(import.meta.url)], {
    env: { ...env, PORT: String(receiverPort), BENCH_TELEMETRY_ROLE: 'receiver' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((ready) => sink.stdout.on('data', (d) => String(d).includes('READY') && ready()));
  const otlpUrl = `http://127.0.0.1:${receiverPort}`;
  const stats = async () => (await fetch(`${otlpUrl}/stats`)).json();

  const baseline = baselineDir();
  const configs = [
    ...(baseline === undefined
      ? []
      : [
          { name: 'today', script: join(baseline, 'bench/servers/concord.mjs'), env: server, note: baseline },
        ]),
    { name: 'no-sdk', script: join(here, 'servers/concord.mjs'), env: server },
    {
      name: 'sdk',
      script: fileURLToPath(import.meta.url),
      env: { ...server, BENCH_TELEMETRY_ROLE: 'server', BENCH_OTLP_URL: otlpUrl },
    },
  ];

  log(`${pinning.note}; load generator: ${loadGeneratorNote}`);
  // Every server runs for the whole benchmark (on core 0, with `concord serve`'s node options),
  // waiting while the others are measured.
  for (const config of configs) {
    config.server = await startServer(config.script, config.env, nodeArgs).catch((e) => ({
      failed: e.message,
    }));
  }

  const samples = new Map(configs.map((c) => [c.name, []]));
  for (const config of configs) {
    if (config.server.failed) {
      log(`${config.name}: not available (${config.server.failed})`);
      continue;
    }
    config.url = `http://127.0.0.1:${config.server.port}${config.server.path}`;
    const problem = await checkServer(config.url, 'message/send');
    if (problem) {
      log(`${config.name}: check failed: ${problem}`);
      config.server.failed = problem;
      continue;
    }
    log(`${config.name}: warm-up ${WARMUP}s`);
    if (WARMUP > 0)
      await runLoad({
        url: config.url,
        rpcMethod: 'message/send',
        connections: CONNECTIONS,
        duration: WARMUP,
      });
  }
  const live = configs.filter((c) => !c.server.failed);
  for (let round = 0; round < ROUNDS; round++) {
    for (const config of live) {
      await waitForQuiet(15, QUIET_WAIT * 1000);
      log(`${config.name}, round ${round + 1}/${ROUNDS}: ${DURATION}s`);
      const before = config.name === 'sdk' ? await stats() : undefined;
      const result = await runLoad({
        url: config.url,
        rpcMethod: 'message/send',
        connections: CONNECTIONS,
        duration: DURATION,
      });
      const bad = badCount(result);
      const status =
        result.total === 0
          ? 'FAILED: no responses'
          : bad / result.total > 0.01
            ? 'FAILED: bad responses'
            : 'ok';
      samples.get(config.name).push({ round, status, result });
      if (before !== undefined) {
        // Let the last batch go out before counting what this round exported.
        await new Promise((r) => setTimeout(r, 500));
        const after = await stats();
        config.exported = (config.exported ?? 0) + (after.traces - before.traces);
        config.exportedBytes = (config.exportedBytes ?? 0) + (after.bytes - before.bytes);
      }
      log(
        `${config.name}: ${Math.round(result.requestsPerSec)} req/s, p50 ${result.p50.toFixed(1)} ms, ${status}`,
      );
    }
  }
  for (const config of configs) if (config.server.child) await stopServer(config.server.child);
  sink.kill('SIGTERM');

  const ratio = (name, base) => {
    const paired = pairedRatio(samples.get(name) ?? [], samples.get(base) ?? []);
    if (paired === undefined) return '';
    const { median: m, range } = pairedRatioText(paired, 3);
    return range ? `${m} (${range})` : m;
  };
  const lines = [
    `# Telemetry overhead: send c=${CONNECTIONS}, memory store, ${ROUNDS} rounds of ${DURATION}s`,
    '',
    `${await describeMachine()}; ${pinning.note}; load generator: ${loadGeneratorNote}`,
    '',
    '| configuration | req/s | p50 ms | p99 ms | / no-sdk | / today | exported |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const config of configs) {
    const good = samples.get(config.name).filter((s) => s.status === 'ok');
    if (good.length === 0) {
      lines.push(`| ${config.name} | ${config.server.failed ?? 'no usable samples'} | | | | | |`);
      continue;
    }
    const m = (pick) => median(good.map((s) => pick(s.result)));
    const exported =
      config.name !== 'sdk'
        ? '—'
        : config.exported > 0
          ? `${config.exported} trace exports, ${(config.exportedBytes / 1e6).toFixed(1)} MB`
          : 'NOTHING (no spans: is the instrumentation in?)';
    lines.push(
      `| ${config.name} | ${Math.round(m((r) => r.requestsPerSec))} | ${m((r) => r.p50).toFixed(2)} | ${m((r) => r.p99).toFixed(2)} | ` +
        `${config.name === 'no-sdk' ? '1×' : ratio(config.name, 'no-sdk')} | ${config.name === 'today' ? '1×' : ratio(config.name, 'today')} | ${exported} |`,
    );
  }
  if (baseline !== undefined)
    lines.push(
      '',
      `today: ${baseline} (${env.BENCH_BASELINE_DIR ? 'BENCH_BASELINE_DIR' : `ref ${env.BENCH_BASELINE_REF ?? '600e002'}`})`,
    );
  const report = `${lines.join('\n')}\n`;
  process.stdout.write(report);
  mkdirSync(join(here, '.tmp'), { recursive: true });
  writeFileSync(join(here, '.tmp', 'telemetry-last-run.md'), report);
}
