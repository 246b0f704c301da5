/**
 * The host's agents traced end to end (decision 0157), on real sockets: a host whose model agents
 * call a fake OpenAI-compatible server (it reports the answering model and token usage) and an
 * MCP server over streamable HTTP. Each model call is a `chat {model}` CLIENT span with its usage
 * and the GenAI metrics; each tool call an `execute_tool {tool}` span; an in-process send from the
 * coordinator to the researcher is a CLIENT span with a SERVER span below it, under which the
 * researcher's own model call is traced, all in one trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { A2AClient, CardCache } from '../../src/client/index.js';
import { startHost, type RunningHost } from '../../src/host/index.js';
import type { Message, Task } from '../../src/protocol/index.js';
import { ATTR, IN_PROCESS_BINDING, METRIC, METRIC_ATTR } from '../../src/telemetry/index.js';
import { registerSdk } from './test-sdk.js';

const sdk = registerSdk({ contextManager: true });
const RESPONSE_MODEL = 'fake-model-2026-01';

type Json = Record<string, unknown>;
type Reply = { text: string } | { tool: string; args: Json };

/**
 * An OpenAI-compatible chat-completions server: streams the reply `respond` picks, each chunk
 * naming the answering model, the last one with the usage (as `stream_options.include_usage`
 * servers send it).
 */
