/**
 * One streaming call to an OpenAI-compatible `POST /chat/completions`, with plain fetch: it yields
 * the reply's text deltas as they arrive and turns every way the call can go wrong into a
 * ModelRequestError whose message is safe to show a client (HTTP status and the provider's own
 * error text, never the API key). See docs/decisions/0013-model-executor.md "Error mapping".
 */
import { SseDecoder } from '../../protocol/internal.js';
import type { ChatMessage } from './chat-messages.js';
import { displayEndpoint, type ResolvedModelEndpoint } from './model-endpoint.js';
import { ToolCallDeltaError, type ToolCallAccumulator } from './tool-call-accumulator.js';
import type { Context } from '../../telemetry/index.js';
import { noteAnswer, startChat, type ChatAnswerFacts } from './genai-telemetry.js';

/** A function the model may call (OpenAI `tools[]` entry). */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The parts of a chat-completions request Concord sets. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /** Sent only when non-empty: some compatible servers reject an empty list. */
  tools?: ChatTool[];
}

/** How to make the call. */
export interface ChatCallOptions {
  fetch: typeof fetch;
  /** Aborts the upstream request (task canceled, or the executor gave up). */
  signal: AbortSignal;
  /** Receives the reply's tool calls; without it they are ignored (no tools were offered). */
  toolCalls?: ToolCallAccumulator | undefined;
  /** The trace context the call's `chat {model}` span goes under (decision 0157); default the active one. */
  trace?: Context | undefined;
}

/** The model call failed; `message` is meant for the task's status message. */
export class ModelRequestError extends Error {
  override readonly name = 'ModelRequestError';
  /** The upstream HTTP status, when there was a response. */
  readonly status: number | undefined;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
  }
}

/** Error bodies are read only this far: enough for any provider's message, bounded for memory. */
const ERROR_BODY_LIMIT = 64 * 1024;

async function readLimited(response: Response, limit: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, limit);
}

/** The provider's own words from an error body: OpenAI `{error:{message}}` and common variants. */
function providerMessage(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const text = body.replace(/\s+/g, ' ').trim();
    return text === '' ? undefined : text.slice(0, 300);
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const o = parsed as Record<string, unknown>;
  const error = o.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  for (const key of ['message', 'detail']) if (typeof o[key] === 'string') return o[key];
  return undefined;
}

/** Some providers echo the key they rejected; it must never reach a task's history. */
function redact(text: string, apiKey: string | undefined): string {
  return apiKey === undefined || apiKey === '' ? text : text.split(apiKey).join('[redacted]');
}

function requestBody(request: ChatCompletionRequest): string {
  const body: Record<string, unknown> = { model: request.model, messages: request.messages, stream: true };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.tools !== undefined && request.tools.length > 0) body.tools = request.tools;
  return JSON.stringify(body);
}

