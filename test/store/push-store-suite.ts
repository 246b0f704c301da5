/**
 * The one test suite of the PushStore port (house style 7), run against every TaskStore that
 * exposes `push`: configs (put, replace, list order, delete), the outbox written by the task
 * commit itself (nothing for tasks without configs, one entry per config per commit, the commit's
 * events and snapshot), claims (heads only, oldest first, leases, attempts), settlements
 * (delivered, retry, dead, skip; the count each gives), dead letters (paging, requeue) and the
 * outbox listener.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushConfigRecord, PushStore, TaskStore } from '../../src/store/index.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';

/** What a suite run needs: a fresh empty store with `push`, and a way to dispose of it. */
export type OpenPushStore = () => Promise<{ store: TaskStore; cleanup(): Promise<void> }>;

/** A config record of `taskId` with the given id. */
export function pushConfig(
  taskId: string,
  id: string,
  extra: Partial<PushConfigRecord> = {},
): PushConfigRecord {
  return {
    taskId,
    id,
    tenant: '',
    url: `https://hooks.example/${id}`,
    protocolVersion: '1.0',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...extra,
  };
}

const working = makeTask('t1', { state: 'TASK_STATE_WORKING', timestamp: '2025-01-01T00:00:01Z' });
const done = makeTask('t1', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:02Z' });

/** Registers the PushStore suite under `name`, run against a fresh store from `open` per test. */
export function describePushStoreSuite(name: string, open: OpenPushStore): void {
  describe(`PushStore suite: ${name}`, () => {
    let store: TaskStore;
    let push: PushStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      if (store.push === undefined) throw new Error(`${name} exposes no push store`);
      push = store.push;
    });
    afterEach(async () => {
      await cleanup();
    });

    const create = (id = 't1') => store.commit(createCommit(makeTask(id)));

    describe('configs', () => {
      it('puts, reads, replaces in place, lists oldest first and deletes', async () => {
        await create();
        await push.putConfig(pushConfig('t1', 'a', { authScheme: 'Bearer', sealedSecrets: 'v1.sealed' }));
        await push.putConfig(pushConfig('t1', 'b', { protocolVersion: '0.3' }));
        expect(await push.getConfig('t1', 'a')).toEqual(
          pushConfig('t1', 'a', { authScheme: 'Bearer', sealedSecrets: 'v1.sealed' }),
        );
        await push.putConfig(pushConfig('t1', 'a', { url: 'https://hooks.example/new' }));
        const listed = await push.listConfigs('t1');
        expect(listed.map((c) => c.id)).toEqual(['a', 'b']);
        expect(listed[0]).toEqual(pushConfig('t1', 'a', { url: 'https://hooks.example/new' }));
        expect(await push.deleteConfig('t1', 'a')).toBe(true);
        expect(await push.deleteConfig('t1', 'a')).toBe(false);
        expect(await push.getConfig('t1', 'a')).toBeUndefined();
        expect(await push.listConfigs('nope')).toEqual([]);
      });

      it('refuses a config of a task it does not hold, and a record missing a field', async () => {
        await expect(push.putConfig(pushConfig('ghost', 'a'))).rejects.toThrow(/no task ghost/);
        await create();
        await expect(push.putConfig({ ...pushConfig('t1', 'a'), url: '' })).rejects.toThrow(/url/);
      });
    });

    describe('outbox written by the commit', () => {
      it('queues nothing for a task without configs', async () => {
        let told = 0;
        push.onOutbox(() => told++);
        await create();
        await store.commit({ ...ANON, task: working, expectedVersion: 1, events: [statusEvent(working)] });
        expect(await push.claimDue(Date.now(), 10, 1000)).toEqual([]);
        expect(await push.nextDueAt()).toBeUndefined();
        expect(told).toBe(0);
      });

      it('queues a config given with the creating commit, with the commit events and snapshot', async () => {
        let told = 0;
        push.onOutbox(() => told++);
        const task = makeTask('t1');
        await store.commit({
          ...createCommit(task),
          events: [{ task }, statusEvent(working)],
          task: working,
          pushConfigs: [pushConfig('t1', 'a')],
        });
        expect(told).toBe(1);
        expect(await push.getConfig('t1', 'a')).toEqual(pushConfig('t1', 'a'));
        const [entry, ...more] = await push.claimDue(Date.now(), 10, 60_000);
        expect(more).toEqual([]);
        expect(entry).toMatchObject({
          taskId: 't1',
          configId: 'a',
          firstSeq: 1,
          lastSeq: 2,
          deliveredSeq: 0,
          attempts: 1,
          events: [{ task }, statusEvent(working)],
          task: working,
        });
        expect(typeof entry!.id).toBe('number');
        expect(Number.isNaN(Date.parse(entry!.createdAt))).toBe(false);
      });

      it('queues one entry per config and commit; claims hand out only the oldest of each config', async () => {
        await create();
        await push.putConfig(pushConfig('t1', 'a'));
        await push.putConfig(pushConfig('t1', 'b'));
        await store.commit({ ...ANON, task: working, expectedVersion: 1, events: [statusEvent(working)] });
        await store.commit({ ...ANON, task: done, expectedVersion: 2, events: [statusEvent(done)] });
        const now = Date.now();
        const first = await push.claimDue(now, 10, 60_000);
        expect(first.map((e) => [e.configId, e.firstSeq, e.lastSeq])).toEqual([
          ['a', 2, 2],
          ['b', 2, 2],
        ]);
        // Leased: nothing more is due until they are settled or the lease runs out.
        expect(await push.claimDue(now, 10, 60_000)).toEqual([]);
        expect(await push.nextDueAt()).toBe(now + 60_000);
        await push.settle(first[0]!.id, { outcome: 'delivered' });
        const next = await push.claimDue(now, 10, 60_000);
        expect(next.map((e) => [e.configId, e.firstSeq, e.task.status.state])).toEqual([
          ['a', 3, 'TASK_STATE_COMPLETED'],
        ]);
        expect(next[0]!.id).toBeGreaterThan(first[1]!.id);
        // A lease that runs out makes the entry due again, its attempt counted.
        const again = await push.claimDue(now + 60_001, 10, 1000);
        expect(again.map((e) => [e.configId, e.attempts])).toEqual([
          ['b', 2],
          ['a', 2],
        ]);
      });

      it('lists the entries pending for a task, every config, oldest first, without claiming them', async () => {
        await create();
        await create('t2');
        await push.putConfig(pushConfig('t1', 'a'));
        await push.putConfig(pushConfig('t1', 'b'));
        await push.putConfig(pushConfig('t2', 'a'));
        await store.commit({ ...ANON, task: working, expectedVersion: 1, events: [statusEvent(working)] });
        const w2 = makeTask('t2', { state: 'TASK_STATE_WORKING' });
        await store.commit({ ...ANON, task: w2, expectedVersion: 1, events: [statusEvent(w2)] });
        await store.commit({ ...ANON, task: done, expectedVersion: 2, events: [statusEvent(done)] });
        const pending = await push.listPending('t1');
        expect(pending.map((e) => [e.configId, e.firstSeq, e.attempts, e.task.status.state])).toEqual([
          ['a', 2, 0, 'TASK_STATE_WORKING'],
          ['b', 2, 0, 'TASK_STATE_WORKING'],
          ['a', 3, 0, 'TASK_STATE_COMPLETED'],
          ['b', 3, 0, 'TASK_STATE_COMPLETED'],
        ]);
        expect(pending.map((e) => e.id)).toEqual([...pending.map((e) => e.id)].sort((x, y) => x - y));
        expect(pending[0]!.events).toEqual([statusEvent(working)]);
        // Nothing was claimed: both heads of t1 and the head of t2 are still due, counted once now.
        const claimed = await push.claimDue(Date.now(), 10, 60_000);
        expect(claimed.map((e) => [e.taskId, e.configId, e.attempts])).toEqual([
          ['t1', 'a', 1],
          ['t1', 'b', 1],
          ['t2', 'a', 1],
        ]);
        // A failed try shows as it stands; a delivered entry leaves the list.
        await push.settle(claimed[0]!.id, {
          outcome: 'retry',
          deliveredSeq: 1,
          nextAttemptAt: Date.now() + 60_000,
          error: 'HTTP 502',
        });
        await push.settle(claimed[1]!.id, { outcome: 'delivered' });
        const after = await push.listPending('t1');
        expect(after.map((e) => [e.id, e.configId, e.attempts, e.lastError])).toEqual([
          [claimed[0]!.id, 'a', 1, 'HTTP 502'],
          [pending[2]!.id, 'a', 0, undefined],
          [pending[3]!.id, 'b', 0, undefined],
        ]);
        expect(await push.listPending('nope')).toEqual([]);
      });

      it('respects the claim limit, oldest first', async () => {
        for (const id of ['t1', 't2', 't3']) {
          await create(id);
          await push.putConfig(pushConfig(id, 'a'));
          const w = makeTask(id, { state: 'TASK_STATE_WORKING' });
          await store.commit({ ...ANON, task: w, expectedVersion: 1, events: [statusEvent(w)] });
        }
        const claimed = await push.claimDue(Date.now(), 2, 60_000);
        expect(claimed.map((e) => e.taskId)).toEqual(['t1', 't2']);
      });
    });

    describe('settlements and dead letters', () => {
      async function oneEntry(): Promise<number> {
        await create();
        await push.putConfig(pushConfig('t1', 'a'));
        await store.commit({
          ...ANON,
          task: working,
          expectedVersion: 1,
          events: [statusEvent(working), statusEvent(working)],
        });
        return (await push.claimDue(Date.now(), 1, 60_000))[0]!.id;
      }

      it('reschedules a retry with its progress and error', async () => {
        const id = await oneEntry();
        const at = Date.now() + 5000;
        await push.settle(id, { outcome: 'retry', deliveredSeq: 2, nextAttemptAt: at, error: 'HTTP 500' });
        expect(await push.nextDueAt()).toBe(at);
        expect(await push.claimDue(at - 1, 10, 1000)).toEqual([]);
        const [entry] = await push.claimDue(at, 10, 1000);
        expect(entry).toMatchObject({ id, deliveredSeq: 2, attempts: 2, lastError: 'HTTP 500' });
      });

      it('moves a dead entry to the dead letters, pages them, and requeues one at its place', async () => {
        const id = await oneEntry();
        await push.settle(id, { outcome: 'retry', deliveredSeq: 1, nextAttemptAt: 0, error: 'HTTP 503' });
        await push.claimDue(Date.now(), 1, 60_000);
        await push.settle(id, {
          outcome: 'dead',
          deliveredSeq: 2,
          reason: 'gave up after 2 attempts: HTTP 503',
          url: 'https://hooks.example/a',
        });
        expect(await push.claimDue(Date.now(), 10, 1000)).toEqual([]);
        const page = await push.listDeadLetters();
        expect(page.nextPageToken).toBe('');
        expect(page.deadLetters).toHaveLength(1);
        expect(page.deadLetters[0]).toMatchObject({
          id,
          taskId: 't1',
          configId: 'a',
          url: 'https://hooks.example/a',
          reason: 'gave up after 2 attempts: HTTP 503',
          deliveredSeq: 2,
          attempts: 2,
          firstSeq: 2,
          lastSeq: 3,
          events: [statusEvent(working), statusEvent(working)],
          task: working,
        });
        expect(Number.isNaN(Date.parse(page.deadLetters[0]!.failedAt))).toBe(false);
        // A later commit queues behind the requeued letter, which keeps its place.
        await store.commit({ ...ANON, task: done, expectedVersion: 3, events: [statusEvent(done)] });
        let told = 0;
        push.onOutbox(() => told++);
        expect(await push.requeueDeadLetter(id)).toBe(true);
        expect(told).toBe(1);
        expect(await push.requeueDeadLetter(id)).toBe(false);
        expect((await push.listDeadLetters()).deadLetters).toEqual([]);
        const [head] = await push.claimDue(Date.now(), 10, 1000);
        expect(head).toMatchObject({ id, attempts: 1, deliveredSeq: 2 });
      });

      it('keeps the count a retry or a dead settlement gives: the count of the delivery owed next', async () => {
        const id = await oneEntry();
        // The claim counted 1; an event went out meanwhile and the next one failed its first try.
        await push.settle(id, {
          outcome: 'retry',
          deliveredSeq: 2,
          attempts: 1,
          nextAttemptAt: 0,
          error: 'x',
        });
        let [entry] = await push.claimDue(Date.now(), 1, 60_000);
        expect(entry).toMatchObject({ id, deliveredSeq: 2, attempts: 2 });
        await push.settle(id, {
          outcome: 'retry',
          deliveredSeq: 2,
          attempts: 0,
          nextAttemptAt: 0,
          error: 'y',
        });
        [entry] = await push.claimDue(Date.now(), 1, 60_000);
        expect(entry).toMatchObject({ id, attempts: 1 });
        await push.settle(id, { outcome: 'dead', deliveredSeq: 2, attempts: 7, reason: 'r', url: 'u' });
        expect((await push.listDeadLetters()).deadLetters[0]).toMatchObject({ id, attempts: 7 });
      });

      it('skips one event: a dead letter of its own under a new id, the entry going on at its place', async () => {
        await create();
        await push.putConfig(pushConfig('t1', 'a'));
        const steps = [1, 2, 3].map((n) =>
          makeTask('t1', { state: 'TASK_STATE_WORKING', timestamp: `2025-01-01T00:00:0${n}Z` }),
        );
        await store.commit({ ...ANON, task: steps[2]!, expectedVersion: 1, events: steps.map(statusEvent) });
        // A later commit of the same config queues behind the entry.
        await store.commit({ ...ANON, task: done, expectedVersion: 4, events: [statusEvent(done)] });
        const [entry] = await push.claimDue(Date.now(), 10, 60_000);
        expect(entry).toMatchObject({ firstSeq: 2, lastSeq: 4 });
        await push.settle(entry!.id, {
          outcome: 'retry',
          deliveredSeq: 1,
          nextAttemptAt: 0,
          error: 'HTTP 500',
        });
        await push.claimDue(Date.now(), 10, 60_000);
        // Event 2 went out, event 3 ran out of tries; event 4 is still owed.
        const due = Date.now() + 5000;
        await push.settle(entry!.id, {
          outcome: 'skip',
          seq: 3,
          attempts: 3,
          nextAttemptAt: due,
          reason: 'gave up after 3 attempts: HTTP 500',
          url: 'https://hooks.example/a',
        });
        const [dead, ...others] = (await push.listDeadLetters()).deadLetters;
        expect(others).toEqual([]);
        expect(dead).toMatchObject({
          taskId: 't1',
          configId: 'a',
          firstSeq: 3,
          lastSeq: 3,
          deliveredSeq: 2,
          attempts: 3,
          events: [statusEvent(steps[1]!)],
          task: steps[2],
          url: 'https://hooks.example/a',
          reason: 'gave up after 3 attempts: HTTP 500',
          lastError: 'HTTP 500',
          createdAt: entry!.createdAt,
        });
        // A new id, after every outbox id so far.
        expect(dead!.id).toBeGreaterThan(entry!.id + 1);
        // The entry keeps its place (the later commit still waits), owing event 4 with no tries.
        expect(await push.nextDueAt()).toBe(due);
        const [next, ...rest] = await push.claimDue(due, 10, 60_000);
        expect(rest).toEqual([]);
        expect(next).toMatchObject({ id: entry!.id, deliveredSeq: 3, lastSeq: 4, attempts: 1 });
        expect(next!.lastError).toBeUndefined();
        await push.settle(entry!.id, { outcome: 'delivered' });
        // Requeued, the dead letter owes its one event; its id never meets a new entry's.
        expect(await push.requeueDeadLetter(dead!.id)).toBe(true);
        const after = makeTask('t1', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:09Z' });
        await store.commit({ ...ANON, task: after, expectedVersion: 5, events: [statusEvent(after)] });
        const heads = await push.claimDue(Date.now() + 60_000, 10, 60_000);
        expect(heads.map((e) => [e.firstSeq, e.lastSeq, e.deliveredSeq])).toEqual([[5, 5, 4]]);
        await push.settle(heads[0]!.id, { outcome: 'delivered' });
        const [back] = await push.claimDue(Date.now() + 60_000, 10, 60_000);
        expect(back).toMatchObject({ id: dead!.id, firstSeq: 3, lastSeq: 3, deliveredSeq: 2, attempts: 1 });
        expect(back!.events).toEqual([statusEvent(steps[1]!)]);
        await push.settle(back!.id, { outcome: 'delivered' });
        const last = await push.claimDue(Date.now() + 120_000, 10, 60_000);
        expect(last.map((e) => [e.firstSeq, e.id > dead!.id])).toEqual([[6, true]]);
      });

      it('pages dead letters with a cursor and refuses a foreign one', async () => {
        await create();
        await push.putConfig(pushConfig('t1', 'a'));
        for (let v = 1; v <= 3; v++) {
          const w = makeTask('t1', { state: 'TASK_STATE_WORKING', timestamp: `2025-01-01T00:00:0${v}Z` });
          await store.commit({ ...ANON, task: w, expectedVersion: v, events: [statusEvent(w)] });
        }
        for (let i = 0; i < 3; i++) {
          const [entry] = await push.claimDue(Date.now(), 1, 60_000);
          await push.settle(entry!.id, {
            outcome: 'dead',
            deliveredSeq: entry!.firstSeq - 1,
            reason: `r${i}`,
            url: 'u',
          });
        }
        const first = await push.listDeadLetters({ pageSize: 2 });
        expect(first.deadLetters.map((d) => d.reason)).toEqual(['r0', 'r1']);
        const second = await push.listDeadLetters({ pageSize: 2, pageToken: first.nextPageToken });
        expect(second.deadLetters.map((d) => d.reason)).toEqual(['r2']);
        expect(second.nextPageToken).toBe('');
        await expect(push.listDeadLetters({ pageToken: 'bogus' })).rejects.toThrow(/page token/);
        await expect(push.listDeadLetters({ pageSize: 0 })).rejects.toThrow(/pageSize|1 to/);
      });

      it('deleting a config drops its pending entries, and later commits queue none for it', async () => {
        await create();
        await push.putConfig(pushConfig('t1', 'a'));
        await push.putConfig(pushConfig('t1', 'b'));
        await store.commit({ ...ANON, task: working, expectedVersion: 1, events: [statusEvent(working)] });
        expect(await push.deleteConfig('t1', 'a')).toBe(true);
        await store.commit({ ...ANON, task: done, expectedVersion: 2, events: [statusEvent(done)] });
        const claimed = await push.claimDue(Date.now(), 10, 60_000);
        expect(claimed.map((e) => e.configId)).toEqual(['b']);
        expect(await push.deleteConfig('t1', 'b')).toBe(true);
        expect(await push.claimDue(Date.now() + 120_000, 10, 1000)).toEqual([]);
        const after = makeTask('t1', { state: 'TASK_STATE_COMPLETED', timestamp: '2025-01-01T00:00:03Z' });
        await store.commit({ ...ANON, task: after, expectedVersion: 3, events: [statusEvent(after)] });
        expect(await push.nextDueAt()).toBeUndefined();
      });

      it('settling an entry that is gone (its config deleted meanwhile) is harmless', async () => {
        const id = await oneEntry();
        await push.deleteConfig('t1', 'a');
        await push.settle(id, { outcome: 'dead', deliveredSeq: 0, reason: 'x', url: 'u' });
        await push.settle(id, { outcome: 'delivered' });
        await push.settle(id, {
          outcome: 'skip',
          seq: 2,
          attempts: 1,
          nextAttemptAt: 0,
          reason: 'x',
          url: 'u',
        });
        expect((await push.listDeadLetters()).deadLetters).toEqual([]);
      });
    });
  });
}
