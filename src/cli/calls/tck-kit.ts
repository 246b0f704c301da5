/**
 * Driving the A2A TCK (a2aproject/a2a-tck, the Python kit the A2A project publishes) for
 * `concord conformance --tck <dir>` (a2a-cli SPEC v0.2 §5.1, `A2ACLI_CONFORM_001`; decision 0169).
 * Only the kit's 1.0 line (branch `1.0-dev`) is driven: its `run_tck.py` takes `--sut-host <base
 * URL>`, `--transport <jsonrpc,http_json,grpc>` (one comma-separated value), `--level
 * must|should|may` and `-v`, runs pytest over `tests/compatibility/` from the kit's own directory,
 * and writes `reports/compatibility.json` (per requirement: level, status PASS / FAIL / SKIPPED /
 * NOT TESTED, per-transport results, errors), `reports/junitreport.xml`, `reports/tck_report.html`
 * and `reports/compatibility.html`. The 0.3 line (`--sut-url`, `--category`) is recognised and
 * refused with the branch to use. Credentials reach the kit the way it reads them, in its
 * environment (`A2A_AUTH_TYPE=bearer`, `A2A_AUTH_TOKEN`), never on its command line; everything it
 * prints goes to stderr through the CLI's redaction.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import type { CliIo } from '../cli-io.js';
import { CliFailure, CONCORD_ERR, EXIT, UsageError } from '../exit-codes.js';

/** Where to get the kit's 1.0 line. */
export const TCK_CLONE = 'git clone -b 1.0-dev https://github.com/a2aproject/a2a-tck';

/** The kit's `--level` values, and `all` (no `--level`: every level). */
export const TCK_LEVELS = ['must', 'should', 'may', 'all'] as const;
export type TckLevel = (typeof TCK_LEVELS)[number];

/** A kit checkout found on disk, and how it will be started. */
export interface TckKit {
  /** The kit's directory, absolute. */
  dir: string;
  /** The kit line: only the 1.0 line is driven. */
  line: '1.0';
  /** The program and the arguments before the runner's own (`uv run run_tck.py`, `python3 run_tck.py`). */
  command: string;
  prefix: string[];
  /** How the runner is started, for people: `uv run` or `python3`. */
  runner: 'uv run' | 'python3';
}

/** What one run of the kit left behind. */
export interface TckRun {
  /** The runner's exit code (pytest's: 0 all passed, 1 a test failed, 2-5 it could not run). */
  exitCode: number;
  /** The parsed `reports/compatibility.json`. */
  report: TckReport;
  /** Its path. */
  reportPath: string;
  /** `reports/junitreport.xml`, when this run wrote one. */
  junitPath: string | null;
  /** The arguments the runner was given (no credential is ever among them). */
  args: string[];
}

/** One requirement of the kit's compatibility report, as written. */
export interface TckRequirement {
  level?: string;
  status?: string;
  transports?: Record<string, string>;
  errors?: unknown[];
  test_ids?: string[];
  description?: string;
}

/** The kit's `reports/compatibility.json`: only what Concord reads of it. */
export interface TckReport {
  summary?: Record<string, unknown>;
  per_requirement: Record<string, TckRequirement>;
  per_transport?: Record<string, unknown>;
}

/** An executable called `name` on the PATH, or undefined. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const file of names) {
      const path = join(dir, file);
      try {
        accessSync(path, constants.X_OK);
        if (statSync(path).isFile()) return path;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

/**
 * The kit at `given`: a directory holding the 1.0 line's `run_tck.py`. Anything else is a mistake
 * in `--tck` (a usage error naming what was found); no uv and no python3 to start it is a failure
 * of this machine, `CONCORD_ERR_TCK_UNAVAILABLE` (exit 1).
 */
export function findKit(given: string, env: NodeJS.ProcessEnv = process.env): TckKit {
  const dir = resolve(given);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`--tck ${given}: no such directory; get the kit with: ${TCK_CLONE}`);
  }
  if (!isDir) throw new UsageError(`--tck ${given}: not a directory; give the kit's checkout (${TCK_CLONE})`);
  const script = join(dir, 'run_tck.py');
  let text: string;
  try {
    text = readFileSync(script, 'utf8');
  } catch {
    throw new UsageError(
      `--tck ${given}: not an A2A TCK checkout (no run_tck.py in ${dir}); get the kit with: ${TCK_CLONE}`,
    );
  }
  if (!/--sut-host\b/.test(text)) {
    if (/--sut-url\b|--category\b/.test(text))
      throw new UsageError(
        `--tck ${given}: this is the A2A TCK's 0.3 line (its run_tck.py takes --sut-url and --category); ` +
          `concord conformance drives the 1.0 line, branch 1.0-dev: ${TCK_CLONE}`,
      );
    throw new UsageError(
      `--tck ${given}: its run_tck.py takes no --sut-host, so it is not the A2A TCK's 1.0 line; ${TCK_CLONE}`,
    );
  }
  // uv when the kit is a uv project (its documented way), else the system's python3.
  const uv = onPath('uv', env);
  if (uv !== undefined && existsSync(join(dir, 'pyproject.toml')))
    return { dir, line: '1.0', command: uv, prefix: ['run', 'run_tck.py'], runner: 'uv run' };
  const python = onPath('python3', env);
  if (python !== undefined)
    return { dir, line: '1.0', command: python, prefix: ['run_tck.py'], runner: 'python3' };
  throw new CliFailure(
    CONCORD_ERR.TCK_UNAVAILABLE,
    `cannot start the A2A TCK in ${dir}: neither uv (with the kit's pyproject.toml) nor python3 is on the PATH`,
    EXIT.FAILURE,
    'install uv (https://docs.astral.sh/uv/), then run uv sync in the kit; or Python 3.11+ with the kit installed (pip install -e .)',
  );
}

