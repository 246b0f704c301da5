/**
 * The shared ApprovalStore suite against every implementation (memory on its own, and each
 * TaskStore's `approvals`), plus what only the SQLite one owes: pending approvals survive closing
 * and reopening the file and a SIGKILL right after `create` resolved, decisions stay single across
 * connections, writes keep their order with the task store's write queue, and an older file is
 * upgraded in place.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApprovalConflictError,
  ApprovalExistsError,
  createMemoryApprovalStore,
  createMemoryTaskStore,
  type ApprovalRecord,
  type ApprovalStore,
  type TaskScope,
} from '../../src/store/index.js';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import { describeApprovalStoreSuite, newApproval } from './approval-store-suite.js';
import { createCommit, makeTask } from './task-store-suite.js';
import { undoSchema8 } from './sqlite-rollback.js';

const dirs: string[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-approvals-'));
  dirs.push(dir);
  return join(dir, 'nested', 'tasks.db');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeApprovalStoreSuite('memory', () => {
  const approvals = createMemoryApprovalStore();
  return Promise.resolve({ approvals, cleanup: () => approvals.close() });
});

describeApprovalStoreSuite('memory TaskStore.approvals', () => {
  const store = createMemoryTaskStore();
  return Promise.resolve({ approvals: store.approvals!, cleanup: () => store.close() });
});

describeApprovalStoreSuite('sqlite TaskStore.approvals (file)', () => {
  const store = new SqliteTaskStore({ path: tempDb() });
  return Promise.resolve({ approvals: store.approvals, cleanup: () => store.close() });
});

describeApprovalStoreSuite('sqlite TaskStore.approvals (:memory:)', () => {
  const store = new SqliteTaskStore({ path: ':memory:' });
  return Promise.resolve({ approvals: store.approvals, cleanup: () => store.close() });
});

describe('approvals close with their task store', () => {
  for (const [name, open] of [
    ['memory', () => createMemoryTaskStore()],
    ['sqlite', () => new SqliteTaskStore({ path: ':memory:' })],
  ] as const) {
    it(`refuses every call once the ${name} task store is closed`, async () => {
      const store = open();
      const approvals = store.approvals!;
      await approvals.create(newApproval('a1'));
      await store.close();
      await expect(approvals.get('a1')).rejects.toThrow(/approval store is closed/);
      await expect(approvals.create(newApproval('a2'))).rejects.toThrow(/closed/);
      await expect(approvals.decide('a1', { status: 'approved', decidedBy: 'owner' })).rejects.toThrow(
        /closed/,
      );
      await expect(approvals.list({})).rejects.toThrow(/closed/);
    });
  }
});

describe('SQLite approvals durability', () => {
  const scope: TaskScope = { tenant: 'acme', owner: 'alice' };

  it('finds pending and decided approvals, their order and audit log after reopening the file', async () => {
    const path = tempDb();
    let store = new SqliteTaskStore({ path });
    await store.commit(createCommit(makeTask('task-of-p1'), scope));
    await store.approvals.create(newApproval('p1', { correlationId: 'corr-1' }));
    await store.approvals.create(newApproval('d1'));
    await store.approvals.create(newApproval('p2'));
    const decided = await store.approvals.decide('d1', {
      status: 'rejected',
      decidedBy: 'owner',
      reason: 'no',
    });
    const before = await store.approvals.list({});
    await store.close();

    store = new SqliteTaskStore({ path });
    try {
      const { approvals } = store;
      expect(await approvals.list({})).toEqual(before);
      expect((await approvals.list({ status: 'pending' })).approvals.map((a) => a.id)).toEqual(['p1', 'p2']);
      expect(await approvals.get('p1')).toEqual({
        ...newApproval('p1', { correlationId: 'corr-1' }),
        status: 'pending',
      });
      expect(await approvals.get('d1')).toEqual(decided);
      expect(await approvals.history('d1')).toEqual([
        { at: '2025-01-01T00:00:00.000Z', action: 'requested' },
        { at: decided.decidedAt, action: 'rejected', by: 'owner', reason: 'no' },
      ]);
      // Still exactly one decision, and ids still taken, across the restart.
      await expect(approvals.decide('d1', { status: 'approved', decidedBy: 'owner' })).rejects.toBeInstanceOf(
        ApprovalConflictError,
      );
      await expect(approvals.create(newApproval('p1'))).rejects.toBeInstanceOf(ApprovalExistsError);
      expect((await approvals.decide('p1', { status: 'approved', decidedBy: 'owner' })).status).toBe(
        'approved',
      );
      // New approvals queue after the old ones.
      await approvals.create(newApproval('p3'));
      expect((await approvals.list({ status: 'pending' })).approvals.map((a) => a.id)).toEqual(['p2', 'p3']);
      expect((await store.get('task-of-p1', scope))?.version).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('lets exactly one decision win across two connections to the same file', async () => {
    const path = tempDb();
    const a = new SqliteTaskStore({ path });
    const b = new SqliteTaskStore({ path });
    try {
      await a.approvals.create(newApproval('x'));
      await expect(b.approvals.create(newApproval('x'))).rejects.toBeInstanceOf(ApprovalExistsError);
      const won = await b.approvals.decide('x', { status: 'rejected', decidedBy: 'deputy' });
      const late = await a.approvals
        .decide('x', { status: 'approved', decidedBy: 'owner' })
        .catch((e: unknown) => e);
      expect(late).toBeInstanceOf(ApprovalConflictError);
      expect((late as ApprovalConflictError).current).toEqual(won);
      expect((await a.approvals.history('x')).map((e) => e.action)).toEqual(['requested', 'rejected']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('writes task commits parked before an approval ahead of it, so they land in the file in order', async () => {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    const reader = new Database(path, { readonly: true });
    try {
      // Parked in the write queue, which would write it on the next turn of the event loop.
      const parked = store.commit(createCommit(makeTask('held'), scope));
      await store.approvals.create(newApproval('a1', { taskId: 'held' }));
      // Read through another connection before the queue's own flush could have run.
      expect(reader.prepare('SELECT version FROM tasks WHERE id = ?').get('held')).toEqual({ version: 1 });
      await expect(parked).resolves.toBe(1);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('upgrades a file written before approvals existed, keeping its tasks', async () => {
    const path = tempDb();
    const old = new SqliteTaskStore({ path });
    await old.commit(createCommit(makeTask('t1'), scope));
    await old.close();
    // Turn the file back into a schema-1 file: what the previous Concord wrote.
    const raw = new Database(path);
    undoSchema8(raw);
    raw.exec('DROP TABLE approvals; DROP TABLE approval_events; DROP TABLE evidence_records;');
    // And what came after (schema 4, push notifications).
    raw.exec('DROP TABLE push_configs; DROP TABLE push_outbox; DROP TABLE push_dead_letters;');
    raw.exec('DROP TABLE idempotency_keys;');
    raw.exec('ALTER TABLE tasks DROP COLUMN push_configs');
    raw.pragma('user_version = 1');
    raw.close();

    const store = new SqliteTaskStore({ path });
    try {
      expect((await store.get('t1', scope))?.version).toBe(1);
      await store.approvals.create(newApproval('a1', { taskId: 't1' }));
      expect((await store.approvals.findByTask('t1'))?.status).toBe('pending');
    } finally {
      await store.close();
    }
  });

  const distDir = fileURLToPath(new URL('../../dist/store/sqlite/', import.meta.url));
  // The child runs compiled code; a dist/ built before the approval store cannot run it.
  const built =
    existsSync(join(distDir, 'index.js')) && existsSync(join(distDir, 'sqlite-approval-store.js'));
  it.skipIf(!built)(
    `keeps every acknowledged approval and decision when the writer is killed with SIGKILL${built ? '' : ' (skipped: dist/ missing or stale, run `npm run build`)'}`,
    async () => {
      const path = tempDb();
      const fixture = fileURLToPath(new URL('./fixtures/approval-crash-writer.mjs', import.meta.url));
      const child = spawn(process.execPath, [fixture, path], { stdio: ['ignore', 'pipe', 'pipe'] });
      const created = new Map<string, string>();
      const decided = new Map<string, string>();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          const [what, id, detail] = line.split(' ');
          (what === 'created' ? created : decided).set(id!, detail!);
          // Killed right after a `create` resolved, with the other writers mid-flight.
          if (what === 'created' && created.size >= 100 && child.exitCode === null) child.kill('SIGKILL');
        }
      });
      const signal = await exited;
      expect(signal, `the writer should have been killed; stderr: ${stderr}`).toBe('SIGKILL');
      expect(created.size).toBeGreaterThanOrEqual(100);
      expect(decided.size).toBeGreaterThan(0);

      const store = new SqliteTaskStore({ path });
      try {
        const crash: TaskScope = { tenant: 'crash', owner: 'alice' };
        const { approvals } = store;
        for (const [id, taskId] of created) {
          const record = await approvals.get(id);
          expect(record, id).toMatchObject({ id, taskId, status: expect.any(String) });
          // The task commit parked before the approval was written with it.
          expect((await store.get(taskId, crash))?.version, taskId).toBe(1);
        }
        for (const [id, status] of decided) expect((await approvals.get(id))?.status, id).toBe(status);
        // Whatever survived is whole: a decision never without its audit entry, or the reverse.
        const all: ApprovalRecord[] = await listAll(approvals);
        expect(all.length).toBeGreaterThanOrEqual(created.size);
        for (const record of all) {
          const actions = (await approvals.history(record.id)).map((e) => e.action);
          expect(actions, record.id).toEqual(
            record.status === 'pending' ? ['requested'] : ['requested', record.status],
          );
        }
        const pending = await listAll(approvals, 'pending');
        expect(pending.map((a) => a.id)).toEqual(all.filter((a) => a.status === 'pending').map((a) => a.id));
      } finally {
        await store.close();
      }
    },
  );
});

async function listAll(approvals: ApprovalStore, status?: 'pending'): Promise<ApprovalRecord[]> {
  const all: ApprovalRecord[] = [];
  let pageToken = '';
  do {
    const page = await approvals.list({
      pageSize: 37,
      pageToken,
      ...(status === undefined ? {} : { status }),
    });
    all.push(...page.approvals);
    pageToken = page.nextPageToken;
  } while (pageToken !== '');
  return all;
}
