/** Runs the built `concord` CLI as a child process, as a user would (dist/cli/main.js). */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');

/** A finished run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Credentials and stored logins a developer's own shell may hold, which no test may pick up (with every A2ACLI_ variable). */
const CALLER_SETTINGS = [
  'CONCORD_TOKEN',
  'CONCORD_API_KEY',
  'CONCORD_CLIENT_ID',
  'CONCORD_CLIENT_SECRET',
  'A2ACLI_BEARER',
  'A2ACLI_API_KEY',
];

/**
 * The environment without the caller's credentials, and with a login store no one has written
 * (`concord auth login` keeps logins in CONCORD_TOKEN_STORE, else under ~/.config): a test that
 * needs either passes it in `env`.
 */
function callerFreeEnv(): NodeJS.ProcessEnv {
  const rest = { ...process.env };
  for (const name of CALLER_SETTINGS) delete rest[name];
  // Every A2ACLI_<OPTION> setting, and the global .env of Concord's configuration directory.
  for (const name of Object.keys(rest)) if (name.startsWith('A2ACLI_')) delete rest[name];
  rest.XDG_CONFIG_HOME = join(tmpdir(), `concord-test-no-config-${process.pid}`);
  rest.CONCORD_TOKEN_STORE = join(tmpdir(), `concord-test-no-logins-${process.pid}.json`);
  return rest;
}

/**
 * Runs `concord ...args` to completion, in `cwd` (default: this process's). Credentials and
 * settings from the environment are left out.
 */
export function concord(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: { ...callerFreeEnv(), NO_COLOR: '1', ...env },
        timeout: 20_000,
        ...(cwd === undefined ? {} : { cwd }),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** Parses NDJSON output line by line; every non-empty line must be one JSON object. */
export function ndjson(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const value = JSON.parse(line) as unknown;
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new Error(`not a JSON object: ${line}`);
      return value as Record<string, unknown>;
    });
}

/** A running `concord ...args` whose stdout lines can be awaited. */
export interface LiveCli {
  child: ChildProcess;
  /** Resolves with stdout once `predicate` holds for it. */
  until(predicate: (stdout: string) => boolean): Promise<string>;
  /** Resolves when the process exits. */
  exited: Promise<CliRun>;
}

/** Starts `concord ...args` without waiting for it; `nodeArgs` go to node itself (V8 flags). */
export function startConcord(args: string[], nodeArgs: string[] = []): LiveCli {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
    env: { ...callerFreeEnv(), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { predicate: (s: string) => boolean; resolve: (s: string) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const w of [...waiters]) {
      if (w.predicate(stdout)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(stdout);
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<CliRun>((done) => {
    child.on('exit', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
  return {
    child,
    exited,
    until: (predicate) =>
      predicate(stdout)
        ? Promise.resolve(stdout)
        : new Promise((resolve, reject) => {
            waiters.push({ predicate, resolve });
            void exited.then((run) =>
              reject(new Error(`exited ${run.code} first: ${run.stdout}${run.stderr}`)),
            );
          }),
  };
}
