/**
 * Internal entry of the agent host (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { importSigningKeys, publicJwks } from './signing-keys.js';
export { DEFAULT_MAX_AGENT_HOPS, HOPS_METADATA_KEY, MAX_AGENT_HOPS, type AgentHops } from './agent-hops.js';
export { cardsFor } from './mounted-agent.js';
export { servedAgentCardJson, type ServedCardOptions } from './served-cards.js';
export {
  GRPC_PUBLIC_URL_ENV,
  grpcPublicUrlProblem,
  PUBLIC_URL_ENV,
  publicAddressOf,
  publicUrlProblem,
  TRUST_PROXY_ENV,
  type PublicAddress,
} from './public-address.js';
export {
  toCardSecurity,
  toCardRequirements,
  toCardScheme,
  checkRequirements,
  type CardSecurity,
  bindRequirements,
  hasScope,
  satisfies,
  authorize,
  evaluateRequirements,
  mayReachUnexposed,
  provedSchemes,
  type SecurityRequirementInput,
  type SchemeIdentity,
  type ScopeShortfall,
  type RequirementEvaluation,
  constantTimeEqual,
  parseCookies,
} from './security/index.js';
export {
  handlerVersion,
  RESPONSE_ARTIFACT_NAME,
  resolveModelEndpoint,
  ModelEndpointConfigError,
  OPENAI_BASE_URL,
  type ResolvedModelEndpoint,
  AGENT_TOOL_NAME,
  agentToolTargets,
  type AgentToolContract,
  type AgentToolOptions,
  type AgentToolTarget,
  mcpServersOf,
  type ResolvedMcpServer,
} from './executors/index.js';
export { CONTRACTS_EXTENSION_URI, contractsExtension, publishedContracts } from './contracts-api.js';
export { APPROVAL_SCOPE } from './approvals-api.js';
export {
  agentSchema,
  DATABASE_URL_ENV,
  DEFAULT_DATABASE_SCHEMA,
  databaseUrlOf,
  describeRetention,
  describeTaskStores,
  openTaskStore,
  parseTaskStoreKind,
  retentionOf,
  type OpenedTaskStore,
  type TaskStoreSettings,
} from './task-stores.js';
export {
  busKindFor,
  openCluster,
  parseBusKind,
  parseMilliseconds,
  parseOrphanPolicy,
  REDIS_URL_ENV,
  type BusKind,
  type OpenedCluster,
  type SharedStore,
} from './cluster-setup.js';
export {
  loadHandlerExecutor,
  HandlerLoadError,
  createModelExecutor,
  type ModelExecutorOptions,
  ModelRequestError,
  connectMcpTools,
  type McpToolSet,
  type McpToolOptions,
  McpConnectError,
} from './executors/index.js';
export { type HostView } from './agent-host.js';
export { type ReloadOutcome } from './definition-watch.js';
export { type ConfigLocation } from './host-config.js';
export { HEALTH_PATH, METRICS_PATH, OpsFront, READY_PATH, type ReadinessCheck } from './health.js';
export { clusterCheck, readinessChecks } from './serve-host.js';
