/**
 * `send_to_agent`: agent-to-agent send (OpenClaw PR #19293 a2a-contracts.md "Sending structured messages", the
 * `sessions_send` equivalent; decision 0020) offered to a model agent as an OpenAI function tool,
 * so "model agents get it as a tool" (decision 0020). The target's contract gate runs exactly as
 * for any sender; a refusal is handed back to the model as the tool result, in the gate's words,
 * so the model can fix its payload (docs/decisions/0021-agent-tool.md).
 */
import type { AgentDefinition, ContractDefinition } from '../../card/index.js';
import { A2AError } from '../../protocol/index.js';
import type { AgentMessageInput, AgentSender } from '../../server/index.js';
import type { Context } from '../../telemetry/index.js';
import { agentToolError, agentToolResult } from './agent-tool-result.js';
import type { ChatTool } from './chat-completion-stream.js';
import type { ChatToolCall } from './chat-messages.js';

/** The tool's name, as the model calls it. */
export const AGENT_TOOL_NAME = 'send_to_agent';

/** One contract of a target, as the model is told about it. */
export interface AgentToolContract {
  name: string;
  description?: string;
  /** The contract's input JSON Schema, shown to the model so it can build a valid payload. */
  input?: unknown;
}

/** An agent the model may send to. */
export interface AgentToolTarget {
  /** Host agent id (or URL) passed to `context.agents.send`. */
  id: string;
  description: string;
  contracts: AgentToolContract[];
  /** Whether the target takes plain text; when unset the model is not told either way. */
  allowFreeform?: boolean;
  /**
   * An agent on another host (`id` is its URL): its card's description and contracts are read
   * when the tool is offered, through `context.agents.describe` (decision 0031).
   */
  remote?: boolean;
}

/** The `agentTool` option of `createModelExecutor`. */
export interface AgentToolOptions {
  targets: AgentToolTarget[];
  /** Rounds of tool calls per message before the task fails (default 5). */
  maxRounds?: number;
  /** Longest tool result handed to the model, in characters (default 16000). */
  maxResultChars?: number;
}

/** An agent tool with its options checked and defaults applied. */
export interface ResolvedAgentTool {
  spec: ChatTool;
  targets: ReadonlyMap<string, AgentToolTarget>;
  maxRounds: number;
  maxResultChars: number;
  /** Remote targets' descriptions, by URL, with when they were read (agent-tool-remote.ts). */
  described: Map<string, { at: number; target: AgentToolTarget }>;
}

/** A contract as the model is told about it: description, deprecation, input schema. */
export function toolContract(name: string, contract: ContractDefinition): AgentToolContract {
  const notes = [contract.description ?? ''];
  if (contract.deprecated === true) {
    const instead = contract.supersededBy === undefined ? '' : `, use "${contract.supersededBy}"`;
    notes.push(`(deprecated${instead})`);
  }
  const description = notes.filter((note) => note !== '').join(' ');
  return {
    name,
    ...(description === '' ? {} : { description }),
    ...(contract.input === undefined ? {} : { input: contract.input }),
  };
}

/**
 * The targets a host agent may reach: every other agent of the host, exposed or not (decision
 * 0020: unexposed agents exist to be called by other agents), with its contracts, then the remote
 * agents its `a2a.remoteAgents` names (decision 0031), described from their cards when offered.
 */
export function agentToolTargets(definitions: readonly AgentDefinition[], from: string): AgentToolTarget[] {
  const local = definitions
    .filter((definition) => definition.id !== from)
    .map((definition) => ({
      id: definition.id,
      description: definition.description,
      allowFreeform: definition.a2a.allowFreeform,
      contracts: Object.entries(definition.a2a.contracts).map(([name, c]) => toolContract(name, c)),
    }));
  const remote = (definitions.find((d) => d.id === from)?.a2a.remoteAgents ?? []).map((agent) => ({
    id: agent.url,
    description: agent.description ?? '',
    contracts: [],
    remote: true,
  }));
  return [...local, ...remote];
}

function describeTarget(target: AgentToolTarget): string {
  const lines = [`- ${target.id}: ${target.description.trim() || '(no description)'}`];
  for (const contract of target.contracts) {
    const about = contract.description === undefined ? '' : ` ${contract.description}`;
    const input = contract.input === undefined ? '' : ` Input schema: ${JSON.stringify(contract.input)}`;
    lines.push(`  - contract "${contract.name}":${about}${input}`);
  }
  if (target.allowFreeform === false) lines.push('  - accepts contract messages only, not plain text');
  return lines.join('\n');
}

