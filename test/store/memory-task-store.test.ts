// The shared TaskStore suite against the in-memory store, and the memory store's own retention.
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/protocol/model.js';
import { createMemoryTaskStore, DEFAULT_MAX_TASKS } from '../../src/store/index.js';
import { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';
import { describeTaskStoreSuite } from './task-store-suite.js';

describeTaskStoreSuite('memory', () => {
  const store = createMemoryTaskStore();
  return Promise.resolve({ store, cleanup: () => store.close() });
});

describe('memory store retention (decision 0010)', () => {
  const done = (id: string): Task => makeTask(id, { state: 'TASK_STATE_COMPLETED' });

  it('keeps 10,000 tasks by default', () => {
    expect(DEFAULT_MAX_TASKS).toBe(10_000);
  });

  it('forgets the oldest terminal tasks once past maxTasks, down to nine tenths', async () => {
    const store = createMemoryTaskStore({ maxTasks: 10 });
    for (let i = 0; i < 11; i++) await store.commit(createCommit(done(`t${i}`)));
    // The 11th create triggered one sweep: 11 → 9 (a tenth of the room freed), oldest first.
    expect(await store.get('t0', ANON)).toBeUndefined();
    expect(await store.get('t1', ANON)).toBeUndefined();
    expect(await store.get('t2', ANON)).toBeDefined();
    expect(await store.get('t10', ANON)).toBeDefined();
    const page = await store.list({ ...ANON, pageSize: 100 });
    expect(page.totalSize).toBe(9);
    expect(page.tasks.map((t) => t.id)).not.toContain('t0');
    expect(await store.readEvents('t0', 0, ANON)).toEqual([]);
    // A forgotten id is free again, like one never used.
    await expect(store.commit(createCommit(done('t0')))).resolves.toBe(1);
  });

  it('never forgets a task that is still in progress, however old', async () => {
    const store = createMemoryTaskStore({ maxTasks: 10 });
    await store.commit(createCommit(makeTask('running', { state: 'TASK_STATE_WORKING' })));
    await store.commit(createCommit(makeTask('asking', { state: 'TASK_STATE_INPUT_REQUIRED' })));
    for (let i = 0; i < 200; i++) await store.commit(createCommit(done(`t${i}`)));
    expect((await store.get('running', ANON))?.task.status.state).toBe('TASK_STATE_WORKING');
    expect(await store.get('asking', ANON)).toBeDefined();
    expect(await store.get('t0', ANON)).toBeUndefined();
    expect(await store.get('t199', ANON)).toBeDefined();
    const page = await store.list({ ...ANON, pageSize: 100 });
    expect(page.totalSize).toBeLessThanOrEqual(10);
    expect(page.tasks.map((t) => t.id)).toEqual(expect.arrayContaining(['running', 'asking', 't199']));
  });

  it('outgrows maxTasks rather than drop live tasks, and sweeps again once they finish', async () => {
    const store = createMemoryTaskStore({ maxTasks: 10 });
    for (let i = 0; i < 15; i++) {
      await store.commit(createCommit(makeTask(`w${i}`, { state: 'TASK_STATE_WORKING' })));
    }
    expect((await store.list({ ...ANON, pageSize: 100 })).totalSize).toBe(15);
    // Finish them all: the next sweep may now drop the oldest.
    for (let i = 0; i < 15; i++) {
      const working = makeTask(`w${i}`, { state: 'TASK_STATE_WORKING' });
      const finished = { ...working, status: { ...working.status, state: 'TASK_STATE_COMPLETED' as const } };
      await store.commit({ ...ANON, task: finished, expectedVersion: 1, events: [statusEvent(finished)] });
    }
    for (let i = 0; i < 5; i++) await store.commit(createCommit(done(`n${i}`)));
    const page = await store.list({ ...ANON, pageSize: 100 });
    expect(page.totalSize).toBeLessThanOrEqual(11);
    expect(await store.get('w0', ANON)).toBeUndefined();
    expect(await store.get('n4', ANON)).toBeDefined();
  });

  it('keeps everything with maxTasks: Infinity, and rejects a bound below 1', async () => {
    const store = createMemoryTaskStore({ maxTasks: Infinity });
    for (let i = 0; i < 50; i++) await store.commit(createCommit(done(`t${i}`)));
    expect((await store.list({ ...ANON, pageSize: 100 })).totalSize).toBe(50);
    expect(() => createMemoryTaskStore({ maxTasks: 0 })).toThrow(/maxTasks must be at least 1/);
  });
});
