/**
 * The shared ReplyStore suite against every implementation (decision 0147), plus what the durable
 * ones owe: kept replies survive closing and reopening the store (found again through SQLite's
 * key filter), an older file or schema is upgraded in place, the first of two instances keeping a
 * reply under one key wins for both, and expired replies are deleted a few at a time by each keep
 * and all at once by the retention sweep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryTaskStore,
  EXPIRED_REPLIES_PER_KEEP,
  MemoryReplyStore,
  REPLY_MAX_AGE_MS,
} from '../../src/store/internal.js';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import {
  MIGRATIONS_TABLE,
  openPostgresStore,
  POSTGRES_SCHEMA_VERSION,
  type PostgresTaskStore,
} from '../../src/store/postgres/internal.js';
import {
  describeOnPostgres,
  freshSchema,
  openTestPostgresStore,
  POSTGRES_SKIP_NOTE,
  POSTGRES_URL,
  withTestClient,
} from '../helpers/postgres.js';
import { ALICE, describeReplyStoreSuite, newReply } from './reply-store-suite.js';
import { undoSchema9 } from './sqlite-rollback.js';
import { ANON, createCommit, makeTask } from './suite/fixtures.js';

const dirs: string[] = [];

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-replies-'));
  dirs.push(dir);
  return join(dir, 'tasks.db');
}

afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeReplyStoreSuite('memory', () => {
  const replies = new MemoryReplyStore();
  return Promise.resolve({ replies, cleanup: () => Promise.resolve() });
});

describeReplyStoreSuite('memory TaskStore.replies', () => {
  const store = createMemoryTaskStore();
  return Promise.resolve({ replies: store.replies!, cleanup: () => store.close() });
});

describeReplyStoreSuite('sqlite TaskStore.replies (file)', () => {
  const store = new SqliteTaskStore({ path: tempDb() });
  return Promise.resolve({ replies: store.replies, cleanup: () => store.close() });
});

describeReplyStoreSuite('sqlite TaskStore.replies (:memory:)', () => {
  const store = new SqliteTaskStore({ path: ':memory:' });
  return Promise.resolve({ replies: store.replies, cleanup: () => store.close() });
});

describeOnPostgres('ReplyStore suite: postgres', () =>
  describeReplyStoreSuite('postgres TaskStore.replies', async () => {
    const store = await openTestPostgresStore();
    return { replies: store.replies, cleanup: () => store.close() };
  }),
);

/** Keeps `count` replies named `${prefix}-${i}`. */
async function keepMany(
  replies: { keep: MemoryReplyStore['keep'] },
  prefix: string,
  count: number,
): Promise<void> {
  for (let i = 0; i < count; i++) await replies.keep(newReply(`m:${prefix}-${i}`, `${prefix}-${i}`));
}

