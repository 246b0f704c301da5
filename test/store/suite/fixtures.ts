/** Builders and the per-test context shared by the TaskStore suite's case files. */
import { expect } from 'vitest';
import type { StreamResponse, Task, TaskState } from '../../../src/protocol/model.js';
import type { TaskCommit, TaskScope, TaskStore } from '../../../src/store/index.js';

/** The anonymous scope of the default tenant. */
export const ANON: TaskScope = { tenant: '', owner: '' };

/** Options of `makeTask`; `timestamp: null` leaves the status without one. */
export interface TaskOptions {
  contextId?: string;
  state?: TaskState;
  timestamp?: string | null;
}

/** Builds a task snapshot. */
export function makeTask(id: string, options: TaskOptions = {}): Task {
  const timestamp =
    options.timestamp === null ? undefined : (options.timestamp ?? '2025-01-01T00:00:00.000Z');
  return {
    id,
    contextId: options.contextId ?? 'ctx-1',
    status: {
      state: options.state ?? 'TASK_STATE_SUBMITTED',
      ...(timestamp === undefined ? {} : { timestamp }),
    },
  };
}

/** A status-update event of a task. */
export function statusEvent(task: Task): StreamResponse {
  return { statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } };
}

/** A commit creating `task` in `scope` with its initial `{task}` event. */
export function createCommit(task: Task, scope: TaskScope = ANON): TaskCommit {
  return { ...scope, task, expectedVersion: 0, events: [{ task }] };
}

/** What each case sees: the current test's fresh store, and a helper to create tasks in it. */
export interface SuiteContext {
  readonly store: TaskStore;
  /** Creates a task (asserting it gets version 1) and returns its snapshot. */
  create(id: string, options?: TaskOptions, scope?: TaskScope): Promise<Task>;
}

/** A SuiteContext over a store that `current` returns at call time (it changes per test). */
export function suiteContext(current: () => TaskStore): SuiteContext {
  return {
    get store() {
      return current();
    },
    async create(id, options = {}, scope = ANON) {
      const task = makeTask(id, options);
      await expect(current().commit(createCommit(task, scope))).resolves.toBe(1);
      return task;
    },
  };
}
