/**
 * TaskStore suite, idempotency keys (decision 0091): a key is recorded with the commit that
 * carries it, unique per caller (tenant + owner), and a second task claiming it writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { IdempotencyKeyConflictError } from '../../../src/store/internal.js';
import { ANON, createCommit, makeTask, statusEvent, type SuiteContext } from './fixtures.js';

const ALICE = { tenant: 'acme', owner: 'alice' };
const BOB = { tenant: 'acme', owner: 'bob' };

/** Registers the idempotency-key cases. */
export function describeIdempotencyCases(ctx: SuiteContext): void {
  describe('idempotency keys', () => {
    it('records a key with a create and finds it in the same scope only', async () => {
      await ctx.store.commit({ ...createCommit(makeTask('t1'), ALICE), idempotencyKey: 'm:abc' });
      expect(await ctx.store.findIdempotencyKey('m:abc', ALICE)).toBe('t1');
      expect(await ctx.store.findIdempotencyKey('m:abc', BOB)).toBeUndefined();
      expect(
        await ctx.store.findIdempotencyKey('m:abc', { tenant: 'other', owner: 'alice' }),
      ).toBeUndefined();
      expect(await ctx.store.findIdempotencyKey('m:other', ALICE)).toBeUndefined();
    });

    it('refuses a second task with the same key and writes nothing of it', async () => {
      await ctx.store.commit({ ...createCommit(makeTask('t1')), idempotencyKey: 'm:abc' });
      const second = ctx.store.commit({ ...createCommit(makeTask('t2')), idempotencyKey: 'm:abc' });
      await expect(second).rejects.toBeInstanceOf(IdempotencyKeyConflictError);
      await expect(second).rejects.toMatchObject({ taskId: 't1', key: 'm:abc' });
      expect(await ctx.store.get('t2', ANON)).toBeUndefined();
      expect(await ctx.store.readEvents('t2', 0, ANON)).toEqual([]);
    });

    it('lets another caller use the same key for its own task', async () => {
      await ctx.store.commit({ ...createCommit(makeTask('t1'), ALICE), idempotencyKey: 'm:abc' });
      await ctx.store.commit({ ...createCommit(makeTask('t2'), BOB), idempotencyKey: 'm:abc' });
      expect(await ctx.store.findIdempotencyKey('m:abc', BOB)).toBe('t2');
    });

    it('records a follow-up key on an existing task, and accepts the same key again for it', async () => {
      await ctx.create('t1');
      const working = makeTask('t1', { state: 'TASK_STATE_WORKING', timestamp: '2025-01-01T00:00:01Z' });
      await ctx.store.commit({
        ...ANON,
        task: working,
        expectedVersion: 1,
        events: [statusEvent(working)],
        idempotencyKey: 'm:f',
      });
      expect(await ctx.store.findIdempotencyKey('m:f', ANON)).toBe('t1');
      await expect(
        ctx.store.commit({
          ...ANON,
          task: working,
          expectedVersion: 2,
          events: [statusEvent(working)],
          idempotencyKey: 'm:f',
        }),
      ).resolves.toBe(3);
    });

    it('of concurrent creates with one key, exactly one succeeds', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          ctx.store.commit({ ...createCommit(makeTask(`c${i}`)), idempotencyKey: 'k:same' }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const winner = await ctx.store.findIdempotencyKey('k:same', ANON);
      const stored = await Promise.all(results.map((_, i) => ctx.store.get(`c${i}`, ANON)));
      expect(stored.filter((s) => s !== undefined).map((s) => s!.task.id)).toEqual([winner]);
    });
  });
}