async function send(
  endpoint: ResolvedModelEndpoint,
  request: ChatCompletionRequest,
  options: ChatCallOptions,
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream, application/json',
  };
  if (endpoint.apiKey !== undefined) headers.authorization = `Bearer ${endpoint.apiKey}`;
  let response: Response;
  try {
    response = await options.fetch(`${endpoint.baseUrl}/chat/completions`, {
      method: 'POST',
      headers,
      body: requestBody(request),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why = typeof cause?.code === 'string' ? cause.code : String(cause?.message ?? error);
    throw new ModelRequestError(
      `Could not reach the model endpoint ${displayEndpoint(endpoint)}: ${redact(why, endpoint.apiKey)}`,
      { cause: error },
    );
  }
  if (!response.ok) {
    const said = providerMessage(await readLimited(response, ERROR_BODY_LIMIT));
    const status = `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
    throw new ModelRequestError(
      redact(`Model endpoint returned ${status}${said === undefined ? '' : `: ${said}`}`, endpoint.apiKey),
      { status: response.status },
    );
  }
  return response;
}

/** The text of one `chat.completion.chunk` (or, for a non-streamed answer, of the whole reply). */
function chunkText(event: Record<string, unknown>, key: 'delta' | 'message'): string | undefined {
  const choices = event.choices;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  const choice = choices[0] as Record<string, unknown> | undefined;
  const part = choice?.[key] as Record<string, unknown> | undefined;
  // A refusal is what the model answered: the user should see it, not an empty reply.
  const text = part?.content ?? part?.refusal;
  return typeof text === 'string' ? text : undefined;
}

/** Feeds `choices[0][key].tool_calls` to the accumulator, as a ModelRequestError when unreadable. */
function collectToolCalls(
  event: Record<string, unknown>,
  key: 'delta' | 'message',
  into: ToolCallAccumulator | undefined,
): void {
  if (into === undefined || !Array.isArray(event.choices)) return;
  const part = (event.choices[0] as Record<string, unknown> | undefined)?.[key];
  if (typeof part !== 'object' || part === null) return;
  try {
    into.add((part as Record<string, unknown>).tool_calls);
  } catch (error) {
    if (!(error instanceof ToolCallDeltaError)) throw error;
    throw new ModelRequestError(`Model endpoint sent an unreadable tool call: ${error.message}`);
  }
}

function parseEvent(data: string, apiKey: string | undefined): Record<string, unknown> {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    throw new ModelRequestError(
      `Model endpoint sent a malformed stream event (not JSON): ${redact(data.slice(0, 120), apiKey)}`,
    );
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new ModelRequestError(
      `Model endpoint sent a stream event that is not an object: ${data.slice(0, 120)}`,
    );
  }
  const o = event as Record<string, unknown>;
  if (o.error !== undefined) {
    const said = providerMessage(JSON.stringify({ error: o.error })) ?? 'no details';
    throw new ModelRequestError(redact(`Model endpoint reported an error mid-stream: ${said}`, apiKey));
  }
  return o;
}

/**
 * Calls the endpoint and yields text deltas until the reply ends (`data: [DONE]`, or the body
 * ends after a `finish_reason`). A server that ignores `stream: true` and answers with one JSON
 * completion is accepted too: its text is yielded once. Tool calls go to `options.toolCalls`.
 */
export async function* streamChatCompletion(
  endpoint: ResolvedModelEndpoint,
  request: ChatCompletionRequest,
  options: ChatCallOptions,
): AsyncGenerator<string, void, undefined> {
  // One `chat {model}` span per call, over the whole stream (GenAI conventions, decision 0157).
  const chat = startChat(endpoint, request.model, options.trace);
  let failure: unknown;
  try {
    yield* streamReply(endpoint, request, options, chat.facts);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    chat.end(failure);
  }
}

async function* streamReply(
  endpoint: ResolvedModelEndpoint,
  request: ChatCompletionRequest,
  options: ChatCallOptions,
  facts: ChatAnswerFacts,
): AsyncGenerator<string, void, undefined> {
  const response = await send(endpoint, request, options);
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    const completion = parseEvent(await response.text(), endpoint.apiKey);
    noteAnswer(completion, facts);
    collectToolCalls(completion, 'message', options.toolCalls);
    const text = chunkText(completion, 'message');
    // A reply that only calls tools has `content: null`; it is still a whole answer.
    if (text === undefined && (options.toolCalls?.size ?? 0) === 0) {
      throw new ModelRequestError('Model endpoint answered without choices[0].message');
    }
    if (text !== undefined) yield text;
    return;
  }
  if (!type.startsWith('text/event-stream') || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    throw new ModelRequestError(
      `Model endpoint answered with content type ${JSON.stringify(type)} instead of text/event-stream`,
    );
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const sse = new SseDecoder();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of sse.push(decoder.decode(value, { stream: true }))) {
        if (event.data.trim() === '[DONE]') return;
        const chunk = parseEvent(event.data, endpoint.apiKey);
        noteAnswer(chunk, facts);
        collectToolCalls(chunk, 'delta', options.toolCalls);
        const text = chunkText(chunk, 'delta');
        if (text !== undefined && text !== '') yield text;
        const choice = (chunk.choices as Record<string, unknown>[] | undefined)?.[0];
        if (typeof choice?.finish_reason === 'string') finished = true;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  // Some compatible servers end the body without `[DONE]`; a finish_reason shows the reply is whole.
  if (!finished) {
    throw new ModelRequestError('Model endpoint closed the stream before the reply finished (no [DONE])');
  }
}
