/**
 * Model agents through the front door: an A2A server on a real socket runs the model executor,
 * which calls the OpenAI-compatible stub on another real socket.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../../src/card/index.js';
import {
  createModelExecutor,
  resolveModelEndpoint,
  type ModelExecutorOptions,
} from '../../../src/host/executors/index.js';
import { listen } from '../../../src/server/adapters/node.js';
import { createA2AServer } from '../../../src/server/index.js';
import { startOpenAiStub, type OpenAiStub, type OpenAiStubOptions } from '../../helpers/openai-stub.js';
import { readSse } from '../../helpers/sse-client.js';

const SECRET = 'sk-test-secret-key-1234';

/** `extra` overrides the defaults; a key given as undefined leaves that field unset. */
type Overrides = { [K in keyof AgentDefinition]?: AgentDefinition[K] | undefined };

function definition(extra: Overrides = {}): AgentDefinition {
  const def: AgentDefinition = {
    id: 'writer',
    name: 'Writer',
    description: 'Writes things',
    version: '1.0.0',
    exposed: true,
    systemPrompt: 'You are a careful writer.',
    model: 'stub-model-1',
    temperature: 0.25,
    maxTokens: 64,
    tags: [],
    skills: [],
    a2a: { allowFreeform: true, contracts: {} },
    card: {},
    source: { file: '/agents/writer.md', line: 1 },
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete (def as Partial<AgentDefinition>)[key as keyof AgentDefinition];
    else Object.assign(def, { [key]: value });
  }
  return def;
}

const card = {
  name: 'Writer',
  description: 'Writes things',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'write', name: 'Write', description: 'Writes', tags: ['text'] }],
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  stub: OpenAiStub;
  url: string;
  errors: unknown[];
  rpc(method: string, params: unknown): Promise<Record<string, unknown>>;
}

async function setup(
  stubOptions: OpenAiStubOptions = {},
  def: Overrides = {},
  executorOptions: ModelExecutorOptions = {},
): Promise<Setup> {
  const stub = await startOpenAiStub(stubOptions);
  cleanups.push(() => stub.close());
  const endpoint = resolveModelEndpoint({ baseUrl: stub.url, apiKey: SECRET }, {});
  const errors: unknown[] = [];
  const server = createA2AServer({
    agentCard: card,
    executor: createModelExecutor(definition(def), endpoint, executorOptions),
    onError: (e) => errors.push(e),
  });
  const running = await listen(server, { port: 0, host: '127.0.0.1' });
  cleanups.push(() => running.close());
  let id = 0;
  return {
    stub,
    url: running.url,
    errors,
    async rpc(method, params) {
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      });
      return (await response.json()) as Record<string, unknown>;
    },
  };
}

const send = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
});

interface WireTask {
  id: string;
  status: { state: string; message?: { parts: { text?: string }[] } };
  artifacts?: { name?: string; parts: { text?: string }[] }[];
  history?: unknown[];
}

