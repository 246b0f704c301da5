/**
 * TaskStore suite, writes: version and seq numbering, and optimistic concurrency (TaskStore port:
 * a lost update is impossible).
 */
import { describe, expect, it } from 'vitest';
import { VersionConflictError } from '../../../src/store/index.js';
import { ANON, createCommit, makeTask, statusEvent, type SuiteContext } from './fixtures.js';

/** Registers the commit and concurrency cases. */
export function describeCommitCases(ctx: SuiteContext): void {
  describe('commit and read', () => {
    it('creates a task and reads it back with its scope and version 1', async () => {
      const task = await ctx.create('t1', {}, { tenant: 'acme', owner: 'alice' });
      const stored = await ctx.store.get('t1', { tenant: 'acme', owner: 'alice' });
      expect(stored).toEqual({ tenant: 'acme', owner: 'alice', version: 1, task });
      expect(await ctx.store.get('nope', ANON)).toBeUndefined();
    });

    it('numbers events from 1 without gaps and makes the version the last seq', async () => {
      const t = await ctx.create('t1');
      const working = makeTask('t1', { state: 'TASK_STATE_WORKING', timestamp: '2025-01-01T00:00:01Z' });
      const events = [statusEvent(working), statusEvent(working)];
      await expect(ctx.store.commit({ ...ANON, task: working, expectedVersion: 1, events })).resolves.toBe(3);
      const done = makeTask('t1', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:02Z' });
      await expect(
        ctx.store.commit({ ...ANON, task: done, expectedVersion: 3, events: [statusEvent(done)] }),
      ).resolves.toBe(4);

      const stored = await ctx.store.get('t1', ANON);
      expect(stored?.version).toBe(4);
      expect(stored?.task).toEqual(done);
      const log = await ctx.store.readEvents('t1', 0, ANON);
      expect(log.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
      expect(log.map((r) => r.event)).toEqual([{ task: t }, ...events, statusEvent(done)]);
    });

    it('reads only the events after a given seq', async () => {
      const t = await ctx.create('t1');
      const events = [1, 2, 3, 4].map((n) =>
        statusEvent(makeTask('t1', { state: 'TASK_STATE_WORKING', timestamp: `2025-01-01T00:00:0${n}Z` })),
      );
      await ctx.store.commit({ ...ANON, task: t, expectedVersion: 1, events });
      expect((await ctx.store.readEvents('t1', 3, ANON)).map((r) => r.seq)).toEqual([4, 5]);
      expect((await ctx.store.readEvents('t1', 3, ANON)).map((r) => r.event)).toEqual(events.slice(2));
      expect(await ctx.store.readEvents('t1', 5, ANON)).toEqual([]);
      expect(await ctx.store.readEvents('t1', 99, ANON)).toEqual([]);
      expect(await ctx.store.readEvents('missing', 0, ANON)).toEqual([]);
    });

    it('reads pages of at least `limit` events from the cursor on, fewer only at the end', async () => {
      const t = await ctx.create('t1');
      const events = [1, 2, 3, 4].map((n) =>
        statusEvent(makeTask('t1', { state: 'TASK_STATE_WORKING', timestamp: `2025-01-01T00:00:0${n}Z` })),
      );
      await ctx.store.commit({ ...ANON, task: t, expectedVersion: 1, events });
      const seqs = async (after: number, limit: number) =>
        (await ctx.store.readEvents('t1', after, ANON, limit)).map((r) => r.seq);
      // Seqs 2-5 were one commit: a page may end inside it, or (TaskStore readEvents) take it whole.
      for (const [after, limit] of [
        [0, 2],
        [2, 2],
        [3, 1],
        [4, 10],
        [5, 10],
      ] as const) {
        const page = await seqs(after, limit);
        const rest = [1, 2, 3, 4, 5].filter((n) => n > after);
        expect(page).toEqual(rest.slice(0, page.length));
        expect(page.length).toBeGreaterThanOrEqual(Math.min(limit, rest.length));
      }
      // Paging until a short page reads the whole log once.
      const read: number[] = [];
      for (;;) {
        const page = await seqs(read.at(-1) ?? 0, 2);
        read.push(...page);
        if (page.length < 2) break;
      }
      expect(read).toEqual([1, 2, 3, 4, 5]);
      expect((await ctx.store.readEvents('t1', 2, ANON, 2)).map((r) => r.event).slice(0, 2)).toEqual(
        events.slice(1, 3),
      );
    });

    it('applies commits queued together for the same task in order', async () => {
      const t = makeTask('t1');
      const w = makeTask('t1', { state: 'TASK_STATE_WORKING' });
      const first = ctx.store.commit(createCommit(t));
      const second = ctx.store.commit({ ...ANON, task: w, expectedVersion: 1, events: [statusEvent(w)] });
      await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
      expect((await ctx.store.get('t1', ANON))?.task).toEqual(w);
    });
  });

  describe('optimistic concurrency', () => {
    it('rejects a stale expectedVersion and leaves the task unchanged', async () => {
      const t = await ctx.create('t1');
      const w = makeTask('t1', { state: 'TASK_STATE_WORKING' });
      await ctx.store.commit({ ...ANON, task: w, expectedVersion: 1, events: [statusEvent(w)] });
      const stale = makeTask('t1', { state: 'TASK_STATE_CANCELED' });
      const error = await ctx.store
        .commit({ ...ANON, task: stale, expectedVersion: 1, events: [statusEvent(stale)] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VersionConflictError);
      expect(error).toMatchObject({ taskId: 't1', expectedVersion: 1, actualVersion: 2 });
      expect((await ctx.store.get('t1', ANON))?.task).toEqual(w);
      expect((await ctx.store.readEvents('t1', 0, ANON)).map((r) => r.event)).toEqual([
        { task: t },
        statusEvent(w),
      ]);
    });

    it('rejects creating a task twice', async () => {
      const t = await ctx.create('t1');
      const error = await ctx.store
        .commit(createCommit(makeTask('t1', { contextId: 'other' })))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VersionConflictError);
      expect(error).toMatchObject({ expectedVersion: 0, actualVersion: 1 });
      expect((await ctx.store.get('t1', ANON))?.task).toEqual(t);
    });

    it('rejects an update of a task that does not exist', async () => {
      const t = makeTask('ghost');
      await expect(
        ctx.store.commit({ ...ANON, task: t, expectedVersion: 3, events: [{ task: t }] }),
      ).rejects.toThrow(VersionConflictError);
      expect(await ctx.store.get('ghost', ANON)).toBeUndefined();
    });

    it('lets exactly one of two concurrent writers from the same version win', async () => {
      await ctx.create('t1');
      const a = makeTask('t1', { state: 'TASK_STATE_WORKING' });
      const b = makeTask('t1', { state: 'TASK_STATE_CANCELED' });
      const results = await Promise.allSettled([
        ctx.store.commit({ ...ANON, task: a, expectedVersion: 1, events: [statusEvent(a)] }),
        ctx.store.commit({ ...ANON, task: b, expectedVersion: 1, events: [statusEvent(b), statusEvent(b)] }),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(VersionConflictError);
      const winner = results[0]!.status === 'fulfilled' ? a : b;
      const stored = await ctx.store.get('t1', ANON);
      expect(stored?.task).toEqual(winner);
      expect(stored?.version).toBe((won[0] as PromiseFulfilledResult<number>).value);
      expect(await ctx.store.readEvents('t1', 0, ANON)).toHaveLength(stored!.version);
    });

    it('keeps one winner among many concurrent creators, and unrelated commits unharmed', async () => {
      const racers = Array.from({ length: 10 }, (_, i) =>
        ctx.store.commit(createCommit(makeTask('hot', { contextId: `c${i}` }))),
      );
      const bystanders = Array.from({ length: 5 }, (_, i) =>
        ctx.store.commit(createCommit(makeTask(`b${i}`))),
      );
      const results = await Promise.allSettled(racers);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(VersionConflictError);
      await expect(Promise.all(bystanders)).resolves.toEqual([1, 1, 1, 1, 1]);
      expect(await ctx.store.readEvents('hot', 0, ANON)).toHaveLength(1);
    });
  });
}
