/**
 * The `send_to_agent` tool through the front door: a model agent's A2A server on a real socket
 * calls the OpenAI-compatible stub (another real socket), which scripts tool calls; the calls go
 * through the host's agent sender to a second A2A server with typed contracts, so its contract
 * gate's refusals come back to the model as tool results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../../../src/card/index.js';
import { compileContracts } from '../../../src/contracts/index.js';
import { createAgentSender } from '../../../src/host/agent-sender.js';
import {
  agentToolTargets,
  createModelExecutor,
  resolveModelEndpoint,
  type AgentToolOptions,
} from '../../../src/host/executors/index.js';
import { listen } from '../../../src/server/adapters/node.js';
import { createA2AServer, type RequestContext } from '../../../src/server/index.js';
import { startOpenAiStub, type OpenAiStub, type StubReply } from '../../helpers/openai-stub.js';
import { readSse } from '../../helpers/sse-client.js';

const RESEARCH_INPUT = {
  type: 'object',
  properties: { topic: { type: 'string' }, depth: { type: 'integer', minimum: 1 } },
  required: ['topic'],
  additionalProperties: false,
};

function definition(id: string, extra: Partial<AgentDefinition> = {}): AgentDefinition {
  return {
    id,
    name: id,
    description: `The ${id}`,
    version: '1.0.0',
    exposed: false,
    systemPrompt: `You are the ${id}.`,
    tags: [],
    skills: [],
    a2a: { allowFreeform: true, contracts: {} },
    card: {},
    source: { file: `/agents/${id}.md`, line: 1 },
    ...extra,
  };
}

const writer = definition('writer', { model: 'stub-model-1', exposed: true });
const researcher = definition('researcher', {
  description: 'Finds facts',
  a2a: {
    allowFreeform: false,
    contracts: {
      research_request: { description: 'Ask for research on a topic', input: RESEARCH_INPUT },
      old_request: { description: 'Old form', deprecated: true, supersededBy: 'research_request' },
    },
  },
});
const reviewer = definition('reviewer', { description: 'Reviews drafts' });

const card = (name: string) => ({
  name,
  description: name,
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'work', name: 'Work', description: 'Works', tags: ['work'] }],
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  stub: OpenAiStub;
  url: string;
  /** What the researcher was invoked with, per task. */
  researched: RequestContext[];
  send(text: string): Promise<WireTask>;
}

async function setup(
  replies: StubReply[],
  tool: Partial<AgentToolOptions> = {},
  withSender = true,
  json = false,
): Promise<Setup> {
  const stub = await startOpenAiStub({ replies, json });
  cleanups.push(() => stub.close());
  const researched: RequestContext[] = [];
  const researcherServer = createA2AServer({
    agentCard: card('researcher'),
    contracts: compileContracts('researcher', researcher.a2a),
    executor: {
      execute(context, updater) {
        researched.push(context);
        const { topic } = context.contract!.payload as { topic: string };
        updater.addArtifact([{ text: `Notes on ${topic}` }, { data: { sources: 2 } }], { name: 'notes' });
        updater.complete();
      },
    },
  });
  const reviewerServer = createA2AServer({
    agentCard: card('reviewer'),
    // A direct message reply, no task (A2A 1.0 §3.1.1).
    executor: { execute: (_context, updater) => updater.reply('Looks good') },
  });
  const handlers = new Map([
    ['researcher', researcherServer.handler],
    ['reviewer', reviewerServer.handler],
  ]);
  const agents = createAgentSender({ from: 'writer', local: (id) => handlers.get(id) });
  const server = createA2AServer({
    agentCard: card('writer'),
    executor: createModelExecutor(writer, resolveModelEndpoint({ baseUrl: stub.url }, {}), {
      agentTool: { targets: agentToolTargets([writer, researcher, reviewer], 'writer'), ...tool },
    }),
    ...(withSender ? { agents } : {}),
  });
  const running = await listen(server, { port: 0, host: '127.0.0.1' });
  cleanups.push(() => running.close());
  return {
    stub,
    url: running.url,
    researched,
    async send(text) {
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: message(text) }),
      });
      return ((await response.json()) as { result: { task: WireTask } }).result.task;
    },
  };
}

const message = (text: string) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
});

interface WireTask {
  id: string;
  status: { state: string; message?: { parts: { text?: string }[] } };
  artifacts?: { name?: string; parts: { text?: string }[] }[];
}

interface SentMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
}

const artifactText = (task: WireTask): string =>
  (task.artifacts ?? []).flatMap((a) => a.parts.map((p) => p.text ?? '')).join('');
const messagesOf = (stub: OpenAiStub, request: number): SentMessage[] =>
  stub.requests[request]!.body!.messages as SentMessage[];
