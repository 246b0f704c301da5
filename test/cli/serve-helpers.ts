/**
 * `concord serve` as a child process for the tests of its logs, health, metrics and shutdown
 * (decision 0158): the built CLI (dist/cli/main.js), an environment of the test's choosing, and the
 * listening URL read from the first lifecycle line, pretty or JSON.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './cli-process.js';

const CLI = join(ROOT, 'dist/cli/main.js');

export interface Served {
  child: ChildProcess;
  url: string;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `concord serve ...args` and resolves once it listens. */
export async function serve(
  args: string[],
  env: Record<string, string | undefined> = {},
  nodeArgs: string[] = [],
): Promise<Served> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // In JSON the agent's name is quoted as \"name\" inside the message.
      const found = /(?:serving \\?".*?\\?"|hosting \d+ agent\(s\)) at (http:\/\/[^\s"\\]+\/)/.exec(out);
      if (found !== null) resolve(found[1]!);
    });
    void exited.then((code) => reject(new Error(`concord serve exited ${code} first:\n${out}\n${err}`)));
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A JSON-RPC 1.0 SendMessage of `text` to `url`, with `headers` (credentials). */
export async function sendText(
  url: string,
  text: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } },
    }),
  });
}