async function fakeOpenAi(respond: (body: Json) => Reply): Promise<{ url: string; close(): Promise<void> }> {
  let calls = 0;
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const reply = respond(JSON.parse(raw) as Json);
      const id = `chatcmpl-${++calls}`;
      const chunk = (delta: Json, finish: string | null, extra: Json = {}): string =>
        `data: ${JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          model: RESPONSE_MODEL,
          choices: [{ index: 0, delta, finish_reason: finish }],
          ...extra,
        })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if ('text' in reply) {
        response.write(chunk({ role: 'assistant', content: reply.text }, null));
        response.write(chunk({}, 'stop'));
      } else {
        const call = {
          index: 0,
          id: `call_${calls}`,
          type: 'function',
          function: { name: reply.tool, arguments: JSON.stringify(reply.args) },
        };
        response.write(chunk({ role: 'assistant', tool_calls: [call] }, null));
        response.write(chunk({}, 'tool_calls'));
      }
      response.write(
        `data: ${JSON.stringify({ id, model: RESPONSE_MODEL, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } })}\n\n`,
      );
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((up) => server.listen(0, '127.0.0.1', up));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((down) => server.close(() => down())),
  };
}

/** A stateless streamable HTTP MCP server with one `lookup` tool. */
async function mcpServer(): Promise<{ url: string; close(): Promise<void> }> {
  const http: HttpServer = createServer((req, res) => {
    const server = new Server({ name: 'search', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'lookup',
          description: 'Looks a query up',
          inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, ({ params }) => ({
      content: [{ type: 'text', text: `results for ${String(params.arguments?.query)}` }],
    }));
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((up) => http.listen(0, '127.0.0.1', up));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((down) => {
        http.closeAllConnections();
        http.close(() => down());
      }),
  };
}

/** The model: tool results are answered; otherwise each agent does its one thing. */
function respond(body: Json): Reply {
  const messages = body.messages as { role: string; content: string | null }[];
  if (messages.at(-1)?.role === 'tool') return { text: 'Done.' };
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  if (system.includes('the searcher')) return { tool: 'lookup', args: { query: 'a2a' } };
  if (system.includes('the coordinator'))
    return { tool: 'send_to_agent', args: { agent: 'researcher', text: 'What do you know?' } };
  return { text: 'Tides follow the moon.' };
}

const cleanups: (() => Promise<void> | void)[] = [];
let running: RunningHost;

beforeAll(async () => {
  const openAi = await fakeOpenAi(respond);
  cleanups.push(() => openAi.close());
  const mcp = await mcpServer();
  cleanups.push(() => mcp.close());
  const dir = mkdtempSync(join(tmpdir(), 'concord-genai-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const agent = (name: string, extra = ''): string =>
    `---\nname: ${name}\nexposed: true\ndescription: The ${name}.\nmodel: m\n${extra}---\nYou are the ${name}.\n`;
  writeFileSync(
    join(dir, 'concord.config.json5'),
    JSON.stringify({ mcpServers: { search: { url: `${mcp.url}mcp` } } }),
  );
  writeFileSync(join(dir, 'searcher.md'), agent('searcher', 'mcpServers:\n  search: [lookup]\n'));
  writeFileSync(join(dir, 'coordinator.md'), agent('coordinator'));
  writeFileSync(join(dir, 'researcher.md'), agent('researcher'));
  running = await startHost(dir, { store: 'memory', env: { OPENAI_BASE_URL: openAi.url } });
  cleanups.push(() => running.close());
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function ask(agent: string, text: string): Promise<Task> {
  const client = await A2AClient.connect(`${running.url}agents/${agent}/`, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
  });
  try {
    const message: Message = { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] };
    // A caller's span, so the host receives a traceparent (its SERVER span, when traced, goes under it).
    const parent = trace.getTracer('test').startSpan('caller', {}, ROOT_CONTEXT);
    const response = await client.sendMessage({ message }, { trace: trace.setSpan(ROOT_CONTEXT, parent) });
    parent.end();
    if (!('task' in response)) throw new Error('expected a task');
    return response.task;
  } finally {
    client.close();
  }
}

const childOf = (span: ReadableSpan, parent: ReadableSpan): void => {
  expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
  expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
};

describe('a model agent with an MCP tool', () => {
  it('traces each model call as chat {model} with its usage, and the tool call as execute_tool', async () => {
    sdk.exporter.reset();
    // Straight to the agent's handler with a call trace context, as a binding hands it over.
    const parent = trace.getTracer('test').startSpan('operation', {}, ROOT_CONTEXT);
    const handler = running.host.mounted.get('searcher')!.server.handler;
    const message: Message = {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text: 'look up a2a' }],
    };
    const response = await handler.sendMessage(
      { message },
      { version: '1.0', tenant: '', activatedExtensions: [], trace: trace.setSpan(ROOT_CONTEXT, parent) },
    );
    parent.end();
    expect('task' in response && response.task.status.state).toBe('TASK_STATE_COMPLETED');

    const spans = await sdk.spans();
    const chats = spans.filter((s) => s.name === 'chat m');
    expect(chats).toHaveLength(2);
    const port = Number(new URL(running.url).port);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.attributes).toMatchObject({
        [ATTR.genAiOperation]: 'chat',
        [ATTR.genAiProvider]: '_OTHER',
        [ATTR.requestModel]: 'm',
        [ATTR.responseModel]: RESPONSE_MODEL,
        [ATTR.inputTokens]: 11,
        [ATTR.outputTokens]: 7,
        [ATTR.serverAddress]: '127.0.0.1',
      });
      expect(chat.attributes[ATTR.serverPort]).not.toBe(port);
    }
    const tool = await sdk.span('execute_tool lookup', SpanKind.INTERNAL);
    expect(tool.attributes).toMatchObject({
      [ATTR.toolName]: 'lookup',
      [ATTR.toolCallId]: 'call_1',
      [ATTR.toolType]: 'function',
    });
    // The tool runs between the two model calls, under the same execution, in the call's trace.
    for (const span of [tool, ...chats]) {
      expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(chats[0]!.parentSpanContext?.spanId);
    }
  });

  it('records gen_ai.client.operation.duration and gen_ai.client.token.usage by token type', async () => {
    const durations = await sdk.points(METRIC.modelDuration.name);
    expect(durations.length).toBeGreaterThan(0);
    expect(durations[0]!.attributes).toMatchObject({
      [ATTR.genAiOperation]: 'chat',
      [ATTR.requestModel]: 'm',
      [ATTR.responseModel]: RESPONSE_MODEL,
    });
    const tokens = await sdk.points(METRIC.modelTokens.name);
    const byType = new Map(tokens.map((p) => [p.attributes[METRIC_ATTR.tokenType], p.value]));
    expect(byType.get('input')).toMatchObject({ count: 2, sum: 22 });
    expect(byType.get('output')).toMatchObject({ count: 2, sum: 14 });
  });
});

describe('an in-process send from one host agent to another', () => {
  it('is a CLIENT span under the tool call, a SERVER span for the target, and the target traced below', async () => {
    sdk.exporter.reset();
    const task = await ask('coordinator', 'What is known about tides?');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');

    const spans = await sdk.spans();
    const tool = await sdk.span('execute_tool send_to_agent', SpanKind.INTERNAL);
    // By binding: the caller's own SendMessage (and, once bindings trace, the host's) are JSONRPC.
    const inProcess = (kind: SpanKind): ReadableSpan | undefined =>
      spans.find(
        (s) =>
          s.name === 'SendMessage' && s.kind === kind && s.attributes[ATTR.binding] === IN_PROCESS_BINDING,
      );
    const client = inProcess(SpanKind.CLIENT);
    const server = inProcess(SpanKind.SERVER);
    expect(client).toBeDefined();
    expect(server).toBeDefined();
    childOf(client!, tool);
    childOf(server!, client!);
    for (const span of [client!, server!]) {
      expect(span.attributes).toMatchObject({
        [ATTR.method]: 'SendMessage',
        [ATTR.binding]: IN_PROCESS_BINDING,
        [ATTR.protocolVersion]: '1.0',
        [ATTR.agentName]: 'researcher',
      });
    }
    // The researcher's model call is traced below the SERVER span (through its call.trace).
    const below = (span: ReadableSpan, ancestor: ReadableSpan): boolean => {
      for (let at: ReadableSpan | undefined = span; at?.parentSpanContext !== undefined;) {
        if (at.parentSpanContext.spanId === ancestor.spanContext().spanId) return true;
        const parentId: string = at.parentSpanContext.spanId;
        at = spans.find((s) => s.spanContext().spanId === parentId);
      }
      return false;
    };
    const researcherChats = spans.filter((s) => s.name === 'chat m' && below(s, server!));
    expect(researcherChats).toHaveLength(1);
    expect(researcherChats[0]!.spanContext().traceId).toBe(tool.spanContext().traceId);
    // Once the host's bindings trace their SERVER spans (extracting traceparent), the whole chain,
    // from the caller down to the researcher's model call, is the caller's one trace.
    const caller = spans.find((s) => s.name === 'caller')!;
    if (spans.some((s) => s.kind === SpanKind.SERVER && s.attributes[ATTR.binding] === 'JSONRPC')) {
      for (const span of [tool, client!, server!, ...researcherChats])
        expect(span.spanContext().traceId).toBe(caller.spanContext().traceId);
    }
  });
});
