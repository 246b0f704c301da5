// The shared TaskStore suite against the in-memory store, and the memory store's own retention.
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/protocol/model.js';
import { createMemoryTaskStore, DEFAULT_MAX_TASKS } from '../../src/store/internal.js';
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

describe('memory store: terminal tasks kept as text (docs/performance.md, "Frozen memory-store tasks")', () => {
  const done = (id: string): Task => makeTask(id, { state: 'TASK_STATE_COMPLETED' });

  it('gives back an equal copy of a finished task, its events, and its list entry', async () => {
    const store = createMemoryTaskStore();
    const task = { ...done('t1'), metadata: { note: 'Grüße 🙂', n: 1.5, list: [true, null] } };
    const commit = createCommit(task);
    await store.commit(commit);
    const stored = await store.get('t1', ANON);
    expect(stored).toEqual({ ...ANON, task, version: 1 });
    // Read back from the text, not the object that was committed.
    expect(stored!.task).not.toBe(task);
    expect(await store.readEvents('t1', 0, ANON)).toEqual([{ seq: 1, event: commit.events[0] }]);
    expect(await store.readEvents('t1', 1, ANON)).toEqual([]);
    expect((await store.list({ ...ANON, pageSize: 10 })).tasks).toEqual([task]);
  });

  it('keeps a task in progress as it was given, and freezes it when it finishes', async () => {
    const store = createMemoryTaskStore();
    const working = makeTask('w', { state: 'TASK_STATE_WORKING' });
    await store.commit(createCommit(working));
    expect((await store.get('w', ANON))!.task).toBe(working);
    const finished = { ...working, status: { ...working.status, state: 'TASK_STATE_COMPLETED' as const } };
    await store.commit({ ...ANON, task: finished, expectedVersion: 1, events: [statusEvent(finished)] });
    const stored = await store.get('w', ANON);
    expect(stored!.task).toEqual(finished);
    expect(stored!.task).not.toBe(finished);
    expect((await store.readEvents('w', 0, ANON)).map((r) => r.seq)).toEqual([1, 2]);
  });

  it('still takes a commit to a finished task: versions checked, the log continued', async () => {
    const store = createMemoryTaskStore();
    const task = done('t');
    await store.commit(createCommit(task));
    await expect(
      store.commit({ ...ANON, task, expectedVersion: 0, events: [statusEvent(task)] }),
    ).rejects.toThrow();
    const again = { ...task, metadata: { again: true } };
    await expect(
      store.commit({ ...ANON, task: again, expectedVersion: 1, events: [statusEvent(again)] }),
    ).resolves.toBe(2);
    expect((await store.get('t', ANON))!.task).toEqual(again);
    const log = await store.readEvents('t', 0, ANON);
    expect(log.map((r) => r.seq)).toEqual([1, 2]);
    expect(log[1]!.event).toEqual(statusEvent(again));
  });

  it('holds on to no text of forgotten tasks', async () => {
    const store = createMemoryTaskStore({ maxTasks: 100 });
    const text = 'a'.repeat(4000);
    const before = process.memoryUsage().arrayBuffers;
    // 20,000 tasks of about 8 kB of text each (snapshot and log): 160 MB written in all, of which
    // the store keeps 100 tasks.
    for (let i = 0; i < 20_000; i++) {
      await store.commit(createCommit({ ...done(`t${i}`), metadata: { text } }));
    }
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
    expect((await store.get('t19999', ANON))!.task.metadata).toEqual({ text });
  });
});