describe('SQLite kept replies', () => {
  const rows = (path: string): number => {
    const db = new Database(path, { readonly: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM kept_replies').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  it('survive closing and reopening the file, and are found through the key filter of the server that claims it', async () => {
    const path = tempDb();
    const first = new SqliteTaskStore({ path });
    // Kept in the same write batch as a task commit of the same turn.
    const [, kept] = await Promise.all([
      first.commit(createCommit(makeTask('t1'))),
      first.replies.keep(newReply('m:durable', 'durable')),
    ]);
    expect(kept.reply.messageId).toBe('r-durable');
    await first.close();

    const second = new SqliteTaskStore({ path });
    try {
      // The one server of the file trusts its key filter, filled from both key tables.
      expect(await second.claimUnfinished()).toEqual([{ taskId: 't1', tenant: '', owner: '' }]);
      await new Promise((done) => setImmediate(done));
      await new Promise((done) => setImmediate(done));
      expect(await second.replies.find('m:durable', ALICE)).toEqual(kept);
      expect(await second.replies.find('m:never', ALICE)).toBeUndefined();
      // A reply kept by this server is in its filter at once.
      await second.replies.keep(newReply('m:later', 'later'));
      expect((await second.replies.find('m:later', ALICE))?.reply.messageId).toBe('r-later');
    } finally {
      await second.close();
    }
  });

  it('upgrades a file written before replies were kept (schema 8), keeping its tasks', async () => {
    const path = tempDb();
    const old = new SqliteTaskStore({ path });
    await old.commit(createCommit(makeTask('t1')));
    await old.close();
    const raw = new Database(path);
    undoSchema9(raw);
    raw.close();

    const store = new SqliteTaskStore({ path });
    try {
      expect((await store.get('t1', ANON))?.version).toBe(1);
      await store.replies.keep(newReply('m:1', 'one'));
      expect((await store.replies.find('m:1', ALICE))?.reply.messageId).toBe('r-one');
    } finally {
      await store.close();
    }
  });

  it('deletes expired replies a few per keep, and all of them in the retention sweep', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-04-30T12:00:00Z');
    vi.setSystemTime(start);
    const path = tempDb();
    const store = new SqliteTaskStore({ path });
    try {
      await keepMany(store.replies, 'old', 10);
      vi.setSystemTime(start + REPLY_MAX_AGE_MS + 1);
      await store.replies.keep(newReply('m:new', 'new'));
      expect(rows(path)).toBe(10 - EXPIRED_REPLIES_PER_KEEP + 1);
      // The sweep, with task retention of 30 days: the replies past their own day go.
      await store.deleteExpiredTasks(30 * 24 * 3_600_000);
      expect(rows(path)).toBe(1);
      // With retention shorter than a day, replies older than it go too.
      vi.setSystemTime(start + REPLY_MAX_AGE_MS + 2 * 3_600_000);
      await store.deleteExpiredTasks(3_600_000);
      expect(rows(path)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('answers with a reply only as long as the task retention keeps tasks, when that is shorter', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-04-30T12:00:00Z');
    vi.setSystemTime(start);
    const store = new SqliteTaskStore({ path: tempDb(), retention: { maxAgeMs: 3_600_000 } });
    try {
      await store.replies.keep(newReply('m:1', 'one'));
      vi.setSystemTime(start + 3_600_000 - 1);
      expect(await store.replies.find('m:1', ALICE)).toBeDefined();
      vi.setSystemTime(start + 3_600_000 + 1);
      expect(await store.replies.find('m:1', ALICE)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('refuses keeps and look-ups once the task store is closed', async () => {
    const store = new SqliteTaskStore({ path: ':memory:' });
    await store.close();
    await expect(store.replies.keep(newReply('m:1', 'one'))).rejects.toThrow(/closed/);
    await expect(store.replies.find('m:1', ALICE)).rejects.toThrow(/closed/);
  });
});

describe.skipIf(POSTGRES_URL === undefined)(`PostgreSQL kept replies${POSTGRES_SKIP_NOTE}`, () => {
  const rows = async (schema: string): Promise<number> =>
    withTestClient(async (client) => {
      const result = await client.query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM ${schema}.kept_replies`,
      );
      return result.rows[0]!.n;
    });

  it('hands two instances keeping a reply under one key the same reply', async () => {
    const schema = freshSchema();
    const open = (): Promise<PostgresTaskStore> =>
      openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 2 });
    const [a, b] = await Promise.all([open(), open()]);
    try {
      for (let i = 0; i < 10; i++) {
        const [fromA, fromB] = await Promise.all([
          a.replies.keep(newReply(`k:${i}`, `a-${i}`)),
          b.replies.keep(newReply(`k:${i}`, `b-${i}`)),
        ]);
        expect(fromB).toEqual(fromA);
        expect(await b.replies.find(`k:${i}`, ALICE)).toEqual(fromA);
      }
      expect(await rows(schema)).toBe(10);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('upgrades a schema written before replies were kept (version 2)', async () => {
    const schema = freshSchema();
    const old = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 2 });
    await old.commit(createCommit(makeTask('t1')));
    await old.close();
    await withTestClient((client) =>
      client.query(
        `DROP TABLE ${schema}.kept_replies; DELETE FROM ${schema}.${MIGRATIONS_TABLE} WHERE version >= 3`,
      ),
    );
    // Migrations 4 to 7 run again over what they already made: each is written to allow it.
    expect(POSTGRES_SCHEMA_VERSION).toBe(7);
    const store = await openPostgresStore({ connectionString: POSTGRES_URL!, schema, poolSize: 2 });
    try {
      expect((await store.get('t1', ANON))?.version).toBe(1);
      await store.replies.keep(newReply('m:1', 'one'));
      expect((await store.replies.find('m:1', ALICE))?.reply.messageId).toBe('r-one');
    } finally {
      await store.close();
    }
  });

  it('deletes expired replies a few per keep, and all of them in the retention sweep', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.parse('2026-04-30T12:00:00Z');
    vi.setSystemTime(start);
    const store = await openTestPostgresStore();
    try {
      await keepMany(store.replies, 'old', 10);
      vi.setSystemTime(start + REPLY_MAX_AGE_MS + 1);
      await store.replies.keep(newReply('m:new', 'new'));
      expect(await rows(store.schema)).toBe(10 - EXPIRED_REPLIES_PER_KEEP + 1);
      await store.deleteExpiredTasks(30 * 24 * 3_600_000);
      expect(await rows(store.schema)).toBe(1);
      vi.setSystemTime(start + REPLY_MAX_AGE_MS + 2 * 3_600_000);
      await store.deleteExpiredTasks(3_600_000);
      expect(await rows(store.schema)).toBe(0);
    } finally {
      await store.close();
    }
  });
});
