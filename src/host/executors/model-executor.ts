/**
 * The executor of a model agent (an AgentDefinition with `model` and no `handler`): each message
 * becomes one streamed OpenAI-compatible chat completion whose text is streamed back as the
 * `response` artifact, chunk by chunk (A2A 1.0 §4.2.2 append / lastChunk), then the task completes.
 * With tools (`send_to_agent`, the agent's MCP tools) the model's tool calls are run and their
 * results fed back, round after round, until it answers without calling one.
 */
import type { AgentDefinition } from '../../card/index.js';
import type { AgentExecutor, RequestContext, TaskUpdater } from '../../server/index.js';
import type { Context } from '../../telemetry/index.js';
import { AGENT_TOOL_NAME, resolveAgentTool, runAgentToolCall, type AgentToolOptions } from './agent-tool.js';
import { currentAgentToolSpec } from './agent-tool-remote.js';
import { buildChatMessages, PROGRESS_METADATA_KEY } from './chat-messages.js';
import { ModelRequestError, streamChatCompletion } from './chat-completion-stream.js';
import { coalesceText } from './coalesce-text.js';
import { agentToolError } from './agent-tool-result.js';
import type { ChatTool } from './chat-completion-stream.js';
import type { ChatToolCall } from './chat-messages.js';
import type { McpToolSet } from './mcp-tools.js';
import type { ResolvedModelEndpoint } from './model-endpoint.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';
import { executionTrace, inToolSpan } from './genai-telemetry.js';

/** Options of `createModelExecutor`. */
export interface ModelExecutorOptions {
  /** The fetch to call the endpoint with (default: the global one). */
  fetch?: typeof fetch;
  /**
   * Extra system-prompt text for one request, appended after the definition's prompt; the
   * contracts feature describes the agent's contracts through it. Return undefined for none.
   */
  systemContext?: (context: RequestContext) => string | undefined;
  /** Deltas arriving within this many ms become one artifact chunk (default 20). */
  coalesceMs?: number;
  /**
   * Offers the model the `send_to_agent` tool for these targets (used when the request context
   * has `agents`, i.e. on the host); see docs/decisions/0021-agent-tool.md.
   */
  agentTool?: AgentToolOptions;
  /** The agent's MCP tools, connected (decision 0023). */
  mcpTools?: McpToolSet | undefined;
  /** Rounds of tool calls per message before the task fails (default: agentTool.maxRounds, else 5). */
  maxToolRounds?: number;
}

/** The artifact name model replies are streamed under. */
export const RESPONSE_ARTIFACT_NAME = 'response';

/**
 * The `response` artifact, written chunk by chunk across the rounds of a tool loop: every round's
 * text goes in, in order, a blank line between rounds (decision 0021), and only the final round's
 * last chunk carries `lastChunk: true` (A2A 1.0 §4.2.2).
 */
class ResponseArtifact {
  private artifactId: string | undefined;
  private written = false;
  private roundStarted = false;

  constructor(private readonly updater: TaskUpdater) {}

  /** Writes one batch; `roundEnd` closes the round, `final` the artifact. */
  write(text: string, roundEnd: boolean, final: boolean): void {
    let chunk = text;
    if (chunk !== '' && !this.roundStarted && this.written) chunk = `\n\n${chunk}`;
    if (chunk !== '') this.roundStarted = true;
    if (roundEnd) this.roundStarted = false;
    // Mid-round the coalescer never yields empty batches; an empty last batch of a tool round says nothing.
    if (chunk === '' && !final) return;
    const parts = [{ text: chunk }];
    this.artifactId =
      this.artifactId === undefined
        ? this.updater.addArtifact(parts, { name: RESPONSE_ARTIFACT_NAME, lastChunk: final })
        : this.updater.addArtifact(parts, { artifactId: this.artifactId, append: true, lastChunk: final });
    if (chunk !== '') this.written = true;
  }
}

function where(definition: AgentDefinition): string {
  const { file, line } = definition.source;
  return line === undefined ? file : `${file}:${line}`;
}

