/**
 * `npm start`, the README's first command, hands its process to node: npm runs the
 * script through `sh -c` and signals only that shell, so without `exec` a SIGTERM to npm left the
 * server running as an orphan. The script runs here as npm runs it (`--ignore-scripts` skips only
 * the prestart build; the suite's build is already there), on a port of its own and a temporary
 * data directory.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './cli-process.js';

it('a SIGTERM to npm start stops the server', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'concord-npm-start-'));
  const npm = spawn('npm', ['start', '--ignore-scripts', '--', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, DEALER_VEHICLES: '50' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      npm.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /is serving .* at (http:\/\/\S+)/.exec(output);
        if (found !== null) resolve(found[1]!);
      });
      npm.once('exit', () => reject(new Error(`npm start ended before serving:\n${output}`)));
    });
    expect((await fetch(new URL('.well-known/agent-card.json', url))).status).toBe(200);
    const exited = once(npm, 'exit');
    npm.kill('SIGTERM');
    await exited;
    // The server went with it: its port refuses connections (an orphan would still answer).
    await expect
      .poll(
        () =>
          fetch(url).then(
            () => 'answering',
            () => 'gone',
          ),
        { timeout: 10_000, interval: 200 },
      )
      .toBe('gone');
  } finally {
    npm.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
