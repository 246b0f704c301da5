/**
 * Public entry of the server layer: create an A2A server for an agent executor, and the pieces
 * to embed it (the HTTP types), extensions, push and clusters. Adapters live in their own entries:
 * `concord-a2a/server/node`, `concord-a2a/server/fetch`, `concord-a2a/server/express`.
 */
export {
  createA2AServer,
  A2AServer,
  type A2AServerOptions,
  type AgentCardInput,
  type DocumentBuilder,
} from './a2a-server.js';
export type { ErrorMapper } from './http/error-mapping.js';
export type {
  AgentDescription,
  AgentExecutor,
  AgentMessageInput,
  AgentSender,
  RequestContext,
} from './agent-executor.js';
export type { CallContext, CallerIdentity } from './call-context.js';
// Access logging (decision 0158): what the listeners' `onAccess` hook receives.
export type { AccessEntry, AccessHook, CallFacts } from './common/access-entry.js';
export { invokedSkill } from './modes/invoked-skill.js';
export { TaskUpdater, type ArtifactOptions, type MessageInput } from './task-run/task-updater.js';

export type { IdempotencyOptions } from './operations/idempotent-sends.js';
export type { CardSigner, CardDecorator } from './http/agent-card-endpoint.js';

export {
  ExtensionConfigError,
  type AcceptedSend,
  type ExtensionSend,
  type ServerExtension,
} from './server-extension.js';
export type { Authenticator } from './http/call-setup.js';
export {
  type HttpApp,
  type HttpRequest,
  type HttpResponse,
  type HttpBodyResponse,
  type HttpStreamResponse,
} from './http/http-types.js';

// Push notifications (decisions 0086-0090): options, keys, and what deliveries report.
export { type PushOptions } from './push/push-notifications.js';
export {
  loadPushKeys,
  generatePushSigningKey,
  type LoadPushKeysOptions,
  type PushKeys,
} from './push/push-keys.js';

export { PushDeadLetterError, type RetryPolicy } from './push/push-dispatcher.js';

// Several instances on one shared store (decisions 0110-0114): the bus port, the process's cluster.
export {
  createCluster,
  Cluster,
  type ClusterOptions,
  type ClusterSettings,
  type OrphanPolicy,
} from './cluster/cluster.js';
export { type BusListener, type ClusterBus, type ClusterMessage } from './cluster/cluster-bus.js';
export type { MessageAdmission } from './request-handler.js';
export type { ContractInvocation, ContractGate } from './contracts/contract-gate.js';
export {
  contractAgent,
  type ContractAgent,
  type ContractAgentOptions,
  type ContractHandler,
} from './contracts/contract-agent.js';
