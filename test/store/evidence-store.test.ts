/**
 * The shared EvidenceStore suite against every implementation (memory on its own, and each
 * TaskStore's `evidence`), plus what only the SQLite one owes: chains survive closing and
 * reopening the file, two connections to one file cannot both take a number, writes keep their
 * order with the task store's write queue, and a file from before evidence existed is upgraded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryEvidenceStore,
  createMemoryTaskStore,
  EvidenceSequenceError,
  type TaskScope,
} from '../../src/store/index.js';
import { SQLITE_SCHEMA_VERSION, SqliteTaskStore } from '../../src/store/sqlite/internal.js';
import { describeEvidenceStoreSuite, newEvidence } from './evidence-store-suite.js';
import { createCommit, makeTask } from './task-store-suite.js';
import { undoSchema8 } from './sqlite-rollback.js';

const dirs: string[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-evidence-'));
  dirs.push(dir);
  return join(dir, 'nested', 'tasks.db');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeEvidenceStoreSuite('memory', () => {
  const evidence = createMemoryEvidenceStore();
  return Promise.resolve({ evidence, cleanup: () => evidence.close() });
});

describeEvidenceStoreSuite('memory TaskStore.evidence', () => {
  const store = createMemoryTaskStore();
  return Promise.resolve({ evidence: store.evidence!, cleanup: () => store.close() });
});

describeEvidenceStoreSuite('sqlite TaskStore.evidence (file)', () => {
  const store = new SqliteTaskStore({ path: tempDb() });
  return Promise.resolve({ evidence: store.evidence, cleanup: () => store.close() });
});

describeEvidenceStoreSuite('sqlite TaskStore.evidence (:memory:)', () => {
  const store = new SqliteTaskStore({ path: ':memory:' });
  return Promise.resolve({ evidence: store.evidence, cleanup: () => store.close() });
});

describe('evidence closes with its task store', () => {
  for (const [name, open] of [
    ['memory', () => createMemoryTaskStore()],
    ['sqlite', () => new SqliteTaskStore({ path: ':memory:' })],
  ] as const) {
    it(`refuses every call once the ${name} task store is closed`, async () => {
      const store = open();
      const evidence = store.evidence!;
      await evidence.append(newEvidence('m1', 1));
      await store.close();
      await expect(evidence.read('m1')).rejects.toThrow(/evidence store is closed/);
      await expect(evidence.append(newEvidence('m1', 2))).rejects.toThrow(/closed/);
      await expect(evidence.chains()).rejects.toThrow(/closed/);
    });
  }
});

describe('SQLite evidence durability', () => {
  const scope: TaskScope = { tenant: '', owner: '' };

  it('finds every chain after reopening the file, and goes on numbering where it stopped', async () => {
    const path = tempDb();
    let store = new SqliteTaskStore({ path });
    for (let i = 1; i <= 3; i++) await store.evidence.append(newEvidence('m1', i));
    await store.evidence.append(newEvidence('m2', 1));
    const before = await store.evidence.read('m1');
    await store.close();

    store = new SqliteTaskStore({ path });
    try {
      expect(await store.evidence.read('m1')).toEqual(before);
      expect(await store.evidence.chains()).toEqual(['m1', 'm2']);
      await expect(store.evidence.append(newEvidence('m1', 3))).rejects.toBeInstanceOf(EvidenceSequenceError);
      await store.evidence.append(newEvidence('m1', 4));
      expect((await store.evidence.last('m1'))?.sequence).toBe(4);
    } finally {
      await store.close();
    }
  });

  it('lets one of two connections to the same file take a number, never both', async () => {
    const path = tempDb();
    const a = new SqliteTaskStore({ path });
    const b = new SqliteTaskStore({ path });
    try {
      await a.evidence.append(newEvidence('m1', 1));
      await expect(b.evidence.append(newEvidence('m1', 1))).rejects.toMatchObject({ expected: 2 });
      await b.evidence.append(newEvidence('m1', 2, { by: 'b' }));
      await expect(a.evidence.append(newEvidence('m1', 2, { by: 'a' }))).rejects.toBeInstanceOf(
        EvidenceSequenceError,
      );
      expect((await a.evidence.read('m1')).map((r) => r.event.by ?? null)).toEqual([null, 'b']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('writes task commits parked before an evidence record ahead of it', async () => {
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    const reader = new Database(path, { readonly: true });
    try {
      const parked = store.commit(createCommit(makeTask('held'), scope));
      await store.evidence.append(newEvidence('m1', 1));
      expect(reader.prepare('SELECT version FROM tasks WHERE id = ?').get('held')).toEqual({ version: 1 });
      expect(reader.prepare('SELECT seq FROM evidence_records WHERE chain = ?').get('m1')).toEqual({
        seq: 1,
      });
      await expect(parked).resolves.toBe(1);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('upgrades a file written before evidence existed, keeping its tasks and approvals', async () => {
    const path = tempDb();
    const old = new SqliteTaskStore({ path });
    await old.commit(createCommit(makeTask('t1'), scope));
    await old.close();
    // What the previous Concord wrote: schema 2, no evidence table.
    const raw = new Database(path);
    undoSchema8(raw);
    raw.exec('DROP TABLE evidence_records;');
    // And what came after (schema 4, push notifications).
    raw.exec('DROP TABLE push_configs; DROP TABLE push_outbox; DROP TABLE push_dead_letters;');
    raw.exec('DROP TABLE idempotency_keys;');
    raw.exec('ALTER TABLE tasks DROP COLUMN push_configs');
    raw.pragma('user_version = 2');
    raw.close();

    const store = new SqliteTaskStore({ path });
    try {
      expect((await store.get('t1', scope))?.version).toBe(1);
      await store.evidence.append(newEvidence('m1', 1));
      expect(await store.evidence.chains()).toEqual(['m1']);
    } finally {
      await store.close();
    }
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
    check.close();
  });
});