/** The kit's name of a transport given as Concord's (`rest`, `json-rpc`...) or as the kit's own. */
export function kitTransport(value: string): 'jsonrpc' | 'http_json' | 'grpc' {
  const name = value.trim().toLowerCase();
  if (name === 'jsonrpc' || name === 'json-rpc') return 'jsonrpc';
  if (['rest', 'http+json', 'http-json', 'http_json'].includes(name)) return 'http_json';
  if (name === 'grpc') return 'grpc';
  throw new UsageError(
    `--transport: expected jsonrpc, http_json (rest) or grpc, got ${JSON.stringify(value)}`,
  );
}

/** The runner's arguments: the agent's base URL, the transports as one list, the level. */
export function kitArguments(
  sutHost: string,
  options: { transports: readonly string[]; level: TckLevel; verbose: boolean },
): string[] {
  const args = ['--sut-host', sutHost];
  if (options.transports.length > 0) args.push('--transport', options.transports.join(','));
  if (options.level !== 'all') args.push('--level', options.level);
  if (options.verbose) args.push('-v');
  return args;
}

/** Writes a stream to stderr line by line (each line through the CLI's redaction). */
function forward(stream: NodeJS.ReadableStream, io: CliIo): () => void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) io.err(line);
  });
  return () => {
    if (pending !== '') io.err(pending);
    pending = '';
  };
}

/** Stops the kit and the pytest it started (its own process group). */
function stop(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
}

/** A report file written by this run (not one a previous run left), or undefined. */
function freshFile(path: string, since: number): string | undefined {
  try {
    // A little slack for file systems that keep coarse modification times.
    return statSync(path).mtimeMs >= since - 1000 ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Reads and checks the compatibility report. */
function readReport(path: string): TckReport {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliFailure(
      CONCORD_ERR.TCK_FAILED,
      `the A2A TCK's report ${path} is not JSON: ${(error as Error).message}`,
      EXIT.FAILURE,
    );
  }
  const perRequirement = (json as { per_requirement?: unknown } | null)?.per_requirement;
  if (typeof perRequirement !== 'object' || perRequirement === null || Array.isArray(perRequirement))
    throw new CliFailure(
      CONCORD_ERR.TCK_FAILED,
      `${path} has no per_requirement object: not the compatibility report of the A2A TCK's 1.0 line`,
      EXIT.FAILURE,
    );
  return json as TckReport;
}

/**
 * Runs the kit against `sutHost` with `args`, its output on stderr as it comes; `token`, when
 * given, goes to the kit in its environment. Aborting `signal` stops the kit and rejects.
 */
export async function runKit(
  kit: TckKit,
  args: string[],
  token: string | undefined,
  io: CliIo,
  signal: AbortSignal,
): Promise<TckRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: '1' };
  if (token !== undefined) {
    env.A2A_AUTH_TYPE = 'bearer';
    env.A2A_AUTH_TOKEN = token;
  }
  const startedAt = Date.now();
  io.err(
    `concord conformance: running the A2A TCK: ${kit.runner} ${[...kit.prefix.slice(-1), ...args].join(' ')} (in ${kit.dir})`,
  );
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done, fail) => {
    const child = spawn(kit.command, [...kit.prefix, ...args], {
      cwd: kit.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that a timeout or Ctrl-C stops pytest as well as the runner.
      detached: process.platform !== 'win32',
    });
    const flushOut = forward(child.stdout, io);
    const flushErr = forward(child.stderr, io);
    const onAbort = (): void => stop(child.pid);
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', onAbort);
      fail(
        new CliFailure(
          CONCORD_ERR.TCK_UNAVAILABLE,
          `cannot start the A2A TCK (${kit.command}): ${error.code ?? error.message}`,
          EXIT.FAILURE,
        ),
      );
    });
    child.once('close', (code, killedBy) => {
      signal.removeEventListener('abort', onAbort);
      flushOut();
      flushErr();
      done({ code, signal: killedBy });
    });
  });
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
  const reportPath = join(kit.dir, 'reports', 'compatibility.json');
  const junit = freshFile(join(kit.dir, 'reports', 'junitreport.xml'), startedAt);
  if (freshFile(reportPath, startedAt) === undefined) {
    const how = exit.code === null ? `was stopped by ${exit.signal ?? 'a signal'}` : `exited ${exit.code}`;
    throw new CliFailure(
      CONCORD_ERR.TCK_FAILED,
      `the A2A TCK ${how} and wrote no report (${reportPath})`,
      EXIT.FAILURE,
      exit.code === 2 || exit.code === 4
        ? 'the kit did not accept its arguments: see its output above'
        : `see the kit's output above; install its dependencies in ${kit.dir} with uv sync (or pip install -e .)`,
    );
  }
  return {
    exitCode: exit.code ?? 1,
    report: readReport(reportPath),
    reportPath,
    junitPath: junit ?? null,
    args,
  };
}
