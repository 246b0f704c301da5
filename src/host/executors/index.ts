/**
 * The host's executors: code agents (a handler module) and model agents (an OpenAI-compatible
 * chat-completions endpoint, with the `send_to_agent` tool and the tools of their MCP servers). The host wiring picks one
 * per agent definition.
 */
export { loadHandlerExecutor, handlerVersion, HandlerLoadError } from './handler-executor.js';
export { createModelExecutor, RESPONSE_ARTIFACT_NAME, type ModelExecutorOptions } from './model-executor.js';
export {
  resolveModelEndpoint,
  ModelEndpointConfigError,
  OPENAI_BASE_URL,
  type ResolvedModelEndpoint,
} from './model-endpoint.js';
export { ModelRequestError } from './chat-completion-stream.js';
export {
  AGENT_TOOL_NAME,
  agentToolTargets,
  type AgentToolContract,
  type AgentToolOptions,
  type AgentToolTarget,
} from './agent-tool.js';
export {
  connectMcpTools,
  mcpServersOf,
  type McpToolSet,
  type McpToolOptions,
  type ResolvedMcpServer,
} from './mcp-tools.js';
export { McpConnectError } from './mcp-options.js';