const taskOf = (json: Record<string, unknown>): WireTask => (json.result as { task: WireTask }).task;
const artifactText = (task: WireTask): string =>
  (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');
const statusText = (task: WireTask): string =>
  (task.status.message?.parts ?? []).map((p) => p.text ?? '').join('');

describe('model executor', () => {
  it('answers a blocking send with a completed task whose artifact is the whole reply', async () => {
    const { rpc, stub } = await setup({ tokens: ['The', ' answer', ' is', ' 42.'] });
    const task = taskOf(await rpc('SendMessage', send('What is the answer?')));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts![0]!.name).toBe('response');
    expect(artifactText(task)).toBe('The answer is 42.');

    expect(stub.requests).toHaveLength(1);
    const request = stub.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request.body).toEqual({
      model: 'stub-model-1',
      stream: true,
      temperature: 0.25,
      max_tokens: 64,
      messages: [
        { role: 'system', content: 'You are a careful writer.' },
        { role: 'user', content: 'What is the answer?' },
      ],
    });
  });

  it('omits what the definition leaves unset and appends the systemContext hook', async () => {
    const { rpc, stub } = await setup(
      {},
      { temperature: undefined, maxTokens: undefined, systemPrompt: '' },
      { systemContext: (context) => `Task ${context.taskId} accepts contract "quote".` },
    );
    const task = taskOf(await rpc('SendMessage', send('hi')));
    const body = stub.requests[0]!.body!;
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.messages).toEqual([
      { role: 'system', content: `Task ${task.id} accepts contract "quote".` },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('sends data parts as JSON text', async () => {
    const { rpc, stub } = await setup();
    await rpc('SendMessage', {
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'Price this:' }, { data: { vin: 'WVW123', miles: 42000 } }],
      },
    });
    const messages = stub.requests[0]!.body!.messages as { content: string }[];
    expect(messages.at(-1)!.content).toBe('Price this:\n\n{"vin":"WVW123","miles":42000}');
  });

  it('streams the reply as artifact chunks with append and lastChunk, then completes', async () => {
    const { url } = await setup({ tokens: ['one ', 'two ', 'three ', 'four'], delayMs: 60 });
    const read = await readSse(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: send('count') }),
    });
    const results = read.events.map(
      (e) => (JSON.parse(e.data) as { result: Record<string, unknown> }).result,
    );
    const chunks = results
      .filter((r) => 'artifactUpdate' in r)
      .map(
        (r) =>
          r.artifactUpdate as {
            append?: boolean;
            lastChunk?: boolean;
            artifact: { artifactId: string; name?: string; parts: { text: string }[] };
          },
      );
    // 60 ms between tokens is beyond the 20 ms window: several chunks, not one.
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks[0]!.append).toBeUndefined();
    expect(chunks[0]!.artifact.name).toBe('response');
    expect(chunks.slice(1).every((c) => c.append === true)).toBe(true);
    expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
    expect(chunks.map((c) => c.lastChunk === true)).toEqual(chunks.map((_, i) => i === chunks.length - 1));
    expect(chunks.map((c) => c.artifact.parts[0]!.text).join('')).toBe('one two three four');

    const states = results
      .filter((r) => 'statusUpdate' in r)
      .map((r) => (r.statusUpdate as { status: { state: string } }).status.state);
    expect(states[0]).toBe('TASK_STATE_WORKING');
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(read.closedByServer).toBe(true);
  });

  it('coalesces tokens that arrive together into one chunk', async () => {
    const tokens = Array.from({ length: 50 }, (_, i) => `t${i} `);
    const { url } = await setup({ tokens });
    const read = await readSse(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: send('go') }),
    });
    const chunks = read.events
      .map((e) => (JSON.parse(e.data) as { result: Record<string, unknown> }).result)
      .filter((r) => 'artifactUpdate' in r);
    expect(chunks).toHaveLength(1);
  });

  it('fails the task naming the upstream status and message, never the API key', async () => {
    const { rpc } = await setup({
      errorStatus: 500,
      errorBody: { error: { message: `The server had an error (key ${SECRET})`, type: 'server_error' } },
    });
    const task = taskOf(await rpc('SendMessage', send('hi')));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    const text = statusText(task);
    expect(text).toContain('HTTP 500');
    expect(text).toContain('The server had an error');
    expect(JSON.stringify(task)).not.toContain(SECRET);
  });

  it('fails the task on a malformed stream', async () => {
    const { rpc } = await setup({ malformed: true });
    const task = taskOf(await rpc('SendMessage', send('hi')));
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toMatch(/malformed stream event/);
  });

  it('fails the task when the endpoint cannot be reached', async () => {
    const stub = await startOpenAiStub();
    const baseUrl = stub.url;
    await stub.close();
    const server = createA2AServer({
      agentCard: card,
      executor: createModelExecutor(definition(), resolveModelEndpoint({ baseUrl }, {})),
    });
    const running = await listen(server, { port: 0, host: '127.0.0.1' });
    cleanups.push(() => running.close());
    const response = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: send('hi') }),
    });
    const task = taskOf((await response.json()) as Record<string, unknown>);
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toContain(`Could not reach the model endpoint ${baseUrl}`);
  });

  it('accepts a server that ignores stream: true and answers with one JSON completion', async () => {
    const { rpc } = await setup({ json: true, tokens: ['whole', ' reply'] });
    const task = taskOf(await rpc('SendMessage', send('hi')));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(task)).toBe('whole reply');
  });

  it('CancelTask aborts the upstream request', async () => {
    const { rpc, stub } = await setup({ hang: true });
    const first = taskOf(
      await rpc('SendMessage', { ...send('write forever'), configuration: { returnImmediately: true } }),
    );
    // Wait until the model call is in flight before canceling.
    for (let i = 0; i < 100 && stub.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stub.requests).toHaveLength(1);
    const canceled = await rpc('CancelTask', { id: first.id });
    expect((canceled.result as WireTask).status.state).toBe('TASK_STATE_CANCELED');
    await stub.disconnected();
    const after = (await rpc('GetTask', { id: first.id })).result as WireTask;
    expect(after.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('sends the task history as user and assistant turns on a follow-up', async () => {
    const stub = await startOpenAiStub({ tokens: ['A blue one.'] });
    cleanups.push(() => stub.close());
    const model = createModelExecutor(definition(), resolveModelEndpoint({ baseUrl: stub.url }, {}));
    // A host-side step asks a question first; the model then answers the follow-up with the
    // whole exchange in view.
    const server = createA2AServer({
      agentCard: card,
      executor: {
        execute: (context, updater) =>
          context.isNewTask ? updater.requireInput('Which colour?') : model.execute(context, updater),
      },
    });
    const running = await listen(server, { port: 0, host: '127.0.0.1' });
    cleanups.push(() => running.close());
    const call = async (params: unknown) => {
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params }),
      });
      return taskOf((await response.json()) as Record<string, unknown>);
    };
    const asked = await call(send('Paint my car'));
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const done = await call(
      send('Something calm', { taskId: asked.id, contextId: (asked as { contextId?: string }).contextId }),
    );
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(stub.requests[0]!.body!.messages).toEqual([
      { role: 'system', content: 'You are a careful writer.' },
      { role: 'user', content: 'Paint my car' },
      { role: 'assistant', content: 'Which colour?' },
      { role: 'user', content: 'Something calm' },
    ]);
    expect(stub.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe('resolveModelEndpoint', () => {
  it('takes the config first, then OPENAI_BASE_URL and OPENAI_API_KEY', () => {
    expect(resolveModelEndpoint({ baseUrl: 'http://localhost:8080/v1/', apiKey: 'k1' }, {})).toEqual({
      baseUrl: 'http://localhost:8080/v1',
      apiKey: 'k1',
    });
    expect(
      resolveModelEndpoint({}, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_API_KEY: 'k2' }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'k2' });
    expect(resolveModelEndpoint({}, { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
  });

  it('uses the official endpoint only when a key is set and no base URL is', () => {
    expect(resolveModelEndpoint({}, { OPENAI_API_KEY: 'sk-x' })).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
    });
  });

  it('fails at start with the settings to fix when nothing is configured', () => {
    expect(() => resolveModelEndpoint({}, {})).toThrow(/model\.baseUrl.*OPENAI_BASE_URL.*OPENAI_API_KEY/s);
    expect(() => resolveModelEndpoint({ baseUrl: '  ' }, { OPENAI_BASE_URL: '' })).toThrow(
      /No model endpoint/,
    );
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => resolveModelEndpoint({ baseUrl: 'not a url' }, {})).toThrow(
      /`model.baseUrl`.*not a valid URL/,
    );
    expect(() => resolveModelEndpoint({}, { OPENAI_BASE_URL: 'ftp://x/v1' })).toThrow(
      /OPENAI_BASE_URL must be an http/,
    );
  });

  it('refuses a model agent without a model name', () => {
    const endpoint = { baseUrl: 'http://127.0.0.1:1/v1' };
    expect(() => createModelExecutor(definition({ model: undefined }), endpoint)).toThrow(
      /Agent "writer" \(\/agents\/writer\.md:1\) has no `model`/,
    );
  });
});
