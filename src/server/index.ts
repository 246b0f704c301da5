/**
 * Public entry of the server layer: create an A2A server for an agent executor, and the pieces
 * to embed it (the transport-neutral handler and HTTP types). Adapters live in their own entries:
 * `concord-a2a/server/node`, `concord-a2a/server/fetch`, `concord-a2a/server/express`.
 */
export {
  createA2AServer,
  A2AServer,
  defaultInterfaces,
  JWKS_PATH,
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
export { invokedSkill } from './modes/invoked-skill.js';
export { TaskUpdater, type ArtifactOptions, type MessageInput } from './task-run/task-updater.js';
export {
  RequestHandler,
  type RequestHandlerOptions,
  type EventStream,
  type MessageAdmission,
} from './request-handler.js';
export type { IdempotencyOptions } from './operations/idempotent-sends.js';
export type { CardSigner, CardDecorator } from './http/agent-card-endpoint.js';
export type { StreamItem } from './task-run/task-streams.js';
export { EventHub } from './task-run/event-hub.js';
export {
  ExtensionConfigError,
  type AcceptedSend,
  type ExtensionSend,
  type ServerExtension,
} from './server-extension.js';
export type { Authenticator } from './http/call-setup.js';
export type {
  HttpApp,
  HttpRequest,
  HttpResponse,
  HttpBodyResponse,
  HttpStreamResponse,
  RefusedRequest,
} from './http/http-types.js';
export { isStreamResponse, requestBelow } from './http/http-types.js';
export { FORWARDING_VARY, publicFront, type PublicFrontOptions } from './http/forwarded.js';
export { servedCard, servedCardJson, type CardJsonOptions, type ServedFacts } from './cards/served-card.js';
export { cacheableJson, etagOf } from './http/cacheable-json.js';
export { authenticateChallenge } from './http/call-setup.js';
export {
  CONTRACT_METADATA_KEY,
  type ContractGate,
  type ContractInvocation,
  type OutputViolation,
} from './contracts/contract-gate.js';

// Push notifications (decisions 0086-0090): options, keys, and what deliveries report.
export { DEFAULT_PUSH_RETRY, type PushOptions } from './push/push-notifications.js';
export {
  loadPushKeys,
  generatePushSigningKey,
  SECRET_KEY_ENV,
  SECRET_KEY_FILE,
  SIGNING_KEY_FILE,
  type LoadPushKeysOptions,
  type PushKeys,
} from './push/push-keys.js';
export { parseSecretKey } from './push/secret-box.js';
export { PushDeadLetterError, type RetryPolicy } from './push/push-dispatcher.js';
export { MAX_PUSH_CONFIGS_PER_TASK } from './push/push-configs.js';
export { pushAllowProblem } from './push/webhook-guard.js';

// Several instances on one shared store (decisions 0110-0114): the bus port, the process's cluster.
export {
  createCluster,
  Cluster,
  type ClusterOptions,
  type ClusterSettings,
  type OrphanPolicy,
} from './cluster/cluster.js';
export {
  isClusterMessage,
  deliverPayload,
  type BusListener,
  type CancelMessage,
  type ClusterBus,
  type ClusterMessage,
  type CommittedMessage,
  type Runner,
  type RunRecord,
} from './cluster/cluster-bus.js';
export { createMemoryBusNetwork, MemoryBusNetwork } from './cluster/memory-bus.js';
export { stoppedInstanceText } from './cluster/orphan-sweeper.js';
export { STOPPED_SERVER_TEXT } from './task-run/restart-recovery.js';
