// The shared TaskStore suite against the in-memory store.
import { createMemoryTaskStore } from '../../src/store/index.js';
import { describeTaskStoreSuite } from './task-store-suite.js';

describeTaskStoreSuite('memory', () => {
  const store = createMemoryTaskStore();
  return Promise.resolve({ store, cleanup: () => store.close() });
});