/** The OpenAI function tool describing the targets. */
export function agentToolSpec(targets: AgentToolTarget[]): ChatTool {
  const description = [
    "Send a message to another agent and get its answer (the agent's task state and output, or " +
      '{"error": ...} when it refused the message). Set `agent`, then either `contract` with ' +
      "`payload` (JSON valid against that contract's input schema) or `text` (a plain message).",
    'Agents:',
    ...targets.map(describeTarget),
  ].join('\n');
  return {
    type: 'function',
    function: {
      name: AGENT_TOOL_NAME,
      description,
      parameters: {
        type: 'object',
        properties: {
          agent: { type: 'string', enum: targets.map((t) => t.id), description: 'The agent to send to' },
          contract: { type: 'string', description: 'Contract name, for a structured message' },
          payload: { description: "The contract's input" },
          text: { type: 'string', description: 'A plain-text message, when no contract is used' },
        },
        required: ['agent'],
      },
    },
  };
}

/** Checks the option (for the agent named in errors) and builds the tool; undefined when there are no targets. */
export function resolveAgentTool(options: AgentToolOptions, agent: string): ResolvedAgentTool | undefined {
  const targets = new Map<string, AgentToolTarget>();
  for (const [i, target] of options.targets.entries()) {
    if (typeof target.id !== 'string' || target.id.trim() === '') {
      throw new Error(`Agent "${agent}": agentTool.targets[${i}].id must be a non-empty string`);
    }
    if (targets.has(target.id)) {
      throw new Error(`Agent "${agent}": agentTool.targets[${i}].id "${target.id}" is listed twice`);
    }
    targets.set(target.id, target);
  }
  const maxRounds = options.maxRounds ?? 5;
  if (!Number.isInteger(maxRounds) || maxRounds < 1) {
    throw new Error(`Agent "${agent}": agentTool.maxRounds must be a positive integer, got ${maxRounds}`);
  }
  const maxResultChars = options.maxResultChars ?? 16_000;
  if (!Number.isInteger(maxResultChars) || maxResultChars < 100) {
    throw new Error(
      `Agent "${agent}": agentTool.maxResultChars must be an integer >= 100, got ${maxResultChars}`,
    );
  }
  if (targets.size === 0) return undefined;
  return {
    spec: agentToolSpec([...targets.values()]),
    targets,
    maxRounds,
    maxResultChars,
    described: new Map(),
  };
}

/** What running one call needs from the executor. */
export interface AgentToolRun {
  tool: ResolvedAgentTool;
  agents: AgentSender;
  /** Sent as the contract envelope's `correlationId`, tying the target's task to this one. */
  taskId: string;
  signal: AbortSignal;
  /** Called before the send, to show progress ("Asking researcher"). */
  announce(agent: string): void;
  /** The tool call's trace context, the send's parent (decision 0157); the host's sender reads it. */
  trace?: Context | undefined;
}

/** Why arguments cannot be sent, or what to send. */
function inputOf(
  call: ChatToolCall,
  tool: ResolvedAgentTool,
  taskId: string,
): { agent: string; input: AgentMessageInput } | string {
  let args: unknown;
  const raw = call.function.arguments.trim();
  try {
    args = raw === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return `The arguments are not valid JSON (${(error as Error).message}): ${raw.slice(0, 200)}`;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return 'The arguments must be a JSON object with `agent` and `contract`/`payload` or `text`';
  }
  const { agent, contract, payload, text } = args as Record<string, unknown>;
  const known = [...tool.targets.keys()].join(', ');
  if (typeof agent !== 'string') return `\`agent\` is required: one of ${known}`;
  if (!tool.targets.has(agent)) return `Unknown agent "${agent}": ${AGENT_TOOL_NAME} can reach ${known}`;
  // A contract wins over text: the model asked for a structured message, the text is a remark.
  if (contract !== undefined) {
    if (typeof contract !== 'string' || contract === '')
      return '`contract` must be a contract name (a string)';
    return { agent, input: { contract, payload, correlationId: taskId } };
  }
  if (typeof text === 'string') return { agent, input: text };
  return 'Give either `contract` with `payload`, or `text`';
}

/** Runs one tool call and returns the tool result the model reads. */
export async function runAgentToolCall(call: ChatToolCall, run: AgentToolRun): Promise<string> {
  if (call.function.name !== AGENT_TOOL_NAME) {
    return agentToolError(`Unknown tool "${call.function.name}": the only tool is ${AGENT_TOOL_NAME}`);
  }
  const resolved = inputOf(call, run.tool, run.taskId);
  if (typeof resolved === 'string') return agentToolError(resolved);
  run.announce(resolved.agent);
  try {
    // `trace` goes beyond AgentSender's declared options: the host's sender reads it, others ignore it.
    const options: { signal: AbortSignal; trace?: Context | undefined } = {
      signal: run.signal,
      trace: run.trace,
    };
    const response = await run.agents.send(resolved.agent, resolved.input, options);
    return agentToolResult(response, run.tool.maxResultChars);
  } catch (error) {
    if (run.signal.aborted) throw error;
    // The target's refusal, in its own words (e.g. `Contract "x" input validation failed: ...`).
    if (error instanceof A2AError) return agentToolError(error.message);
    const why = error instanceof Error ? error.message : String(error);
    return agentToolError(`Could not send to "${resolved.agent}": ${why}`);
  }
}
