/**
 * The agent's own work, traced with the OpenTelemetry GenAI conventions (decision 0157): a CLIENT
 * span `chat {model}` per model call with its token usage, and an INTERNAL span
 * `execute_tool {tool}` per tool call, both below the execution of the message that caused them.
 * Model calls also feed `gen_ai.client.operation.duration` and `gen_ai.client.token.usage`.
 * Without an SDK the spans record nothing and no attribute is built.
 */
import type { RequestContext } from '../../server/index.js';
import {
  activeContext,
  ATTR,
  endSpan,
  errorType,
  inSpan,
  instruments,
  METRIC_ATTR,
  runWithin,
  SPAN,
  SpanKind,
  startSpan,
  withSpan,
  type Attributes,
  type Context,
} from '../../telemetry/index.js';
import { OPENAI_BASE_URL, type ResolvedModelEndpoint } from './model-endpoint.js';

/**
 * The trace context of the execution serving `context`: the execution's own (`invoke_agent`,
 * `RequestContext.trace` as the server's task runner sets it), else the operation's, else
 * whatever a context manager has active (a context built outside Concord's runner).
 */
export function executionTrace(context: RequestContext): Context {
  return context.trace ?? context.call.trace ?? activeContext();
}

/** What a model's answer reported about itself, as it streams in. */
export interface ChatAnswerFacts {
  responseModel?: string | undefined;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}

/** Reads the answering model and the usage from a completion or one of its chunks. */
export function noteAnswer(event: Record<string, unknown>, facts: ChatAnswerFacts): void {
  if (typeof event.model === 'string' && event.model !== '') facts.responseModel = event.model;
  const usage = event.usage;
  if (typeof usage !== 'object' || usage === null) return;
  const { prompt_tokens: input, completion_tokens: output } = usage as Record<string, unknown>;
  if (typeof input === 'number') facts.inputTokens = input;
  if (typeof output === 'number') facts.outputTokens = output;
}

/** One model call in progress. */
export interface ChatCall {
  readonly facts: ChatAnswerFacts;
  end(error?: unknown): void;
}

/** Starts the `chat {model}` span of one call to `endpoint`. */
export function startChat(
  endpoint: ResolvedModelEndpoint,
  model: string,
  parent: Context | undefined,
): ChatCall {
  const span = startSpan(SPAN.chat(model), SpanKind.CLIENT, parent ?? activeContext());
  const started = performance.now();
  const facts: ChatAnswerFacts = {};
  // Built once, and only when a span or a meter will take them (the endpoint's URL is parsed).
  let known: Attributes | undefined;
  const base = (): Attributes => (known ??= chatAttributes(endpoint, model));
  if (span.isRecording()) span.setAttributes(base());
  return {
    facts,
    end(error) {
      if (span.isRecording()) {
        if (facts.responseModel !== undefined) span.setAttribute(ATTR.responseModel, facts.responseModel);
        if (facts.inputTokens !== undefined) span.setAttribute(ATTR.inputTokens, facts.inputTokens);
        if (facts.outputTokens !== undefined) span.setAttribute(ATTR.outputTokens, facts.outputTokens);
      }
      const meters = instruments();
      if (meters.on) {
        const attributes: Attributes = { ...base() };
        if (facts.responseModel !== undefined) attributes[ATTR.responseModel] = facts.responseModel;
        if (error !== undefined) attributes[ATTR.errorType] = errorType(error);
        meters.modelDuration.record((performance.now() - started) / 1000, attributes);
        if (facts.inputTokens !== undefined)
          meters.modelTokens.record(facts.inputTokens, { ...attributes, [METRIC_ATTR.tokenType]: 'input' });
        if (facts.outputTokens !== undefined)
          meters.modelTokens.record(facts.outputTokens, { ...attributes, [METRIC_ATTR.tokenType]: 'output' });
      }
      endSpan(span, error, SpanKind.CLIENT);
    },
  };
}

const OPENAI_HOST = new URL(OPENAI_BASE_URL).hostname;

function chatAttributes(endpoint: ResolvedModelEndpoint, model: string): Attributes {
  const url = new URL(endpoint.baseUrl);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return {
    [ATTR.genAiOperation]: 'chat',
    // Any OpenAI-compatible server may answer; only OpenAI's own is known to be OpenAI
    // (`_OTHER` is the conventions' value for a provider they do not list).
    [ATTR.genAiProvider]: url.hostname === OPENAI_HOST ? 'openai' : '_OTHER',
    [ATTR.requestModel]: model,
    [ATTR.serverAddress]: url.hostname,
    [ATTR.serverPort]: port,
  };
}

/**
 * Runs one tool call of the model's in an `execute_tool {tool}` span. The tools Concord runs for
 * a model (MCP tools, `send_to_agent`) are all functions it calls on the model's behalf.
 */
export function inToolSpan<T>(
  tool: string,
  callId: string,
  parent: Context,
  run: (trace: Context) => Promise<T>,
): Promise<T> {
  const attributes = (): Attributes => ({
    [ATTR.genAiOperation]: 'execute_tool',
    [ATTR.toolName]: tool,
    [ATTR.toolCallId]: callId,
    [ATTR.toolType]: 'function',
  });
  return inSpan(SPAN.executeTool(tool), parent, attributes, (span) => {
    const trace = withSpan(parent, span);
    // Active too, for a context manager: libraries the tool uses see the span.
    return runWithin(trace, () => run(trace));
  });
}
