/**
 * The idempotency-key filter of the SQLite store (docs/performance.md, 'Idempotency-key filter'):
 * never a false "absent", whether the key was committed by this process or found in the file when
 * the store claimed it; few false "maybe"s; and trusted only by the store that holds the file's
 * lease.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TaskScope } from '../../src/store/index.js';
import { scopedIdempotencyKey } from '../../src/store/internal.js';
import { KeyFilter } from '../../src/store/sqlite/key-filter.js';
import { SqliteTaskStore } from '../../src/store/sqlite/index.js';
import { ANON, createCommit, makeTask } from './suite/fixtures.js';
import { tempFiles } from '../helpers/temp-files.js';

const tempPath = tempFiles('concord-keys-');
const tempDb = (): string => tempPath('tasks.db');

async function commitKeyed(
  store: SqliteTaskStore,
  prefix: string,
  count: number,
  scope = ANON,
): Promise<void> {
  for (let i = 0; i < count; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, count - i) }, (_, j) =>
        store.commit({
          ...createCommit(makeTask(`${prefix}-${i + j}`), scope),
          idempotencyKey: `m:${prefix}-${i + j}`,
        }),
      ),
    );
  }
}

/** Lets the background fill run: it reads 4096 keys a turn, and the files below need three. */
async function fillTurns(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('KeyFilter', () => {
  it('answers "maybe" for every key it was given, across layers, and rarely for others', () => {
    const filter = new KeyFilter();
    filter.filled = true;
    const count = 300_000; // past the first two layers (65,536 and 131,072 keys)
    for (let i = 0; i < count; i++)
      filter.add(scopedIdempotencyKey(`m:${i}`, { tenant: 'acme', owner: 'alice' }));
    for (let i = 0; i < count; i++) {
      if (!filter.mayHold(scopedIdempotencyKey(`m:${i}`, { tenant: 'acme', owner: 'alice' })))
        throw new Error(`lost key m:${i}`);
    }
    let positives = 0;
    const probes = 100_000;
    for (let i = 0; i < probes; i++)
      if (filter.mayHold(scopedIdempotencyKey(`m:other-${i}`, { tenant: 'acme', owner: 'alice' })))
        positives++;
    // About 1% per layer, three layers.
    expect(positives / probes).toBeLessThan(0.05);
    // The same key in another scope is another key.
    expect(filter.mayHold(scopedIdempotencyKey('m:1', { tenant: 'acme', owner: 'bob' }))).toBe(false);
    expect(filter.bytes).toBeLessThan(count * 2.5);
  });

  it('answers "maybe" to everything until it is filled', () => {
    const filter = new KeyFilter();
    expect(filter.mayHold(scopedIdempotencyKey('m:never-added', { tenant: '', owner: '' }))).toBe(true);
  });
});

describe('SQLite store with the key filter', () => {
  it('finds keys committed earlier by another process once it claims the file, and new ones', async () => {
    const path = tempDb();
    const alice: TaskScope = { tenant: 'acme', owner: 'alice' };
    const before = new SqliteTaskStore({ path });
    // More than two fill chunks of 4096 keys, in two scopes.
    await commitKeyed(before, 'old', 9000);
    await commitKeyed(before, 'alice', 50, alice);
    await before.close();

    const store = new SqliteTaskStore({ path });
    try {
      // Claiming the file (every task here is still submitted) makes this store its one server.
      expect(await store.claimUnfinished()).toHaveLength(9050);
      await fillTurns();
      for (const i of [0, 4095, 4096, 8191, 8192, 8999]) {
        expect(await store.findIdempotencyKey(`m:old-${i}`, ANON), `old-${i}`).toBe(`old-${i}`);
      }
      expect(await store.findIdempotencyKey('m:alice-7', alice)).toBe('alice-7');
      expect(await store.findIdempotencyKey('m:alice-7', ANON)).toBeUndefined();
      expect(await store.findIdempotencyKey('m:never', ANON)).toBeUndefined();
      // A key committed now is known at once, even before its commit is flushed.
      const pending = store.commit({ ...createCommit(makeTask('fresh')), idempotencyKey: 'm:fresh' });
      await pending;
      expect(await store.findIdempotencyKey('m:fresh', ANON)).toBe('fresh');
    } finally {
      await store.close();
    }
  });

  it('keeps a key that is not well-formed UTF-16 findable, and the keys the fill reads after it', async () => {
    const path = tempDb();
    const before = new SqliteTaskStore({ path });
    const commit = (id: string, key: string): Promise<number> =>
      before.commit({ ...createCommit(makeTask(id)), idempotencyKey: key });
    // 4095 keys first, so the lone surrogate's key is the last of the fill's first chunk: its
    // stored bytes do not read back as the same string, and a cursor made of that string would
    // skip what follows.
    for (let i = 0; i < 4095; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, 4095 - i) }, (_, j) =>
          commit(`n-${i + j}`, `m:0${String(i + j).padStart(5, '0')}`),
        ),
      );
    }
    await commit('odd', 'm:\uD800abc');
    await commit('after', 'm:\uE000x');
    await before.close();

    const store = new SqliteTaskStore({ path });
    try {
      await store.claimUnfinished();
      await fillTurns();
      expect(await store.findIdempotencyKey('m:\uE000x', ANON)).toBe('after');
      expect(await store.findIdempotencyKey('m:\uD800abc', ANON)).toBe('odd');
      expect(await store.findIdempotencyKey('m:000007', ANON)).toBe('n-7');
    } finally {
      await store.close();
    }
  });

  it('asks SQL only for keys the filter may hold, once it is filled', async () => {
    const store = new SqliteTaskStore({ path: tempDb() });
    try {
      await commitKeyed(store, 'k', 20);
      // White-box: the prepared look-up statement, to count the look-ups that reach SQLite.
      const sql = Reflect.get(store, 'sql') as { selectKey: { get: (...args: unknown[]) => unknown } };
      const get = vi.spyOn(sql.selectKey, 'get');
      // Before the claim the filter is not trusted: every look-up goes to SQL.
      expect(await store.findIdempotencyKey('m:new-1', ANON)).toBeUndefined();
      expect(get).toHaveBeenCalledTimes(1);
      await store.claimUnfinished();
      await fillTurns();
      get.mockClear();
      for (let i = 0; i < 100; i++)
        expect(await store.findIdempotencyKey(`m:new-${i}`, ANON)).toBeUndefined();
      // A rare false positive may still ask; nearly all new keys do not.
      expect(get.mock.calls.length).toBeLessThan(5);
      expect(await store.findIdempotencyKey('m:k-3', ANON)).toBe('k-3');
      expect(get.mock.calls.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('does not trust the filter without the lease: keys another store wrote are still found', async () => {
    const path = tempDb();
    const reader = new SqliteTaskStore({ path });
    const writer = new SqliteTaskStore({ path });
    try {
      await commitKeyed(writer, 'w', 10);
      expect(await reader.findIdempotencyKey('m:w-3', ANON)).toBe('w-3');
    } finally {
      await writer.close();
      await reader.close();
    }
  });
});
