/**
 * The one test suite of the TaskStore port (house style 7): every store runs it. It pins down
 * optimistic concurrency (no lost update), the event log numbering, ListTasks ordering, filters and
 * cursors (A2A 1.0 §3.1.4), and visibility by tenant and owner (§13.1).
 * The cases live in suite/, one file per concern.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { TaskStore } from '../../src/store/index.js';
import { describeCommitCases } from './suite/commit-cases.js';
import { suiteContext } from './suite/fixtures.js';
import { describeIdempotencyCases } from './suite/idempotency-cases.js';
import { describeListCases } from './suite/list-cases.js';
import { describeVisibilityCases } from './suite/visibility-cases.js';

export { ANON, createCommit, makeTask, statusEvent } from './suite/fixtures.js';

/** What a suite run needs: a fresh empty store and a way to dispose of it. */
export type OpenTaskStore = () => Promise<{ store: TaskStore; cleanup(): Promise<void> }>;

/** Registers the TaskStore suite under `name`, run against a fresh store from `open` per test. */
export function describeTaskStoreSuite(name: string, open: OpenTaskStore): void {
  describe(`TaskStore suite: ${name}`, () => {
    let store: TaskStore | undefined;
    let cleanup: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
    });
    afterEach(async () => {
      await cleanup?.();
      store = undefined;
      cleanup = undefined;
    });

    const ctx = suiteContext(() => {
      if (store === undefined) throw new Error('no store: the suite context is used outside a test');
      return store;
    });
    describeCommitCases(ctx);
    describeListCases(ctx);
    describeVisibilityCases(ctx);
    describeIdempotencyCases(ctx);
  });
}
