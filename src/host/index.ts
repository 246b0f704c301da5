/**
 * Public entry of the agent host: load agent definitions (markdown with YAML frontmatter, JSON5
 * host config), mount every agent with its generated, secured and signed card, and serve them.
 */
export { AgentHost, type AgentHostOptions, type HostView, type ReloadReport } from './agent-host.js';
export type { ReloadOutcome } from './definition-watch.js';
export { createHost, startHost, type RunningHost, type StartHostOptions } from './serve-host.js';
export { loadHost, DefinitionError, type DefinitionProblem } from './definitions/index.js';
export { importSigningKeys, publicJwks } from './signing-keys.js';
export {
  AgentHopLimitError,
  DEFAULT_MAX_AGENT_HOPS,
  HOPS_METADATA_KEY,
  MAX_AGENT_HOPS,
  type AgentHops,
} from './agent-hops.js';
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
export { invokedSkill } from '../server/index.js';
export * from './security/index.js';
export * from './executors/index.js';
export type * from './host-config.js';
export { CONTRACTS_EXTENSION_URI, contractsExtension, publishedContracts } from './contracts-api.js';
export { APPROVAL_SCOPE } from './approvals-api.js';
export type { HostExtension, HostExtensionContext } from './host-extensions.js';
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
  type PostgresStoreSettings,
  type TaskStoreKind,
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
  type ClusterSetup,
  type OpenedCluster,
  type SharedStore,
} from './cluster-setup.js';
