/**
 * Optional peers (decision 0153): PostgreSQL, Redis, gRPC, MCP and the SQLite driver are not
 * installed with concord-a2a. Every entry but the features' own must load without any of them,
 * and a feature used without its packages must fail with an error naming the install line.
 * "Not installed" is simulated by fixtures/without-peers.mjs, which makes Node's resolver report
 * the packages missing for both `import` and `require()`; the built dist/ is what runs.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WITHOUT = join(ROOT, 'test', 'package', 'fixtures', 'without-peers.mjs');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { import: string }>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const PEERS = Object.keys(manifest.peerDependencies);

/** The entries that are an optional feature themselves, and need its packages to load. */
const FEATURE_ENTRIES = ['./server/grpc', './store/postgres', './cluster/postgres', './cluster/redis'];

const dataDir = mkdtempSync(join(tmpdir(), 'concord-peers-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs node with `args` as if `missing` were not installed. */
function node(args: string[], missing: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', WITHOUT, ...args],
      { cwd: ROOT, env: { ...process.env, CONCORD_WITHOUT: missing.join(',') }, timeout: 20_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          stdout,
          stderr,
        }),
    );
  });
}

describe('optional peers', () => {
  it('declares every peer optional', () => {
    expect(PEERS.sort()).toEqual(
      [
        '@grpc/grpc-js',
        '@grpc/proto-loader',
        '@grpc/reflection',
        '@modelcontextprotocol/sdk',
        '@opentelemetry/context-async-hooks',
        '@opentelemetry/core',
        '@opentelemetry/exporter-metrics-otlp-http',
        '@opentelemetry/exporter-prometheus',
        '@opentelemetry/exporter-trace-otlp-http',
        '@opentelemetry/resources',
        '@opentelemetry/sdk-metrics',
        '@opentelemetry/sdk-trace',
        '@redis/client',
        'better-sqlite3',
        'grpc-health-check',
        'pg',
        'pino',
        'protobufjs',
        // Contract validators (decision 0165): never imported by Concord itself.
        '@valibot/to-json-schema',
        'valibot',
        'zod',
      ].sort(),
    );
    for (const peer of PEERS) expect(manifest.peerDependenciesMeta[peer]?.optional).toBe(true);
  });

  it('loads the root, client and every other non-feature entry with none of them installed', async () => {
    const entries = Object.entries(manifest.exports)
      .filter(([name, target]) => typeof target === 'object' && !FEATURE_ENTRIES.includes(name))
      .map(([name, target]) => [name, (target as { import: string }).import]);
    expect(entries.map(([name]) => name)).toEqual(
      expect.arrayContaining(['.', './client', './host', './store/sqlite']),
    );
    const script = `for (const [name, file] of ${JSON.stringify(entries)}) {
      try { await import(new URL(file, 'file://${ROOT}/').href); }
      catch (error) { console.log(name + ': ' + error.message); }
    }`;
    const run = await node(['--input-type=module', '-e', script], PEERS);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(0);
  });

  it('still fails a feature entry whose package is missing (the simulation is real)', async () => {
    const run = await node(
      ['--input-type=module', '-e', `await import('${ROOT}/dist/store/postgres/index.js')`],
      ['pg'],
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("Cannot find package 'pg'");
  });

  it('serves on the memory store with none of them installed but pino (its logs; decision 0158)', async () => {
    const child = spawn(
      process.execPath,
      ['--import', WITHOUT, CLI, 'serve', 'examples/echo', '--store', 'memory', '--port', '0'],
      {
        cwd: ROOT,
        env: { ...process.env, CONCORD_WITHOUT: PEERS.filter((peer) => peer !== 'pino').join(',') },
      },
    );
    let out = '';
    const started = await new Promise<boolean>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('is serving')) resolve(true);
      });
      child.on('exit', () => resolve(false));
    });
    child.kill();
    expect(out).toContain('is serving "Echo Agent"');
    expect(started).toBe(true);
  });

  it('names the SQLite driver when `concord serve` runs on its default store without it', async () => {
    const run = await node(
      [CLI, 'serve', 'examples/echo', '--data-dir', dataDir, '--port', '0'],
      ['better-sqlite3'],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('SQLite task store');
    expect(run.stderr).toContain('npm install better-sqlite3');
  });

  it('names pg when PostgreSQL is used without it', async () => {
    const run = await node(
      [CLI, 'db', 'migrate', '--database-url', 'postgres://postgres@127.0.0.1:1/none'],
      ['pg'],
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      'PostgreSQL support needs the pg package, which is not installed: npm install pg',
    );
  });

  it('names every gRPC package when serving gRPC without one of them', async () => {
    const run = await node(
      [CLI, 'serve', 'examples/echo', '--store', 'memory', '--port', '0', '--grpc-port', '0'],
      ['grpc-health-check'],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'Serving gRPC needs the grpc-health-check package, which is not installed: ' +
        'npm install @grpc/grpc-js @grpc/proto-loader @grpc/reflection grpc-health-check protobufjs',
    );
  });
});