const toolResults = (stub: OpenAiStub, request: number): Record<string, unknown>[] =>
  messagesOf(stub, request)
    .filter((m) => m.role === 'tool')
    .map((m) => JSON.parse(m.content!) as Record<string, unknown>);

const callTool = (args: unknown, extra: { id?: string; pieces?: number } = {}) => ({
  name: 'send_to_agent',
  arguments: args,
  ...extra,
});

describe('send_to_agent tool', () => {
  it('sends a contract payload to the target and hands its task back to the model', async () => {
    const args = { agent: 'researcher', contract: 'research_request', payload: { topic: 'EV batteries' } };
    const { stub, send, researched } = await setup([
      { toolCalls: [callTool(args, { id: 'call_research', pieces: 5 })] },
      { tokens: ['Batteries', ' last', ' long.'] },
    ]);
    const task = await send('Write about EV batteries');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(task)).toBe('Batteries last long.');
    expect(task.artifacts).toHaveLength(1);

    // The first request offers the tool with the host's other agents and their contracts.
    const tools = stub.requests[0]!.body!.tools as {
      type: string;
      function: { name: string; description: string; parameters: Record<string, unknown> };
    }[];
    expect(tools).toHaveLength(1);
    expect(tools[0]!.type).toBe('function');
    expect(tools[0]!.function.name).toBe('send_to_agent');
    expect(tools[0]!.function.parameters).toMatchObject({
      type: 'object',
      properties: { agent: { type: 'string', enum: ['researcher', 'reviewer'] }, text: { type: 'string' } },
      required: ['agent'],
    });
    const description = tools[0]!.function.description;
    expect(description).toContain('- researcher: Finds facts');
    expect(description).toContain(
      `contract "research_request": Ask for research on a topic Input schema: ${JSON.stringify(RESEARCH_INPUT)}`,
    );
    expect(description).toContain('contract "old_request": Old form (deprecated, use "research_request")');
    expect(description).toContain('accepts contract messages only');
    expect(description).toContain('- reviewer: Reviews drafts');

    // The researcher got the payload as a contract invocation tied to the writer's task.
    expect(researched).toHaveLength(1);
    expect(researched[0]!.contract).toMatchObject({
      name: 'research_request',
      payload: { topic: 'EV batteries' },
      correlationId: task.id,
    });

    // The second request replays the assistant's call (arguments joined) and the tool's result.
    expect(stub.requests).toHaveLength(2);
    const second = messagesOf(stub, 1);
    expect(second.slice(0, 2)).toEqual(messagesOf(stub, 0));
    expect(second[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_research',
          type: 'function',
          function: { name: 'send_to_agent', arguments: JSON.stringify(args) },
        },
      ],
    });
    expect(second[3]!.role).toBe('tool');
    expect(second[3]!.tool_call_id).toBe('call_research');
    expect(JSON.parse(second[3]!.content!)).toEqual({
      state: 'completed',
      artifacts: [{ name: 'notes', parts: [{ text: 'Notes on EV batteries' }, { data: { sources: 2 } }] }],
    });
    expect(stub.requests[1]!.body!.tools).toEqual(tools);
  });

  it("returns the gate's refusal of an invalid payload to the model as the tool result", async () => {
    const { stub, send, researched } = await setup([
      {
        toolCalls: [
          callTool({ agent: 'researcher', contract: 'research_request', payload: { topic: 42, depth: 0 } }),
        ],
      },
      { tokens: ['Sorry, the researcher refused.'] },
    ]);
    const task = await send('Research 42');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(task)).toBe('Sorry, the researcher refused.');
    expect(researched).toHaveLength(0);
    const [result] = toolResults(stub, 1);
    expect(Object.keys(result!)).toEqual(['error']);
    expect(result!.error).toMatch(/^Contract "research_request" input validation failed: /);
    expect(result!.error).toContain('/topic: must be string');
    expect(result!.error).toContain('/depth');
  });

  it('answers several calls of one round in order: bad JSON, unknown agent, refused text, a direct reply', async () => {
    const { stub, send } = await setup([
      {
        toolCalls: [
          callTool('{"agent": "researcher", "contract": '),
          callTool({ agent: 'publisher', text: 'Publish it' }),
          callTool({ agent: 'researcher', text: 'Just tell me things' }),
          callTool({ agent: 'reviewer', text: 'Review this draft' }, { pieces: 7 }),
          { name: 'search_web', arguments: { q: 'x' } },
          callTool({ agent: 'reviewer' }),
        ],
      },
      { tokens: ['Done.'] },
    ]);
    const task = await send('Go');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const assistant = messagesOf(stub, 1).find((m) => m.role === 'assistant')!;
    expect(assistant.tool_calls!.map((c) => c.id)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `call_0_${i}`));
    const tools = messagesOf(stub, 1).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.tool_call_id)).toEqual(assistant.tool_calls!.map((c) => c.id));
    const results = toolResults(stub, 1);
    expect(results[0]!.error).toMatch(/^The arguments are not valid JSON/);
    expect(results[1]!.error).toBe('Unknown agent "publisher": send_to_agent can reach researcher, reviewer');
    // The researcher takes contract messages only; its gate says so.
    expect(results[2]!.error).toMatch(/^Agent "researcher" requires structured A2A messages/);
    expect(results[3]).toEqual({ reply: [{ text: 'Looks good' }] });
    expect(results[4]!.error).toBe('Unknown tool "search_web": the only tool is send_to_agent');
    expect(results[5]!.error).toBe('Give either `contract` with `payload`, or `text`');
  });

  it('fails the task when the model keeps calling the tool past maxRounds', async () => {
    const { stub, send } = await setup([{ toolCalls: [callTool({ agent: 'reviewer', text: 'again?' })] }], {
      maxRounds: 2,
    });
    const task = await send('Loop');
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message!.parts[0]!.text).toBe(
      'The tool loop did not end: the model still called send_to_agent after 2 rounds of tool calls',
    );
    // Two rounds of calls were answered; the third reply's calls were not run.
    expect(stub.requests).toHaveLength(3);
    expect(messagesOf(stub, 2).filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it("streams every round's text into one response artifact and shows who is being asked", async () => {
    const { url } = await setup([
      { tokens: ['Let me', ' ask.'], toolCalls: [callTool({ agent: 'reviewer', text: 'ok?' })] },
      { tokens: ['It is', ' fine.'] },
    ]);
    const read = await readSse(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: message('Check'),
      }),
    });
    const results = read.events.map(
      (e) => (JSON.parse(e.data) as { result: Record<string, unknown> }).result,
    );
    const chunks = results
      .filter((r) => 'artifactUpdate' in r)
      .map(
        (r) =>
          r.artifactUpdate as {
            lastChunk?: boolean;
            artifact: { artifactId: string; name?: string; parts: { text: string }[] };
          },
      );
    expect(chunks.map((c) => c.artifact.parts[0]!.text).join('')).toBe('Let me ask.\n\nIt is fine.');
    expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
    expect(chunks.map((c) => c.lastChunk === true)).toEqual(chunks.map((_, i) => i === chunks.length - 1));
    const statuses = results
      .filter((r) => 'statusUpdate' in r)
      .map((r) => r.statusUpdate as { status: { state: string; message?: { parts: { text: string }[] } } });
    const asking = statuses.find((s) => s.status.message !== undefined);
    expect(asking?.status.state).toBe('TASK_STATE_WORKING');
    expect(asking?.status.message?.parts[0]!.text).toBe('Asking reviewer');
    expect(statuses.at(-1)!.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('runs tool calls from a server that answers with one JSON completion', async () => {
    const { stub, send } = await setup(
      [{ toolCalls: [callTool({ agent: 'reviewer', text: 'ok?' }, { id: 'c1' })] }, { tokens: ['Fine.'] }],
      {},
      true,
      true,
    );
    const task = await send('Check');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(artifactText(task)).toBe('Fine.');
    expect(messagesOf(stub, 1).at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: JSON.stringify({ reply: [{ text: 'Looks good' }] }),
    });
  });

  it('offers no tool when the server gives the executor no sender', async () => {
    const { stub, send } = await setup([{ tokens: ['Plain answer.'] }], {}, false);
    const task = await send('Hi');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(stub.requests[0]!.body).not.toHaveProperty('tools');
  });
});

