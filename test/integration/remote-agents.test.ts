// Agent-to-agent send across hosts (decision 0031): two real hosts on sockets. An
// agent of host A sends to an agent of host B by URL; B's published contracts gate the message on
// A, so a refused payload never reaches B, and a valid one is delivered and answered. The SSRF
// guard keeps loopback targets out unless A's config allows them, and a model agent of A reaches
// B through its send_to_agent tool, told B's contracts from B's card.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, loadHost, startHost, type RunningHost } from '../../src/host/index.js';
import type { Task } from '../../src/protocol/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import type { HttpApp } from '../../src/server/index.js';
import { startOpenAiStub, type OpenAiStub } from '../helpers/openai-stub.js';
import { jsonRpcDriver, taskOf } from '../helpers/drivers.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');

let remote: RunningServer;
/** Every request host B received, as `METHOD path`. */
const seenByB: string[] = [];
let researcherUrl: string;
let stub: OpenAiStub;
let hostA: RunningHost;
let guarded: RunningHost;
const dirs: string[] = [];

/** Host A's config: a code agent that sends where it is told, and a model agent that knows B. */
function writeHostA(outbound: Record<string, unknown> | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-remote-'));
  dirs.push(dir);
  copyFileSync(join(FIXTURES, 'remote/caller.mjs'), join(dir, 'caller.mjs'));
  const config = {
    model: { baseUrl: stub.url, apiKey: 'test-key' },
    ...(outbound === undefined ? {} : { outbound }),
    agents: {
      list: [
        { id: 'caller', description: 'Sends where it is told', exposed: true, handler: './caller.mjs' },
        {
          id: 'planner',
          description: 'Plans research',
          exposed: true,
          model: 'stub-model',
          systemPrompt: 'You plan research.',
          a2a: { remoteAgents: [{ url: researcherUrl }] },
        },
      ],
    },
  };
  writeFileSync(join(dir, 'concord.config.json5'), JSON.stringify(config, null, 2));
  return dir;
}

beforeAll(async () => {
  const inner = await createHost(await loadHost(join(FIXTURES, 'contracts')), { store: 'memory' });
  const recording: HttpApp = {
    maxBodyBytes: inner.maxBodyBytes,
    setBaseUrl: (url) => inner.setBaseUrl(url),
    close: () => inner.close(),
    handle(request) {
      seenByB.push(`${request.method} ${request.path}`);
      return inner.handle(request);
    },
  };
  remote = await listen(recording, { port: 0 });
  researcherUrl = `${remote.url}agents/researcher/`;
  stub = await startOpenAiStub({
    replies: [
      {
        toolCalls: [
          {
            name: 'send_to_agent',
            arguments: { agent: researcherUrl, contract: 'research.request', payload: { query: 7 } },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'send_to_agent',
            arguments: { agent: researcherUrl, contract: 'research.request', payload: { query: 'tides' } },
          },
        ],
      },
      { tokens: ['The researcher found: ', 'tides'] },
    ],
  });
  hostA = await startHost(writeHostA({ allowedHosts: ['127.0.0.1'] }), { port: 0, store: 'memory' });
  guarded = await startHost(writeHostA(undefined), { port: 0, store: 'memory' });
});

afterAll(async () => {
  await hostA?.close();
  await guarded?.close();
  await remote?.close();
  await stub?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Asks host `at`'s caller to send `order`; returns the caller's task. */
async function order(at: RunningHost, what: Record<string, unknown>): Promise<Task> {
  const driver = jsonRpcDriver(`${at.url}agents/caller/`, '1.0');
  return taskOf(
    await driver.send({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data: what }] }),
  );
}

const statusText = (task: Task): string => task.status.message?.parts.map((p) => p.text ?? '').join('') ?? '';
// The card lists the agent's URL without a trailing slash (decision 0138); the client posts there.
const postsToResearcher = (): number => seenByB.filter((r) => r === 'POST /agents/researcher').length;

describe('agent-to-agent send to a URL', () => {
  it("refuses a payload against the remote card's contracts before anything is sent", async () => {
    const posts = postsToResearcher();
    const task = await order(hostA, {
      target: researcherUrl,
      contract: 'research.request',
      payload: { depth: 'bottomless' },
    });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toBe(
      'ContractRefusedError: Contract "research.request" input validation failed: /query: is required; /depth: must be one of ["shallow", "deep"], got "bottomless"',
    );
    // Only B's card was read; the message itself never reached B.
    expect(postsToResearcher()).toBe(posts);
    expect(seenByB).toContain('GET /agents/researcher/.well-known/agent-card.json');
  });

  it('refuses plain text to a remote agent that takes contract messages only', async () => {
    const posts = postsToResearcher();
    const task = await order(hostA, { target: researcherUrl, text: 'anything new?' });
    expect(statusText(task)).toContain(
      'Agent "researcher" requires structured A2A messages (allowFreeform=false). Available contracts: research.request',
    );
    expect(postsToResearcher()).toBe(posts);
  });

  it('delivers a valid payload and hands back the remote task', async () => {
    const posts = postsToResearcher();
    const task = await order(hostA, {
      target: researcherUrl,
      contract: 'research.request',
      payload: { query: 'tides', depth: 'shallow' },
    });
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(postsToResearcher()).toBe(posts + 1);
    const response = (task.artifacts?.[0]?.parts[0]?.data as { response: { task: Task } }).response;
    expect(response.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(response.task.artifacts?.[0]?.parts[0]?.data).toMatchObject({
      findings: `research.request:{"query":"tides","depth":"shallow"}:${task.id}`,
    });
  });

  it('refuses loopback targets unless the host config allows them', async () => {
    const posts = postsToResearcher();
    const task = await order(guarded, {
      target: researcherUrl,
      contract: 'research.request',
      payload: { query: 'x' },
    });
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(statusText(task)).toMatch(
      /^A2ALocalError: Refusing http:\/\/127\.0\.0\.1:\d+\/.*loopback 127\.0\.0\.0\/8/,
    );
    expect(postsToResearcher()).toBe(posts);
  });
});

describe('a model agent sending to a remote agent with send_to_agent', () => {
  it("is told the remote contracts from its card, gets the gate's refusal, then the answer", async () => {
    const posts = postsToResearcher();
    const driver = jsonRpcDriver(`${hostA.url}agents/planner/`, '1.0');
    const task = taskOf(
      await driver.send({
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'Research tides' }],
      }),
    );
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const tool = (
      stub.requests[0]!.body!.tools as { function: { description: string; parameters: unknown } }[]
    )[0]!;
    expect(tool.function.parameters).toMatchObject({
      properties: { agent: { enum: ['caller', researcherUrl] } },
    });
    expect(tool.function.description).toContain(
      `- ${researcherUrl}: Answers research queries; structured messages only`,
    );
    expect(tool.function.description).toContain(
      'contract "research.request": Submit a research query Input schema:',
    );
    expect(tool.function.description).toContain('accepts contract messages only');

    const toolResult = (request: number) =>
      JSON.parse(
        (stub.requests[request]!.body!.messages as { role: string; content: string }[])
          .filter((m) => m.role === 'tool')
          .at(-1)!.content,
      ) as Record<string, unknown>;
    expect(toolResult(1)).toEqual({
      error: 'Contract "research.request" input validation failed: /query: must be string, got integer 7',
    });
    expect(toolResult(2)).toMatchObject({ state: 'completed' });
    expect(JSON.stringify(toolResult(2))).toContain('research.request:{\\"query\\":\\"tides\\"}');
    // The refused call never left host A; the corrected one did.
    expect(postsToResearcher()).toBe(posts + 1);
  });
});
