/**
 * Which process serves a SQLite file (decision 0119): `claimUnfinished` hands the tasks an earlier
 * process left submitted or working to exactly one live server, and refuses while another live
 * process holds the file. Real files; the "other process" is a real child process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskState } from '../../src/protocol/index.js';
import type { TaskScope } from '../../src/store/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import { createCommit, makeTask } from './task-store-suite.js';

const dirs: string[] = [];
const stops: (() => void)[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-owner-'));
  dirs.push(dir);
  return join(dir, 'tasks.db');
}

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** This host as the lease names it: the hostname and, on Linux, the pid namespace. */
function thisHost(): string {
  try {
    return `${hostname()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

/** Writes the owner row as another process would have left it. */
function leaveOwner(path: string, pid: number, heartbeatAt: number, host = thisHost()): void {
  const db = new Database(path);
  db.prepare(
    'INSERT OR REPLACE INTO store_owner (id, instance, pid, host, heartbeat_at) VALUES (1, ?, ?, ?, ?)',
  ).run('earlier-process', pid, host, heartbeatAt);
  db.close();
}

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(run.stdout);
}

/** A pid that runs until the test ends. */
function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  stops.push(() => child.kill('SIGKILL'));
  return child.pid!;
}

const scope: TaskScope = { tenant: 'acme', owner: 'alice' };

describe('SQLite store owner (claimUnfinished)', () => {
  it('returns the submitted and working tasks, not interrupted or ended ones', async () => {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    const states: [string, TaskState][] = [
      ['s', 'TASK_STATE_SUBMITTED'],
      ['w', 'TASK_STATE_WORKING'],
      ['i', 'TASK_STATE_INPUT_REQUIRED'],
      ['a', 'TASK_STATE_AUTH_REQUIRED'],
      ['c', 'TASK_STATE_COMPLETED'],
      ['f', 'TASK_STATE_FAILED'],
    ];
    for (const [id, state] of states) await store.commit(createCommit(makeTask(id, { state }), scope));
    // Other tenants, the anonymous one ('') among them, each with tasks in several states.
    for (const tenant of ['', 'zeta']) {
      for (const [id, state] of states) {
        await store.commit(createCommit(makeTask(`${tenant}-${id}`, { state }), { tenant, owner: '' }));
      }
    }
    const found = await store.claimUnfinished();
    expect(found?.map((t) => `${t.tenant}/${t.owner}/${t.taskId}`).sort()).toEqual([
      '//-s',
      '//-w',
      'acme/alice/s',
      'acme/alice/w',
      'zeta//zeta-s',
      'zeta//zeta-w',
    ]);
    await store.close();
  });

  it('refuses a second store of this process while the first serves the file, then hands it over', async () => {
    const path = tempDb();
    const first = new SqliteTaskStore({ path });
    const second = new SqliteTaskStore({ path });
    await first.commit(createCommit(makeTask('w', { state: 'TASK_STATE_WORKING' }), scope));
    expect(await first.claimUnfinished()).toHaveLength(1);
    expect(await second.claimUnfinished()).toBeUndefined();
    // The tasks are handed out once: asking again while holding the file finds nothing to settle.
    expect(await first.claimUnfinished()).toEqual([]);
    await first.close();
    expect(await second.claimUnfinished()).toEqual([{ taskId: 'w', ...scope }]);
    await second.close();
  });

  it('takes the file at once from an owner whose process is gone', async () => {
    const path = tempDb();
    await new SqliteTaskStore({ path }).close();
    leaveOwner(path, deadPid(), Date.now());
    const store = new SqliteTaskStore({ path });
    expect(await store.claimUnfinished()).toEqual([]);
    await store.close();
  });

  it('takes the file from an earlier process that had this pid (a restarted container)', async () => {
    const path = tempDb();
    await new SqliteTaskStore({ path }).close();
    // Its last heartbeat came before this process started.
    const started = Date.now() - process.uptime() * 1000;
    leaveOwner(path, process.pid, started - 1_000);
    const store = new SqliteTaskStore({ path });
    expect(store.servedElsewhere()).toBeUndefined();
    expect(await store.claimUnfinished()).toEqual([]);
    await store.close();
  });

  it('counts an owner of this pid that beat since this process started as alive (another thread)', async () => {
    const path = tempDb();
    await new SqliteTaskStore({ path }).close();
    leaveOwner(path, process.pid, Date.now());
    const store = new SqliteTaskStore({ path });
    expect(store.servedElsewhere()).toEqual({ pid: process.pid, host: expect.any(String) });
    expect(await store.claimUnfinished()).toBeUndefined();
    await store.close();
  });

  it('waits for a live owner until its heartbeat is older than the TTL', async () => {
    const path = tempDb();
    await new SqliteTaskStore({ path }).close();
    const pid = livePid();
    leaveOwner(path, pid, Date.now());
    const store = new SqliteTaskStore({ path });
    expect(store.servedElsewhere()?.pid).toBe(pid);
    expect(await store.claimUnfinished()).toBeUndefined();
    // The same owner, silent for 16 s (the TTL is 15 s): it no longer counts.
    leaveOwner(path, pid, Date.now() - 16_000);
    expect(await store.claimUnfinished()).toEqual([]);
    await store.close();
  });

  it('waits for an owner on another host until its heartbeat expires', async () => {
    const path = tempDb();
    await new SqliteTaskStore({ path }).close();
    leaveOwner(path, deadPid(), Date.now(), 'some-other-host');
    const store = new SqliteTaskStore({ path });
    // A pid on another host says nothing here: only the heartbeat does.
    expect(await store.claimUnfinished()).toBeUndefined();
    await store.close();
  });

  it('gives the file up on close, so the next process takes it at once', async () => {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    expect(await store.claimUnfinished()).toEqual([]);
    await store.close();
    const db = new Database(path);
    expect(db.prepare('SELECT COUNT(*) AS n FROM store_owner').get()).toEqual({ n: 0 });
    db.close();
  });
});
