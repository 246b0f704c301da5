/**
 * `concord serve`'s optional peers (decisions 0153, 0158): the logger (pino) and the telemetry SDK
 * are loaded only when used, and a missing one fails the start with an error naming the package
 * and the install line. "Not installed" is simulated by test/package/fixtures/without-peers.mjs.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-process.js';

const WITHOUT = join(ROOT, 'test', 'package', 'fixtures', 'without-peers.mjs');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

function serveWithout(missing: string[], args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', WITHOUT, CLI, 'serve', 'examples/echo', '--store', 'memory', '--port', '0', ...args],
      { cwd: ROOT, env: { ...process.env, CONCORD_WITHOUT: missing.join(',') }, timeout: 20_000 },
      (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr }),
    );
  });
}

describe('concord serve without its optional peers', () => {
  it('names the OTLP exporter when --otlp is asked for without it', async () => {
    const run = await serveWithout(
      ['@opentelemetry/exporter-trace-otlp-http'],
      ['--otlp', 'http://127.0.0.1:4318'],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('@opentelemetry/exporter-trace-otlp-http');
    expect(run.stderr).toContain('npm install @opentelemetry/sdk-trace');
  });

  it('names the SDK when OTEL_EXPORTER_OTLP_ENDPOINT asks for it', async () => {
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', WITHOUT, CLI, 'serve', 'examples/echo', '--store', 'memory', '--port', '0'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            CONCORD_WITHOUT: '@opentelemetry/sdk-trace',
            OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
          },
          timeout: 20_000,
        },
        (error, _stdout, stderr) =>
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr }),
      );
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('needs the @opentelemetry/sdk-trace package');
  });

  it('names the Prometheus exporter for --metrics, and pino for the logs', async () => {
    const metrics = await serveWithout(['@opentelemetry/exporter-prometheus'], ['--metrics']);
    expect(metrics.code).toBe(1);
    expect(metrics.stderr).toContain('@opentelemetry/exporter-prometheus');
    const logs = await serveWithout(['pino'], []);
    expect(logs.code).toBe(1);
    expect(logs.stderr).toContain("`concord serve`'s logs needs the pino package");
  });

  it('refuses an OTLP URL that is not http(s) before loading anything', async () => {
    const run = await serveWithout([], ['--otlp', 'grpc://collector:4317']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--otlp: expected an http or https URL');
  });
});
