/**
 * Restart recovery through the public API (decision 0119): a server built on a SQLite file that an
 * earlier server left with a working task settles that task, and waits for `recoverAfter` first
 * (a host passes "every agent is mounted", so a resumed agent can send to its siblings). Real
 * file, real sockets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createA2AServer, STOPPED_SERVER_TEXT, type AgentExecutor } from '../../src/server/internal.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { openSqliteTaskStore } from '../../src/store/sqlite/index.js';
import { eventually, getTask, sendText } from '../helpers/a2a-http.js';

const card = {
  name: 'stall',
  description: 'starts work and never finishes',
  version: '1.0.0',
  supportedInterfaces: [],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'stall', name: 'stall', description: 'stall', tags: [] }],
};

/** Starts work and then never says anything again, as an agent whose process died. */
const stalled: AgentExecutor = {
  execute(_context, updater) {
    updater.startWork('working');
    return new Promise(() => undefined);
  },
};

const dirs: string[] = [];
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serve(path: string, recoverAfter?: Promise<unknown>): Promise<RunningServer> {
  const server = createA2AServer({
    agentCard: card,
    executor: stalled,
    store: openSqliteTaskStore({ path }),
    ...(recoverAfter === undefined ? {} : { recoverAfter }),
  });
  const listening = await listen(server, { port: 0 });
  running.push(listening);
  return listening;
}

describe('restart recovery (createA2AServer on SQLite)', () => {
  it('settles a task an earlier server left working, once recoverAfter settles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-recover-'));
    dirs.push(dir);
    const path = join(dir, 'tasks.db');
    const first = await serve(path);
    const task = await sendText(first.url, 'go');
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    // A stop that leaves the agent's task working (its executor never ends).
    await first.close();
    running.splice(running.indexOf(first), 1);

    let mounted!: () => void;
    const second = await serve(path, new Promise<void>((resolve) => (mounted = resolve)));
    await new Promise((r) => setTimeout(r, 300));
    expect((await getTask(second.url, task.id)).task.status.state).toBe('TASK_STATE_WORKING');
    mounted();
    const failed = await eventually(
      () => getTask(second.url, task.id),
      (read) => read.task.status.state === 'TASK_STATE_FAILED',
    );
    expect(failed.task.status.message?.parts[0]?.text).toBe(STOPPED_SERVER_TEXT);
  });
});
