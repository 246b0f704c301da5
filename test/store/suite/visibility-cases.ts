/**
 * TaskStore suite, visibility: tenants are isolated (A2A 1.0 §13.1) and a task is seen only by its
 * owner, or by everyone in its tenant when created anonymously; invisible reads as absent (§13.1).
 */
import { describe, expect, it } from 'vitest';
import { VersionConflictError, type TaskScope } from '../../../src/store/index.js';
import { createCommit, makeTask, statusEvent, type SuiteContext } from './fixtures.js';

/** Registers the tenant and owner cases. */
export function describeVisibilityCases(ctx: SuiteContext): void {
  describe('visibility', () => {
    const acme: TaskScope = { tenant: 'acme', owner: 'alice' };
    const globex: TaskScope = { tenant: 'globex', owner: 'alice' };

    it('isolates tenants in get, readEvents, list and commit', async () => {
      const t = await ctx.create('t1', {}, acme);
      await ctx.create('t2', {}, globex);
      expect(await ctx.store.get('t1', globex)).toBeUndefined();
      expect(await ctx.store.readEvents('t1', 0, globex)).toEqual([]);
      const listed = await ctx.store.list({ ...globex, pageSize: 10 });
      expect(listed.tasks.map((x) => x.id)).toEqual(['t2']);
      expect(listed.totalSize).toBe(1);
      // Another tenant cannot write to it either: to it the task does not exist.
      const error = await ctx.store
        .commit({ ...globex, task: t, expectedVersion: 1, events: [statusEvent(t)] })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ actualVersion: 0 });
      expect(error).toBeInstanceOf(VersionConflictError);
      await expect(ctx.store.commit(createCommit(makeTask('t1'), globex))).rejects.toThrow(
        VersionConflictError,
      );
      expect((await ctx.store.get('t1', acme))?.version).toBe(1);
    });

    it('shows a task to its owner only, and an anonymous task to everyone in the tenant', async () => {
      await ctx.create('mine', { timestamp: '2025-01-01T00:00:02Z' }, { tenant: 'acme', owner: 'alice' });
      await ctx.create('open', { timestamp: '2025-01-01T00:00:01Z' }, { tenant: 'acme', owner: '' });
      const bob: TaskScope = { tenant: 'acme', owner: 'bob' };
      const anon: TaskScope = { tenant: 'acme', owner: '' };
      expect(await ctx.store.get('mine', bob)).toBeUndefined();
      expect(await ctx.store.get('mine', anon)).toBeUndefined();
      expect(await ctx.store.readEvents('mine', 0, bob)).toEqual([]);
      expect((await ctx.store.get('open', bob))?.owner).toBe('');
      expect(await ctx.store.readEvents('open', 0, bob)).toHaveLength(1);

      const forAlice = await ctx.store.list({ tenant: 'acme', owner: 'alice', pageSize: 10 });
      expect(forAlice.tasks.map((t) => t.id)).toEqual(['mine', 'open']);
      expect(forAlice.totalSize).toBe(2);
      const forBob = await ctx.store.list({ ...bob, pageSize: 10 });
      expect(forBob.tasks.map((t) => t.id)).toEqual(['open']);
      expect(forBob.totalSize).toBe(1);
    });

    it('reads a head as get reads the task: version and state, invisible as absent', async () => {
      await ctx.create('mine', {}, acme);
      const w = makeTask('mine', { state: 'TASK_STATE_WORKING' });
      await ctx.store.commit({ ...acme, task: w, expectedVersion: 1, events: [statusEvent(w)] });
      // Every store Concord ships reads heads; the port leaves it optional for others.
      expect(typeof ctx.store.head).toBe('function');
      expect(await ctx.store.head!('mine', acme)).toEqual({
        tenant: 'acme',
        owner: 'alice',
        version: 2,
        state: 'TASK_STATE_WORKING',
      });
      expect(await ctx.store.head!('mine', globex)).toBeUndefined();
      expect(await ctx.store.head!('mine', { tenant: 'acme', owner: 'bob' })).toBeUndefined();
      expect(await ctx.store.head!('missing', acme)).toBeUndefined();
    });

    it('keeps the creating owner when another visible caller continues a task', async () => {
      await ctx.create('open', {}, { tenant: 'acme', owner: '' });
      const w = makeTask('open', { state: 'TASK_STATE_WORKING' });
      const bob: TaskScope = { tenant: 'acme', owner: 'bob' };
      await expect(
        ctx.store.commit({ ...bob, task: w, expectedVersion: 1, events: [statusEvent(w)] }),
      ).resolves.toBe(2);
      expect(await ctx.store.get('open', { tenant: 'acme', owner: 'carol' })).toMatchObject({
        owner: '',
        version: 2,
      });
    });
  });
}
