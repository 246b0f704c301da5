/** The shared ClusterBus suite against the in-process bus. */
import { createMemoryBusNetwork } from '../../src/server/internal.js';
import { busSuite } from './bus-suite.js';

busSuite('in-process', () => {
  const network = createMemoryBusNetwork();
  return () => network.bus();
});
