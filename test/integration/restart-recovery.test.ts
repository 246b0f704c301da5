/**
 * After kill -9 of a single server on SQLite, the restarted server settles the tasks the dead one
 * was running (decision 0119): by default they fail with a status message saying the server
 * stopped; with `--orphans resume` the agent runs again and finishes them. Tasks waiting for their
 * client (input-required) and finished tasks are left as they were, and a second server refuses to
 * start on a data directory a live one serves. Real CLI processes, real sockets, a real SQLite
 * file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STOPPED_SERVER_TEXT } from '../../src/server/index.js';
import { concord, ROOT, startConcord, type LiveCli } from '../cli/cli-process.js';

const CLI = join(ROOT, 'dist/cli/main.js');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Served {
  live: LiveCli;
  url: string;
}

async function serve(dataDir: string, extra: string[] = []): Promise<Served> {
  const live = startConcord([
    'serve',
    join(ROOT, 'examples/echo'),
    '--port',
    '0',
    '--data-dir',
    dataDir,
    ...extra,
  ]);
  const url = /at (http:\/\/\S+\/)/.exec(await live.until((out) => /at http:\/\/\S+\//.test(out)))![1]!;
  return { live, url };
}

async function kill(served: Served, signal: NodeJS.Signals): Promise<void> {
  served.live.child.kill(signal);
  await served.live.exited;
}

interface WireTask {
  id: string;
  status: { state: string; message?: { parts: { text?: string }[] } };
  artifacts?: { parts: { text?: string }[] }[];
}

async function send(url: string, text: string, returnImmediately = false): Promise<WireTask> {
  const response = await fetch(`${url}message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
      configuration: { returnImmediately },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { task: WireTask }).task;
}

async function getTask(url: string, id: string): Promise<WireTask> {
  const response = await fetch(`${url}tasks/${id}`, { headers: { 'a2a-version': '1.0' } });
  expect(response.status).toBe(200);
  return (await response.json()) as WireTask;
}

/** Polls until the task's state is `state` (or the deadline passes, returning the last read). */
async function settled(url: string, id: string, state: string, withinMs: number): Promise<WireTask> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const task = await getTask(url, id);
    if (task.status.state === state || Date.now() > deadline) return task;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-recovery-'));
  dirs.push(dir);
  return dir;
}

describe.skipIf(!existsSync(CLI))('restart recovery on SQLite (needs `npm run build`)', () => {
  it('fails the tasks a killed server was running, and leaves waiting and finished tasks alone', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    const working = await send(first.url, 'wait', true);
    const asking = await send(first.url, 'ask');
    const done = await send(first.url, 'hello');
    expect([working.status.state, asking.status.state, done.status.state]).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
    ]);
    await kill(first, 'SIGKILL');

    const second = await serve(dataDir);
    try {
      const failed = await settled(second.url, working.id, 'TASK_STATE_FAILED', 10_000);
      expect(failed.status.state).toBe('TASK_STATE_FAILED');
      expect(failed.status.message?.parts[0]?.text).toBe(STOPPED_SERVER_TEXT);
      expect((await getTask(second.url, asking.id)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect((await getTask(second.url, done.id)).status.state).toBe('TASK_STATE_COMPLETED');
      // The new server runs new work as usual.
      expect((await send(second.url, 'hello again')).status.state).toBe('TASK_STATE_COMPLETED');
    } finally {
      await kill(second, 'SIGTERM');
    }
  }, 40_000);

  it('runs the agent again with --orphans resume, and the task completes', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    const streaming = await send(first.url, 'stream 20', true);
    expect(streaming.status.state).toBe('TASK_STATE_WORKING');
    // Some chunks are committed before the kill (100 ms apart), and the run is far from done.
    const before = await settled(first.url, streaming.id, 'never', 350);
    expect(before.status.state).toBe('TASK_STATE_WORKING');
    await kill(first, 'SIGKILL');

    const second = await serve(dataDir, ['--orphans', 'resume']);
    try {
      const completed = await settled(second.url, streaming.id, 'TASK_STATE_COMPLETED', 15_000);
      expect(completed.status.state).toBe('TASK_STATE_COMPLETED');
      // The second run streamed all 20 chunks into its own artifact.
      const last = completed.artifacts
        ?.at(-1)
        ?.parts.map((p) => p.text ?? '')
        .join('');
      expect(last).toContain('chunk 20 of 20');
    } finally {
      await kill(second, 'SIGTERM');
    }
  }, 40_000);

  it('refuses a second server on a data directory a live one serves, and leaves its tasks alone', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    let working: WireTask;
    try {
      working = await send(first.url, 'wait', true);
      const second = await concord([
        'serve',
        join(ROOT, 'examples/echo'),
        '--port',
        '0',
        '--data-dir',
        dataDir,
      ]);
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain('is in use by another Concord server (pid ');
      expect(second.stderr).toContain('stop it first, or use --store postgres to run several instances');
      expect((await getTask(first.url, working.id)).status.state).toBe('TASK_STATE_WORKING');
    } finally {
      await kill(first, 'SIGTERM');
    }
    // Stopped cleanly, it gave the file up: the next server starts, and settles the task it left.
    const third = await serve(dataDir);
    try {
      const failed = await settled(third.url, working.id, 'TASK_STATE_FAILED', 10_000);
      expect(failed.status.message?.parts[0]?.text).toBe(STOPPED_SERVER_TEXT);
    } finally {
      await kill(third, 'SIGTERM');
    }
  }, 40_000);
});
