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
import { STOPPED_SERVER_TEXT } from '../../src/server/internal.js';
import { concord, ROOT, startConcord, type LiveCli } from '../cli/cli-process.js';
import { eventually, getTask, sendText as send, type WireTask } from '../helpers/a2a-http.js';

const CLI = join(ROOT, 'dist/cli/main.js');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Served {
  live: LiveCli;
  url: string;
}

/** `concord serve` of the echo agent on `dataDir`'s SQLite store. */
function serveArgs(dataDir: string, extra: string[] = []): string[] {
  return ['serve', join(ROOT, 'examples/echo'), '--port', '0', '--data-dir', dataDir, ...extra];
}

async function serve(dataDir: string, extra: string[] = []): Promise<Served> {
  const live = startConcord(serveArgs(dataDir, extra));
  const url = /at (http:\/\/\S+\/)/.exec(await live.until((out) => /at http:\/\/\S+\//.test(out)))![1]!;
  return { live, url };
}

async function kill(served: Served, signal: NodeJS.Signals): Promise<void> {
  served.live.child.kill(signal);
  await served.live.exited;
}

/** Serves `dataDir`, runs `body` against it, then stops the server cleanly. */
async function withServer(
  dataDir: string,
  extra: string[],
  body: (url: string) => Promise<void>,
): Promise<void> {
  const served = await serve(dataDir, extra);
  try {
    await body(served.url);
  } finally {
    await kill(served, 'SIGTERM');
  }
}

/** The task as the server now reads it. */
async function read(url: string, id: string): Promise<WireTask> {
  const { status, task } = await getTask(url, id);
  expect(status).toBe(200);
  return task;
}

/** Waits until the task is in `state`. */
function reaches(url: string, id: string, state: string, withinMs = 10_000): Promise<WireTask> {
  return eventually(
    () => read(url, id),
    (task) => task.status.state === state,
    withinMs,
  );
}

/** Waits until the task was failed by the recovery, with its reason. */
async function failedByStop(url: string, id: string): Promise<void> {
  const task = await reaches(url, id, 'TASK_STATE_FAILED');
  expect(task.status.message?.parts[0]?.text).toBe(STOPPED_SERVER_TEXT);
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
    const working = await send(first.url, 'wait');
    const asking = await send(first.url, 'ask', false);
    const done = await send(first.url, 'hello', false);
    expect([working.status.state, asking.status.state, done.status.state]).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
    ]);
    await kill(first, 'SIGKILL');

    await withServer(dataDir, [], async (url) => {
      await failedByStop(url, working.id);
      expect((await read(url, asking.id)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect((await read(url, done.id)).status.state).toBe('TASK_STATE_COMPLETED');
      // The new server runs new work as usual.
      expect((await send(url, 'hello again', false)).status.state).toBe('TASK_STATE_COMPLETED');
    });
  }, 40_000);

  it('runs the agent again with --orphans resume, and the task completes', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    const streaming = await send(first.url, 'stream 20');
    expect(streaming.status.state).toBe('TASK_STATE_WORKING');
    // Some chunks are committed before the kill (100 ms apart), and the run is far from done.
    await new Promise((r) => setTimeout(r, 350));
    expect((await read(first.url, streaming.id)).status.state).toBe('TASK_STATE_WORKING');
    await kill(first, 'SIGKILL');

    await withServer(dataDir, ['--orphans', 'resume'], async (url) => {
      const completed = await reaches(url, streaming.id, 'TASK_STATE_COMPLETED', 15_000);
      // The second run streamed all 20 chunks into its own artifact.
      const last = completed.artifacts
        ?.at(-1)
        ?.parts.map((p) => p.text ?? '')
        .join('');
      expect(last).toContain('chunk 20 of 20');
    });
  }, 40_000);

  it('refuses a second server on a data directory a live one serves, and leaves its tasks alone', async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir);
    let working: WireTask;
    try {
      working = await send(first.url, 'wait');
      const second = await concord(serveArgs(dataDir));
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain('is in use by another Concord server (pid ');
      expect(second.stderr).toContain('stop it first, or use --store postgres to run several instances');
      expect((await read(first.url, working.id)).status.state).toBe('TASK_STATE_WORKING');
    } finally {
      await kill(first, 'SIGTERM');
    }
    // Stopped cleanly, it gave the file up: the next server starts, and settles the task it left.
    await withServer(dataDir, [], (url) => failedByStop(url, working.id));
  }, 40_000);
});
