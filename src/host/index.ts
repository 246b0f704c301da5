/**
 * Public entry of the agent host: load agent definitions (markdown with YAML frontmatter, JSON5
 * host config), mount every agent with its generated, secured and signed card, and serve them.
 */
export { AgentHost, type AgentHostOptions, type ReloadReport } from './agent-host.js';

export {
  createHost,
  startHost,
  type HostConsoleOptions,
  type RunningHost,
  type StartHostOptions,
} from './serve-host.js';
export { loadHost, DefinitionError, type DefinitionProblem } from './definitions/index.js';

export {
  type HostIdentity,
  createAuthenticator,
  type HostAuthenticator,
  type AuthenticatorOptions,
} from './security/index.js';

export {
  type OrganizationConfig,
  type BearerSchemeConfig,
  type ApiKeyEntry,
  type ApiKeySchemeConfig,
  type SecuritySchemeConfig,
  type SecurityConfig,
  type SigningKeyConfig,
  type ModelEndpointConfig,
  type OutboundConfig,
  type PushConfig,
  type McpStdioServerConfig,
  type McpHttpServerConfig,
  type McpServerConfig,
  type HostConfig,
} from './host-config.js';

export type { HostExtension, HostExtensionContext } from './host-extensions.js';
export type { TaskStoreKind, PostgresStoreSettings } from './task-stores.js';
export type { ClusterSetup } from './cluster-setup.js';
export { AgentHopLimitError } from './agent-hops.js';