describe('agentToolTargets and the agentTool option', () => {
  it('lists every other agent with its contracts and free-form setting', () => {
    expect(agentToolTargets([writer, researcher, reviewer], 'writer')).toEqual([
      {
        id: 'researcher',
        description: 'Finds facts',
        allowFreeform: false,
        contracts: [
          { name: 'research_request', description: 'Ask for research on a topic', input: RESEARCH_INPUT },
          { name: 'old_request', description: 'Old form (deprecated, use "research_request")' },
        ],
      },
      { id: 'reviewer', description: 'Reviews drafts', allowFreeform: true, contracts: [] },
    ]);
  });

  it('refuses duplicate targets and a bad maxRounds when the executor is built', () => {
    const endpoint = { baseUrl: 'http://127.0.0.1:1/v1' };
    const target = { id: 'reviewer', description: 'x', contracts: [] };
    expect(() => createModelExecutor(writer, endpoint, { agentTool: { targets: [target, target] } })).toThrow(
      'Agent "writer": agentTool.targets[1].id "reviewer" is listed twice',
    );
    expect(() =>
      createModelExecutor(writer, endpoint, { agentTool: { targets: [target], maxRounds: 0 } }),
    ).toThrow(/agentTool\.maxRounds must be a positive integer/);
  });
});
