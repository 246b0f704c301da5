/**
 * TaskStore suite, ListTasks (A2A 1.0 §3.1.4): order by status time as an
 * instant, every filter, keyset cursors, totalSize, and bad page tokens.
 */
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/protocol/errors.js';
import type { Task, TaskState } from '../../../src/protocol/model.js';
import type { TaskQuery, TaskScope } from '../../../src/store/index.js';
import { ANON, createCommit, makeTask, statusEvent, type SuiteContext } from './fixtures.js';

/** Registers the list cases. */
export function describeListCases(ctx: SuiteContext): void {
  describe('list', () => {
    const page = (extra: Partial<TaskQuery> = {}) => ctx.store.list({ ...ANON, pageSize: 50, ...extra });

    it('returns the newest status first, comparing timestamps as instants, ties by id descending', async () => {
      // Written in mixed offsets and fraction widths: text order is not time order here.
      await ctx.create('a', { timestamp: '2025-01-01T10:00:00Z' });
      await ctx.create('b', { timestamp: '2025-01-01T10:00:00.5Z' });
      await ctx.create('c', { timestamp: '2025-01-01T11:30:00+02:00' }); // 09:30Z
      await ctx.create('d', { timestamp: '2025-01-01T05:00:00.250-05:00' }); // 10:00:00.25Z
      await ctx.create('e', { timestamp: '2025-01-01T10:00:00.500000Z' }); // ties with b
      const result = await page();
      expect(result.tasks.map((t) => t.id)).toEqual(['e', 'b', 'd', 'a', 'c']);
      expect(result).toMatchObject({ nextPageToken: '', totalSize: 5 });
    });

    it('returns the stored snapshots unchanged', async () => {
      const task: Task = {
        ...makeTask('rich'),
        history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
        artifacts: [{ artifactId: 'a1', parts: [{ data: { n: 1 } }] }],
        metadata: { k: 'v' },
      };
      await ctx.store.commit(createCommit(task));
      expect((await page()).tasks).toEqual([task]);
    });

    it('orders by the latest status after updates', async () => {
      await ctx.create('old', { timestamp: '2025-01-01T00:00:01Z' });
      await ctx.create('new', { timestamp: '2025-01-01T00:00:02Z' });
      const moved = makeTask('old', { state: 'TASK_STATE_WORKING', timestamp: '2025-01-01T00:00:03Z' });
      await ctx.store.commit({ ...ANON, task: moved, expectedVersion: 1, events: [statusEvent(moved)] });
      expect((await page()).tasks.map((t) => t.id)).toEqual(['old', 'new']);
    });

    it('orders a status without timestamp by commit time', async () => {
      await ctx.create('past', { timestamp: '2000-01-01T00:00:00Z' });
      await ctx.create('undated', { timestamp: null });
      expect((await page()).tasks.map((t) => t.id)).toEqual(['undated', 'past']);
    });

    it('filters by contextId, status and statusTimestampAfter (strictly after), alone and together', async () => {
      await ctx.create('t1', {
        contextId: 'x',
        state: 'TASK_STATE_WORKING',
        timestamp: '2025-03-01T00:00:01Z',
      });
      await ctx.create('t2', {
        contextId: 'x',
        state: 'TASK_STATE_COMPLETED',
        timestamp: '2025-03-01T00:00:02Z',
      });
      await ctx.create('t3', {
        contextId: 'y',
        state: 'TASK_STATE_WORKING',
        timestamp: '2025-03-01T00:00:03Z',
      });
      await ctx.create('t4', {
        contextId: 'y',
        state: 'TASK_STATE_WORKING',
        timestamp: '2025-03-01T00:00:04Z',
      });
      const ids = async (extra: Parameters<typeof page>[0]) => {
        const result = await page(extra);
        return [result.tasks.map((t) => t.id), result.totalSize];
      };
      expect(await ids({ contextId: 'x' })).toEqual([['t2', 't1'], 2]);
      expect(await ids({ status: 'TASK_STATE_WORKING' })).toEqual([['t4', 't3', 't1'], 3]);
      expect(await ids({ statusTimestampAfter: '2025-03-01T00:00:02Z' })).toEqual([['t4', 't3'], 2]);
      // The same instant in another offset and fraction width is still "not after".
      expect(await ids({ statusTimestampAfter: '2025-03-01T01:00:02.000+01:00' })).toEqual([['t4', 't3'], 2]);
      expect(await ids({ statusTimestampAfter: '2025-03-01T00:00:01.999999999Z' })).toEqual([
        ['t4', 't3', 't2'],
        3,
      ]);
      expect(
        await ids({
          contextId: 'y',
          status: 'TASK_STATE_WORKING',
          statusTimestampAfter: '2025-03-01T00:00:03Z',
        }),
      ).toEqual([['t4'], 1]);
      expect(await ids({ contextId: 'z' })).toEqual([[], 0]);
      expect(await ids({ status: 'TASK_STATE_FAILED' })).toEqual([[], 0]);
    });

    it('pages through three pages with stable cursors and the full totalSize', async () => {
      for (let i = 1; i <= 7; i++) await ctx.create(`t${i}`, { timestamp: `2025-02-01T00:00:0${i}Z` });
      await ctx.create('t0-tie', { timestamp: '2025-02-01T00:00:04Z' }); // same time as t4, lower id
      const first = await page({ pageSize: 3 });
      expect(first.tasks.map((t) => t.id)).toEqual(['t7', 't6', 't5']);
      expect(first.totalSize).toBe(8);
      expect(first.nextPageToken).not.toBe('');
      const second = await page({ pageSize: 3, pageToken: first.nextPageToken });
      expect(second.tasks.map((t) => t.id)).toEqual(['t4', 't0-tie', 't3']);
      expect(second.totalSize).toBe(8);
      expect(second.nextPageToken).not.toBe('');
      const third = await page({ pageSize: 3, pageToken: second.nextPageToken });
      expect(third.tasks.map((t) => t.id)).toEqual(['t2', 't1']);
      expect(third).toMatchObject({ totalSize: 8, nextPageToken: '' });

      // A newer task does not shift later pages: the cursor is a position, not an offset.
      await ctx.create('t9', { timestamp: '2025-02-01T00:00:09Z' });
      const again = await page({ pageSize: 3, pageToken: first.nextPageToken });
      expect(again.tasks.map((t) => t.id)).toEqual(['t4', 't0-tie', 't3']);
      expect(again.nextPageToken).toBe(second.nextPageToken);
      expect(again.totalSize).toBe(9);
    });

    it('keeps totalSize exact per state and per visible owner as tasks are created and change state', async () => {
      // Decision 0160: the durable stores answer these shapes from counters their triggers keep, so
      // every way a task can move between them is checked against what the page itself holds.
      const alice = { tenant: '', owner: 'alice' };
      const bob = { tenant: '', owner: 'bob' };
      await ctx.create('a1', { timestamp: '2025-02-01T00:00:01Z' });
      await ctx.create('a2', { timestamp: '2025-02-01T00:00:02Z' }, alice);
      await ctx.create('a3', { timestamp: '2025-02-01T00:00:03Z' }, alice);
      await ctx.create('b1', { timestamp: '2025-02-01T00:00:04Z' }, bob);
      await ctx.create('o1', { timestamp: '2025-02-01T00:00:05Z' }, { tenant: 'other', owner: '' });
      const move = async (id: string, state: TaskState, version: number, scope = ANON) => {
        const task = makeTask(id, { state, timestamp: `2025-02-02T00:00:0${version}Z` });
        await ctx.store.commit({ ...scope, task, expectedVersion: version, events: [statusEvent(task)] });
      };
      await move('a2', 'TASK_STATE_WORKING', 1, alice);
      await move('a2', 'TASK_STATE_COMPLETED', 2, alice);
      // Same state again (a status message while working): still one task in it.
      await move('a1', 'TASK_STATE_WORKING', 1);
      await move('a1', 'TASK_STATE_WORKING', 2);
      const sizes = async (scope: TaskScope, status?: TaskState) => {
        const result = await ctx.store.list({ ...scope, pageSize: 100, ...(status ? { status } : {}) });
        expect(result.totalSize).toBe(result.tasks.length);
        return result.totalSize;
      };
      expect(await sizes(ANON)).toBe(1);
      expect(await sizes(alice)).toBe(3);
      expect(await sizes(bob)).toBe(2);
      expect(await sizes(alice, 'TASK_STATE_SUBMITTED')).toBe(1);
      expect(await sizes(alice, 'TASK_STATE_WORKING')).toBe(1);
      expect(await sizes(alice, 'TASK_STATE_COMPLETED')).toBe(1);
      expect(await sizes(bob, 'TASK_STATE_COMPLETED')).toBe(0);
      expect(await sizes({ tenant: 'other', owner: 'bob' })).toBe(1);
      // A page after the first still counts every match (A2A 1.0 §3.1.4).
      const first = await ctx.store.list({ ...alice, pageSize: 1 });
      const second = await ctx.store.list({ ...alice, pageSize: 1, pageToken: first.nextPageToken });
      expect([first.totalSize, second.totalSize]).toEqual([3, 3]);
    });

    it('keeps totalSize exact with statusTimestampAfter as tasks move between hours and states', async () => {
      // Decision 0163: the durable stores sum per-hour counters for the whole hours after the cutoff
      // and count the index within its own hour, so cutoffs on, inside and around hour boundaries
      // are checked against the page itself, before and after tasks move.
      const alice = { tenant: '', owner: 'alice' };
      const at = (hour: number, rest: string) => `2025-04-01T${String(hour).padStart(2, '0')}:${rest}Z`;
      await ctx.create('h1', { timestamp: at(9, '00:00') });
      await ctx.create('h2', { timestamp: at(9, '59:59.999') });
      await ctx.create('h3', { timestamp: at(10, '00:00') }, alice);
      await ctx.create('h4', { timestamp: at(10, '30:00') });
      await ctx.create('h5', { timestamp: at(11, '15:00') }, alice);
      await ctx.create('h6', { timestamp: at(13, '00:00.5') });
      await ctx.create('x1', { timestamp: at(10, '45:00') }, { tenant: 'other', owner: '' });
      const cutoffs = [
        '2025-03-31T23:00:00Z',
        at(9, '00:00'),
        at(9, '30:00'),
        at(9, '59:59.999'),
        at(10, '00:00'),
        '2025-04-01T09:00:00-01:00', // 10:00Z
        at(10, '59:59.999999999'),
        at(11, '00:00'),
        at(12, '00:00'),
        at(13, '00:00.5'),
        at(14, '00:00'),
      ];
      const check = async () => {
        for (const scope of [ANON, alice, { tenant: 'other', owner: 'alice' }]) {
          for (const status of [undefined, 'TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'] as const) {
            for (const statusTimestampAfter of cutoffs) {
              const query = { ...scope, pageSize: 100, statusTimestampAfter, ...(status ? { status } : {}) };
              const result = await ctx.store.list(query);
              expect({ query, totalSize: result.totalSize }).toEqual({
                query,
                totalSize: result.tasks.length,
              });
            }
          }
        }
      };
      await check();
      const move = async (id: string, state: TaskState, timestamp: string, version: number, scope = ANON) => {
        const task = makeTask(id, { state, timestamp });
        await ctx.store.commit({ ...scope, task, expectedVersion: version, events: [statusEvent(task)] });
      };
      // A new state in the same hour, the same state in a later hour, both at once, and back.
      await move('h1', 'TASK_STATE_WORKING', at(9, '10:00'), 1);
      await move('h3', 'TASK_STATE_SUBMITTED', at(11, '05:00'), 1, alice);
      await move('h4', 'TASK_STATE_WORKING', at(13, '20:00'), 1);
      await move('h4', 'TASK_STATE_SUBMITTED', at(10, '40:00'), 2);
      await move('h2', 'TASK_STATE_WORKING', at(12, '00:00'), 1);
      await check();
      expect(
        (await ctx.store.list({ ...ANON, pageSize: 1, statusTimestampAfter: at(10, '00:00') })).totalSize,
      ).toBe(3);
    });

    it('ends with an empty token when the last page is exactly full', async () => {
      for (let i = 1; i <= 4; i++) await ctx.create(`t${i}`, { timestamp: `2025-02-01T00:00:0${i}Z` });
      const first = await page({ pageSize: 2 });
      const second = await page({ pageSize: 2, pageToken: first.nextPageToken });
      expect(second.tasks.map((t) => t.id)).toEqual(['t2', 't1']);
      expect(second.nextPageToken).toBe('');
      expect((await page({ pageToken: '' })).tasks).toHaveLength(4);
    });

    it('keeps filters applied across pages', async () => {
      for (let i = 1; i <= 6; i++) {
        await ctx.create(`t${i}`, {
          contextId: i % 2 === 0 ? 'even' : 'odd',
          timestamp: `2025-02-01T00:00:0${i}Z`,
        });
      }
      const first = await page({ pageSize: 2, contextId: 'even' });
      const second = await page({ pageSize: 2, contextId: 'even', pageToken: first.nextPageToken });
      expect([...first.tasks, ...second.tasks].map((t) => t.id)).toEqual(['t6', 't4', 't2']);
      expect(second).toMatchObject({ totalSize: 3, nextPageToken: '' });
    });

    it('rejects a page token it did not issue as invalid params on /pageToken', async () => {
      await ctx.create('t1');
      const tokens = [
        'not a token!',
        'AAAA',
        Buffer.from('{"a":1}').toString('base64url'),
        Buffer.from('["yesterday","t1"]').toString('base64url'),
        Buffer.from('["2025-01-01T00:00:00.000000000Z",7]').toString('base64url'),
      ];
      for (const pageToken of tokens) {
        const error = await page({ pageToken }).catch((e: unknown) => e);
        expect(error, pageToken).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ type: 'InvalidParamsError', violations: [{ field: '/pageToken' }] });
      }
    });
  });
}
