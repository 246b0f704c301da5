/**
 * `concord serve` under a connection flood and with the connection flags (decision
 * 0146), as a child process. The flood runs the server under `ulimit -n 1024` (the usual limit,
 * lowered for that child only; nothing is raised anywhere): 1,100 connections that never send a
 * byte used to take every descriptor it had, and real requests failed until they timed out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closedWithin, openSocket, received } from '../helpers/raw-http.js';
import { concord, ROOT } from './cli-process.js';

const CLI = join(ROOT, 'dist/cli/main.js');
const ECHO = join(ROOT, 'examples/echo');
const FLOOD = 1_100;

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts `concord serve ...args` through `sh -c` (so `shellPrefix` can set limits) and waits for its URL. */
async function serve(args: string[], shellPrefix = ''): Promise<string> {
  const child = spawn(
    'sh',
    ['-c', `${shellPrefix}exec "$0" "$@"`, process.execPath, CLI, 'serve', ...args, '--port', '0'],
    { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let output = '';
  return new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const found = /(?:is serving .*|is hosting .*) at (http:\/\/\S+)/.exec(output);
      if (found !== null) resolve(found[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', () => reject(new Error(`concord serve ended before serving:\n${output}`)));
  });
}

async function socketTo(url: string): Promise<Socket> {
  const socket = await openSocket(url);
  socket.on('error', () => undefined);
  sockets.push(socket);
  return socket;
}

/** This process's soft open-file limit (Linux), to know whether it can hold the flood's sockets. */
function ownFileLimit(): number {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return match === null ? Infinity : Number(match[1]);
  } catch {
    return Infinity;
  }
}

describe('concord serve under a flood of silent connections', () => {
  it.skipIf(ownFileLimit() < FLOOD + 500)(
    'answers a real request within 5 s while 1,100 sockets that never spoke are open',
    async () => {
      const url = await serve([ECHO, '--store', 'memory', '--no-push'], 'ulimit -n 1024 && ');
      const flood: Socket[] = [];
      for (let i = 0; i < FLOOD; i++) flood.push(await socketTo(url));
      const started = Date.now();
      const res = await fetch(`${url}.well-known/agent-card.json`, { signal: AbortSignal.timeout(5_000) });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      // The oldest silent sockets made room; the server kept below its descriptor limit.
      await closedWithin(flood[0]!, 1_000);
      const send = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'still here' }] } },
        }),
        signal: AbortSignal.timeout(5_000),
      });
      expect(JSON.stringify(await send.json())).toContain('echo: still here');
    },
    30_000,
  );
});

describe('the connection flags', () => {
  it('--headers-timeout closes a silent connection and --idle-timeout an idle keep-alive one', async () => {
    const url = await serve([
      ECHO,
      '--store',
      'memory',
      '--headers-timeout',
      '300ms',
      '--idle-timeout',
      '200ms',
    ]);
    const silent = await socketTo(url);
    const nothing = received(silent);
    await closedWithin(silent, 2_500);
    expect(await nothing).toBe('');
    const idle = await socketTo(url);
    const answer = received(idle);
    idle.write('GET /.well-known/agent-card.json HTTP/1.1\r\nHost: x\r\n\r\n');
    await closedWithin(idle, 2_500);
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('--max-connections sheds the oldest silent connections for new ones', async () => {
    const url = await serve([ECHO, '--store', 'memory', '--max-connections', '10']);
    const quiet: Socket[] = [];
    for (let i = 0; i < 30; i++) quiet.push(await socketTo(url));
    const res = await fetch(`${url}.well-known/agent-card.json`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
    await closedWithin(quiet[0]!, 1_000);
    await closedWithin(quiet[20]!, 1_000);
    expect(quiet.slice(25).every((socket) => !socket.closed)).toBe(true);
  });

  it('reaches the listeners of a host too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-serve-connections-'));
    dirs.push(dir);
    cpSync(join(ROOT, 'test/integration/fixtures/host/echo-handler.mjs'), join(dir, 'echo-handler.mjs'));
    writeFileSync(
      join(dir, 'solo.md'),
      '---\nname: solo\nexposed: true\ndescription: The only agent.\nhandler: ./echo-handler.mjs\n---\n',
    );
    const url = await serve([
      dir,
      '--store',
      'memory',
      '--headers-timeout',
      '300ms',
      '--max-connections',
      '3',
    ]);
    const silent = await socketTo(url);
    await closedWithin(silent, 2_500);
    const quiet: Socket[] = [];
    for (let i = 0; i < 6; i++) quiet.push(await socketTo(url));
    await closedWithin(quiet[0]!, 1_000);
  });

  it('refuses values that cannot work, naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--max-connections', '0'], /--max-connections: expected a positive whole number, got 0/],
      [['--headers-timeout', '45s'], /--headers-timeout: at most 30s \(the whole request's limit\), got 45s/],
      [['--idle-timeout', 'soon'], /--idle-timeout: expected a positive duration/],
    ];
    for (const [flags, message] of cases) {
      const run = await concord(['serve', ECHO, '--store', 'memory', ...flags]);
      expect(run.code, flags.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    const help = await concord(['serve', '--help']);
    expect(help.stdout).toMatch(/--max-connections <n>/);
    expect(help.stdout).toMatch(/--headers-timeout <t>/);
    expect(help.stdout).toMatch(/--idle-timeout <t>/);
  });
});
