/**
 * The span names, attribute keys and metric instruments Concord emits, written once (decision
 * 0157). They follow the draft OpenTelemetry semantic conventions for A2A (open-telemetry
 * semantic-conventions-genai, "A2A" draft): a SERVER or CLIENT span per operation named as the
 * A2A 1.0 specification names the operation (A2A 1.0 §5.3), `a2a.*` attributes for the protocol's
 * facts, the GenAI conventions for the agent's own work (`invoke_agent`, `chat`, `execute_tool`),
 * and `concord.*` for what only Concord has (contracts, mandates, the durable store, push).
 */

/** The instrumentation scope of every tracer and meter Concord uses. */
export const INSTRUMENTATION_SCOPE = 'concord-a2a';

/** Span attribute keys. */
export const ATTR = {
  /** The operation as A2A 1.0 names it (`SendMessage`), on every binding and version. */
  method: 'a2a.method.name',
  protocolVersion: 'a2a.protocol.version',
  /** `JSONRPC`, `HTTP+JSON` or `GRPC` (A2A 1.0 §5.2 transport names). */
  binding: 'a2a.protocol.binding',
  taskId: 'a2a.task.id',
  taskState: 'a2a.task.state',
  messageId: 'a2a.message.id',
  tenant: 'a2a.tenant',
  /** A2A's contextId is the GenAI conversation. */
  contextId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  /** The A2A error type (`TaskNotFoundError`), or the thrown error's name for internal ones. */
  errorType: 'error.type',
  rpcSystem: 'rpc.system.name',
  rpcMethod: 'rpc.method',
  genAiOperation: 'gen_ai.operation.name',
  genAiProvider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  urlFull: 'url.full',
  httpStatus: 'http.response.status_code',
  dbSystem: 'db.system.name',
  dbOperation: 'db.operation.name',
  /** Concord's own. */
  contractName: 'concord.contract.name',
  contractVersion: 'concord.contract.version',
  contractOutcome: 'concord.contract.outcome',
  mandateDecision: 'concord.mandate.decision',
  pushAttempt: 'concord.push.attempt',
  pushOutcome: 'concord.push.outcome',
  streamEvents: 'concord.stream.events',
  streamEnd: 'concord.stream.end',
  commitEvents: 'concord.store.events',
} as const;

/** Span names besides the operations' own. */
export const SPAN = {
  /** A SERVER span whose operation was never learnt (refused before its method was read). */
  unknownOperation: 'A2A request',
  /** One delivery attempt of a push notification (A2A 1.0 §4.3.3); a CLIENT span. */
  push: 'SendPushNotification',
  /** One commit of a task's events to the store. */
  commit: 'concord.store.commit',
  /** The contract gate's check of a structured message (seed a2a-contracts.md). */
  contract: 'concord.contract.check',
  /** An AUMP mandate evaluation (seed aump-a2a-binding.md). */
  mandate: 'concord.mandate.evaluate',
  /** The span `registerTelemetry` starts to check the SDK took (never ended, never exported). */
  selfCheck: 'concord.telemetry.self_check',
  /** The agent's execution of one message (GenAI `invoke_agent {gen_ai.agent.name}`). */
  invokeAgent: (agent: string): string => `invoke_agent ${agent}`,
  /** One model call (GenAI `chat {gen_ai.request.model}`). */
  chat: (model: string): string => `chat ${model}`,
  /** One tool call (GenAI `execute_tool {gen_ai.tool.name}`). */
  executeTool: (tool: string): string => `execute_tool ${tool}`,
} as const;

/** Metric instrument names and units (no ids in their attributes: cardinality stays bounded). */
export const METRIC = {
  requestDuration: { name: 'a2a.server.request.duration', unit: 's' },
  requests: { name: 'a2a.server.requests', unit: '{request}' },
  activeStreams: { name: 'a2a.server.active_streams', unit: '{stream}' },
  clientDuration: { name: 'a2a.client.request.duration', unit: 's' },
  taskTransitions: { name: 'concord.tasks.transitions', unit: '{transition}' },
  pushDeliveries: { name: 'concord.push.deliveries', unit: '{attempt}' },
  storeCommitDuration: { name: 'concord.store.commit.duration', unit: 's' },
  contractRefusals: { name: 'concord.contract.refusals', unit: '{message}' },
  mandateDecisions: { name: 'concord.mandate.decisions', unit: '{action}' },
  modelDuration: { name: 'gen_ai.client.operation.duration', unit: 's' },
  modelTokens: { name: 'gen_ai.client.token.usage', unit: '{token}' },
} as const;

/** Metric attribute keys beyond the span keys they share. */
export const METRIC_ATTR = {
  /** `ok` or the A2A error type. */
  outcome: 'a2a.outcome',
  /** `input` or `output`, on gen_ai.client.token.usage (GenAI metric conventions). */
  tokenType: 'gen_ai.token.type',
} as const;

/**
 * The `a2a.protocol.binding` of an agent-to-agent send delivered inside one host, with no wire
 * between the agents.
 */
export const IN_PROCESS_BINDING = 'in-process';

/** Histogram bucket boundaries for durations in seconds (from 1 ms to 30 s). */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
