// Contracts on a model agent, end to end (decision 0021): a markdown agent with contracts in its
// frontmatter, served by the host, calls the OpenAI-compatible stub. A contract message puts the
// seed's context lines into the system prompt (payload cut at 4000 characters with the marker),
// the streamed reply is checked against the output schema as a whole, and plain text gets no
// contract context.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, CardCache } from '../../src/client/index.js';
import { createContractMessage } from '../../src/contracts/index.js';
import { startHost, type RunningHost } from '../../src/host/index.js';
import { startOpenAiStub, type OpenAiStub } from '../helpers/openai-stub.js';
import { jsonRpcDriver, restDriver, taskOf, userText } from '../helpers/drivers.js';

const ANALYST = `---
name: analyst
description: Analyses texts
exposed: true
model: stub-model
a2a:
  contracts:
    analysis.request:
      description: Analyse a text
      input:
        type: object
        properties:
          text: { type: string }
        required: [text]
      output:
        type: object
        properties:
          summary: { type: string }
          score: { type: integer }
        required: [summary]
---
You analyse texts.
`;

const OUTPUT_SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, score: { type: 'integer' } },
  required: ['summary'],
};

let dir: string;
let stub: OpenAiStub;
let host: RunningHost;

beforeAll(async () => {
  stub = await startOpenAiStub({
    replies: [
      { tokens: ['{"summary": ', '"long and repetitive"', ', "score": 2}'] },
      { tokens: ['{"summary": ', '42', '}'] },
      { tokens: ['Hello there.'] },
      { tokens: ['{"summary": "typed", ', '"score": 1}'] },
    ],
    // Tokens arrive apart, so the reply is streamed as several chunks of one artifact.
    delayMs: 60,
  });
  dir = mkdtempSync(join(tmpdir(), 'concord-model-contracts-'));
  mkdirSync(join(dir, 'agents'));
  writeFileSync(join(dir, 'agents', 'analyst.md'), ANALYST);
  writeFileSync(
    join(dir, 'concord.config.json5'),
    JSON.stringify({ model: { baseUrl: stub.url, apiKey: 'test-key' } }),
  );
  host = await startHost(dir, { port: 0, store: 'memory' });
});

afterAll(async () => {
  await host?.close();
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

const systemPrompt = (request: number): string =>
  (stub.requests[request]!.body!.messages as { role: string; content: string }[]).find(
    (m) => m.role === 'system',
  )!.content;

describe('a model agent with contracts', () => {
  it('gets the contract context in its system prompt, the payload cut with the marker', async () => {
    const long = 'x'.repeat(5000);
    const driver = jsonRpcDriver(`${host.url}agents/analyst/`, '1.0');
    const task = taskOf(
      await driver.send(createContractMessage({ name: 'analysis.request' }, { text: long }, 'corr-9')),
    );
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const payload = JSON.stringify({ text: long }).slice(0, 4000);
    expect(systemPrompt(0)).toBe(
      [
        'You analyse texts.',
        '',
        'Structured A2A contract invocation: "analysis.request".',
        'Contract description: Analyse a text',
        `Input payload: ${payload}... (truncated)`,
        'Correlation ID: corr-9',
        'Expected output schema (respond with JSON matching this schema):',
        JSON.stringify(OUTPUT_SCHEMA, null, 2),
      ].join('\n'),
    );
    // The reply came in chunks; put together it is the JSON the schema asks for.
    const parts = task.artifacts?.[0]?.parts ?? [];
    expect(parts.length).toBeGreaterThan(1);
    const text = parts.map((p) => p.text).join('');
    expect(JSON.parse(text!)).toEqual({ summary: 'long and repetitive', score: 2 });
    expect(task.metadata?.['concord/contract']).toEqual({
      name: 'analysis.request',
      correlationId: 'corr-9',
    });
  });

  it('fails the task when the streamed reply, put together, breaks the output schema', async () => {
    const driver = restDriver(`${host.url}agents/analyst/`, '1.0');
    const task = taskOf(
      await driver.send(createContractMessage({ name: 'analysis.request' }, { text: 'short' })),
    );
    expect(systemPrompt(1)).toContain('Input payload: {"text":"short"}\n');
    expect(systemPrompt(1)).not.toContain('(truncated)');
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message?.parts[0]?.text).toBe(
      'The agent\'s reply does not satisfy contract "analysis.request" output: /parts/0/summary: must be string, got integer 42',
    );
  });

  it('sends plain text without any contract context', async () => {
    const driver = jsonRpcDriver(`${host.url}agents/analyst/`, '0.3');
    const task = taskOf(await driver.send(userText('Just say hello')));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(systemPrompt(2)).toBe('You analyse texts.');
  });

  it("gives the client the model's streamed JSON as the typed, checked reply", async () => {
    const client = await A2AClient.connect(`${host.url}agents/analyst/`, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
    });
    try {
      const result = await client.sendContract('analysis.request', { text: 'typed' });
      expect(result.state).toBe('TASK_STATE_COMPLETED');
      expect(result.reply).toEqual({ summary: 'typed', score: 1 });
      expect(result.replies).toHaveLength(1);
    } finally {
      client.close();
    }
  });
});