/** Builds the executor of a model agent; throws when the definition names no model. */
export function createModelExecutor(
  definition: AgentDefinition,
  endpoint: ResolvedModelEndpoint,
  options: ModelExecutorOptions = {},
): AgentExecutor {
  const name = definition.model?.trim();
  if (name === undefined || name === '') {
    throw new Error(
      `Agent "${definition.id}" (${where(definition)}) has no \`model\`: a model agent needs the model ` +
        'name to send to the chat-completions endpoint (or give it a `handler` instead)',
    );
  }
  const model: string = name;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const coalesceMs = Math.max(0, options.coalesceMs ?? 20);
  const { temperature, maxTokens, systemPrompt } = definition;

  const tool =
    options.agentTool === undefined ? undefined : resolveAgentTool(options.agentTool, definition.id);
  const mcp = options.mcpTools;
  const maxRounds = options.maxToolRounds ?? options.agentTool?.maxRounds ?? 5;
  if (!Number.isInteger(maxRounds) || maxRounds < 1) {
    throw new Error(`Agent "${definition.id}": maxToolRounds must be a positive integer, got ${maxRounds}`);
  }
  const sampling = {
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };

  async function execute(context: RequestContext, updater: TaskUpdater): Promise<void> {
    if (context.signal.aborted) return;
    const messages = buildChatMessages(context, { systemPrompt, extra: options.systemContext?.(context) });
    // The agent tool is offered only when there is someone to send with (a host gives every agent one).
    const agents =
      tool === undefined || context.agents === undefined ? undefined : { tool, agents: context.agents };
    let tools: ChatTool[] = [];
    let names: string[] = [];
    updater.startWork();
    // Our own controller as well as the task's: leaving the loop early (an updater error) must
    // also close the upstream request, not only a cancel.
    const local = new AbortController();
    const signal = AbortSignal.any([context.signal, local.signal]);
    const response = new ResponseArtifact(updater);
    const progress = (text: string): void =>
      updater.startWork(updater.agentMessage(text, { [PROGRESS_METADATA_KEY]: true }));

    // Model and tool calls are traced below the execution (decision 0157).
    const trace = executionTrace(context);

    /** Runs one call of the model's; returns the tool result it reads. */
    function run(call: ChatToolCall): Promise<string> {
      return inToolSpan(call.function.name, call.id, trace, (toolTrace) => runTool(call, toolTrace));
    }

    async function runTool(call: ChatToolCall, toolTrace: Context): Promise<string> {
      const name = call.function.name;
      if (agents !== undefined && name === AGENT_TOOL_NAME) {
        return runAgentToolCall(call, {
          ...agents,
          taskId: context.taskId,
          signal,
          announce: (agent) => progress(`Asking ${agent}`),
          trace: toolTrace,
        });
      }
      if (mcp?.has(name) === true) {
        progress(`Using ${name} (MCP server ${mcp.serverOf(name)})`);
        return mcp.call(call, signal);
      }
      const offered =
        names.length === 1 ? `the only tool is ${names[0]}` : `the tools are ${names.join(', ')}`;
      return agentToolError(`Unknown tool "${name}": ${offered}`);
    }

    try {
      // Remote targets are described from their cards when the tool is offered (decision 0031).
      const agentSpec =
        agents === undefined ? undefined : await currentAgentToolSpec(agents.tool, agents.agents, signal);
      tools = [...(agentSpec === undefined ? [] : [agentSpec]), ...(mcp?.specs ?? [])];
      names = tools.map((t) => t.function.name);
      for (let round = 0; ; round++) {
        const toolCalls = tools.length === 0 ? undefined : new ToolCallAccumulator();
        const deltas = streamChatCompletion(
          endpoint,
          { model, messages, ...sampling, ...(tools.length === 0 ? {} : { tools }) },
          { fetch: fetchImpl, signal, toolCalls, trace },
        );
        let said = '';
        for await (const batch of coalesceText(deltas, coalesceMs)) {
          said += batch.text;
          // The stream has ended when the last batch comes, so its tool calls are all known.
          const final = batch.last && (toolCalls?.size ?? 0) === 0;
          response.write(batch.text, batch.last, final);
        }
        const calls = toolCalls?.calls() ?? [];
        if (calls.length === 0) break;
        if (round === maxRounds) {
          const called = [...new Set(calls.map((c) => c.function.name))].join(', ');
          updater.fail(
            `The tool loop did not end: the model still called ${called} after ` +
              `${maxRounds} rounds of tool calls`,
          );
          return;
        }
        messages.push({ role: 'assistant', content: said === '' ? null : said, tool_calls: calls });
        for (const call of calls) {
          messages.push({ role: 'tool', tool_call_id: call.id, content: await run(call) });
        }
      }
    } catch (error) {
      // Canceled: Concord has already recorded the cancellation; nothing more may be said.
      if (context.signal.aborted) return;
      if (error instanceof ModelRequestError) {
        updater.fail(error.message);
        return;
      }
      throw error;
    } finally {
      local.abort();
    }
    updater.complete();
  }

  return { execute };
}
