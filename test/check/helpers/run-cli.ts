/** Runs the built `concord` CLI as a child process (tests need `npm run build` first; `npm test` does it). */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { CheckReport } from '../../../src/check/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'dist/cli/main.js');

/** What a CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `concord <args>` to completion. */
export function runCli(args: string[], timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** Runs `concord check <url> --allow-private --json [...extra]` and parses the report. */
export async function checkJson(
  url: string,
  extra: string[] = [],
): Promise<{ run: CliRun; report: CheckReport }> {
  const run = await runCli(['check', url, '--allow-private', '--json', ...extra]);
  let report: CheckReport;
  try {
    report = JSON.parse(run.stdout) as CheckReport;
  } catch {
    throw new Error(`concord check printed no JSON report (exit ${run.code}): ${run.stderr}${run.stdout}`);
  }
  return { run, report };
}

/** The ids of the rules a report failed. */
export function failedRules(report: CheckReport): number[] {
  return report.rules.filter((r) => r.outcome === 'fail').map((r) => r.id);
}

/** Extra settings of a served agent. */
export interface ServeOptions {
  /** More `concord serve` flags (e.g. `--data-dir`). */
  args?: string[];
  /** Variables added to the environment (a model endpoint, a JWT secret). */
  env?: Record<string, string>;
}

/**
 * Starts `concord serve <target> --port 0 --store memory`; resolves with its URL once the banner
 * is out: a code agent's ("is serving ... at"), or a host's ("is hosting N agent(s) at", whose
 * task-store line ends it).
 */
export function serveCli(
  target: string,
  options: ServeOptions = {},
): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', target, '--port', '0', '--store', 'memory', ...(options.args ?? [])],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } },
  );
  let out = '';
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.on('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((started, failed) => {
    const timer = setTimeout(() => failed(new Error(`concord serve did not start: ${out}`)), 20_000);
    const seen = (chunk: Buffer): void => {
      out += chunk.toString();
      const agent = /is serving .* at (http:\/\/\S+\/)/.exec(out);
      const host = /is hosting \d+ agent\(s\) at (http:\/\/\S+\/)/.exec(out);
      const match = agent ?? (host !== null && out.includes('task stores:') ? host : null);
      if (match !== null) {
        clearTimeout(timer);
        started({ child, url: match[1]!, stop });
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => failed(new Error(`concord serve exited with ${code}: ${out}`)));
  });
}
