/**
 * Concord: an A2A (Agent2Agent) protocol server for TypeScript. The root entry is what most users
 * start with (decision 0155): create a server for an agent executor, and the protocol model its
 * executor reads and writes. Everything else has its own entry: `concord-a2a/server` (extensions,
 * push, clusters), `concord-a2a/protocol` (the whole model and error table),
 * `concord-a2a/server/node` and the other adapters, `concord-a2a/client`, the stores.
 */
export {
  createA2AServer,
  A2AServer,
  TaskUpdater,
  type A2AServerOptions,
  type AgentCardInput,
  type AgentExecutor,
  type RequestContext,
} from './server/index.js';
export { A2AError, type Message, type Part, type Task } from './protocol/index.js';
