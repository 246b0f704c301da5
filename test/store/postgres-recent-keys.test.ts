/**
 * The PostgreSQL store's guard against a key lookup missing a commit that resolved before the
 * lookup answered (recent-keys.ts): the lookup's query is held open here while the commit lands.
 */
import { describe, expect, it } from 'vitest';
import { RecentKeys } from '../../src/store/postgres/recent-keys.js';

function held(): { query: () => Promise<string | undefined>; answer: (value: string | undefined) => void } {
  let answer!: (value: string | undefined) => void;
  const pending = new Promise<string | undefined>((resolve) => (answer = resolve));
  return { query: () => pending, answer };
}

describe('RecentKeys', () => {
  it('answers a lookup with a key committed while its query ran', async () => {
    const keys = new RecentKeys();
    const q = held();
    const lookup = keys.lookup('k', q.query);
    keys.committed('k', 't1');
    q.answer(undefined);
    expect(await lookup).toBe('t1');
  });

  it('trusts the store for keys committed before the lookup started, and prefers what it found', async () => {
    const keys = new RecentKeys();
    const first = held();
    const running = keys.lookup('other', first.query);
    keys.committed('k', 't1');
    // Started after the commit: the store's snapshot has it, so nothing here may answer for it.
    expect(await keys.lookup('k', () => Promise.resolve(undefined))).toBeUndefined();
    expect(await keys.lookup('k', () => Promise.resolve('t9'))).toBe('t9');
    first.answer(undefined);
    expect(await running).toBeUndefined();
  });

  it('keeps nothing once no lookup is running', async () => {
    const keys = new RecentKeys();
    const q = held();
    const lookup = keys.lookup('a', q.query);
    keys.committed('k', 't1');
    q.answer(undefined);
    await lookup;
    expect((keys as unknown as { keys: Map<string, unknown> }).keys.size).toBe(0);
    keys.committed('k2', 't2');
    expect((keys as unknown as { keys: Map<string, unknown> }).keys.size).toBe(0);
  });
});
