/**
 * `concord serve` applies a retention by default (decision 0151), as an operator runs it: a data
 * directory whose file holds tasks finished 8 days ago loses them at the first sweep while a task
 * finished yesterday stays, for a code agent and for a hosted one; `--retention-max-tasks` keeps
 * the most recent tasks the server finished; `--retention off` keeps everything; the banner says
 * which; and the flags are checked before anything starts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import { ANON, createCommit, makeTask } from '../store/suite/fixtures.js';
import { concord, ROOT, startConcord, type LiveCli } from './cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'concord-cli-retention-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const echo = join(ROOT, 'examples/echo');
const DAY = 86_400_000;

/** A data directory whose store file already holds tasks that finished `daysAgo` days ago. */
function dataDirWith(file: string, tasks: Record<string, number>): Promise<string> {
  const dir = mkdtempSync(join(scratch, 'data-'));
  const store = new SqliteTaskStore({ path: join(dir, file) });
  return Promise.all(
    Object.entries(tasks).map(([id, daysAgo]) =>
      store.commit(
        createCommit(
          makeTask(id, {
            state: 'TASK_STATE_COMPLETED',
            timestamp: new Date(Date.now() - daysAgo * DAY).toISOString(),
          }),
          ANON,
        ),
      ),
    ),
  )
    .finally(() => store.close())
    .then(() => dir);
}

async function rpc(url: string, method: string, params: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (body.result === undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** The ids of the tasks the agent at `url` lists, sorted. */
async function listed(url: string): Promise<string[]> {
  const result = (await rpc(url, 'ListTasks', { pageSize: 100 })) as { tasks: { id: string }[] };
  return result.tasks.map((task) => task.id).sort();
}

async function send(url: string, text: string): Promise<string> {
  const message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
  const result = (await rpc(url, 'SendMessage', { message })) as {
    task: { id: string; status: { state: string } };
  };
  expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
  return result.task.id;
}

/** Serves, waits for the banner, runs `check` with the URL and banner, then stops the server. */
async function serving(args: string[], check: (url: string, banner: string) => Promise<void>): Promise<void> {
  const server: LiveCli = startConcord(['serve', ...args, '--port', '0']);
  try {
    const banner = await server.until((out) => out.includes('task retention:'));
    await check(/ at (http:\/\/\S+\/)/.exec(banner)![1]!, banner);
  } finally {
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  }
}

describe('concord serve: task retention', () => {
  it('deletes tasks finished more than 7 days ago by default, and says so', async () => {
    const dataDir = await dataDirWith('tasks.db', { 'eight-days': 8, 'ten-days': 10, yesterday: 1 });
    await serving([echo, '--data-dir', dataDir, '--retention-interval', '100ms'], async (url, banner) => {
      expect(banner).toContain(
        'task retention: finished tasks kept for 7d, at most 100,000 of them (swept every 100ms)',
      );
      await expect.poll(() => listed(url), { timeout: 10_000, interval: 50 }).toEqual(['yesterday']);
    });
  });

  it('applies the default to a hosted agent too', async () => {
    const hostDir = mkdtempSync(join(scratch, 'host-'));
    writeFileSync(
      join(hostDir, 'hello.md'),
      '---\nname: hello-bot\nexposed: true\ndescription: Says hello.\nversion: 1.0.0\nhandler: ./hello.mjs\n---\n\nA code agent.\n',
    );
    writeFileSync(
      join(hostDir, 'hello.mjs'),
      'export const executor = { async execute(context, updater) { updater.complete(); } };\n',
    );
    const dataDir = await dataDirWith('hello-bot.db', { old: 9, recent: 2 });
    await serving([hostDir, '--data-dir', dataDir, '--retention-interval', '100ms'], async (url, banner) => {
      expect(banner).toContain('task retention: finished tasks kept for 7d, at most 100,000 of them');
      await expect
        .poll(() => listed(`${url}agents/hello-bot/`), { timeout: 10_000, interval: 50 })
        .toEqual(['recent']);
    });
  });

  it('keeps the most recently finished tasks past --retention-max-tasks', async () => {
    const dataDir = mkdtempSync(join(scratch, 'data-'));
    const args = [echo, '--data-dir', dataDir, '--retention-max-tasks', '3', '--retention-interval', '100ms'];
    await serving(args, async (url, banner) => {
      expect(banner).toContain(
        'task retention: finished tasks kept for 7d, at most 3 of them (swept every 100ms)',
      );
      const sent: string[] = [];
      for (let i = 0; i < 6; i++) {
        sent.push(await send(url, `hello ${i}`));
        // A distinct finishing instant for each: tasks finished at the same instant are kept together.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await expect.poll(() => listed(url), { timeout: 10_000, interval: 50 }).toEqual(sent.slice(3).sort());
    });
  });

  it('keeps every task with --retention off', async () => {
    const dataDir = await dataDirWith('tasks.db', { 'a-year': 365, 'eight-days': 8 });
    await serving([echo, '--data-dir', dataDir, '--retention', 'off'], async (url, banner) => {
      expect(banner).toContain('task retention: off, every task is kept');
      const fresh = await send(url, 'hello');
      expect(await listed(url)).toEqual(['a-year', 'eight-days', fresh].sort());
    });
  });

  it('checks the flags before starting', async () => {
    const bad: [string[], RegExp][] = [
      [['--store', 'memory', '--retention-max-tasks', '10'], /--retention-max-tasks: the memory store keeps/],
      [
        ['--retention-max-tasks', '0'],
        /--retention-max-tasks: expected a whole number of at least 1, or off, got "0"/,
      ],
      [['--retention-max-tasks', 'lots'], /--retention-max-tasks: expected a whole number .* got "lots"/],
      [['--retention-interval', 'soon'], /--retention-interval: expected a positive duration/],
      [['--retention', 'off', '--retention-interval', '1m'], /--retention-interval: retention is off/],
      [['--retention', 'forever'], /--retention: expected a positive duration .* got "forever", or off/],
    ];
    const dataDir = mkdtempSync(join(scratch, 'data-'));
    await Promise.all(
      bad.map(async ([flags, message]) => {
        const run = await concord(['serve', echo, '--port', '0', '--data-dir', dataDir, ...flags]);
        expect(run.code, flags.join(' ')).toBe(2);
        expect(run.stderr, flags.join(' ')).toMatch(message);
      }),
    );
  });
});
