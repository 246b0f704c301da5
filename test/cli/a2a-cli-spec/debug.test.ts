/**
 * `--debug` through the real `concord` binary (a2a-cli SPEC v0.2 §5.2, §6.2, §10.1): the wire
 * exchange on stderr, request and answer, on JSON-RPC, a stream and gRPC (A2ACLI_OUT_007), always
 * redacted of credentials (A2ACLI_AUTH_004), and the hint that points a rejected `--task-id` at it
 * (A2ACLI_INTERACT_002).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { concord } from '../cli-process.js';
import { startFakeAgent, startSpecAgent, type FakeAgent } from './spec-fixtures.js';

/** The debug lines of a run's stderr. */
function debugLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('debug: '));
}

describe('--debug', () => {
  let fake: FakeAgent;
  let agent: EchoServer;
  beforeAll(async () => {
    // Answers with a text that quotes the request's credentials back, as a careless agent might.
    fake = await startFakeAgent((call) => ({
      message: {
        messageId: 'm1',
        role: 'ROLE_AGENT',
        parts: [{ text: `seen ${call.headers.authorization ?? ''} ${call.headers['x-session'] ?? ''}` }],
      },
    }));
    agent = await startSpecAgent({ grpc: true });
  });
  afterAll(async () => {
    await fake.close();
    await agent.close();
  });

  it('A2ACLI_OUT_007: --debug writes the interface chosen and each request and answer as on the wire to stderr; stdout is unchanged', async () => {
    const plain = await concord(['send', '-a', fake.url, 'hi', '-o', 'json']);
    const run = await concord(['send', '-a', fake.url, 'hi', '-o', 'json', '--debug']);
    expect(run.code, run.stderr).toBe(0);
    // The payload is the same single document; every debug line went to stderr.
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(plain.stdout));
    expect(debugLines(plain.stderr)).toEqual([]);
    const lines = debugLines(run.stderr);
    expect(lines).toContain(`debug: > GET ${fake.url}.well-known/agent-card.json (getAgentCard)`);
    expect(lines).toContain(
      `debug: interface JSONRPC 1.0 ${fake.url}rpc, chosen from the card's 1 (bindings: the card's order; A2A 1.0)`,
    );
    expect(lines).toContain(`debug: > POST ${fake.url}rpc (sendMessage)`);
    expect(lines).toContain('debug: > a2a-version: 1.0');
    const sent = lines.find((line) => line.startsWith('debug: > {'));
    expect(JSON.parse(sent!.slice('debug: > '.length))).toMatchObject({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { message: { parts: [{ text: 'hi' }] } },
    });
    expect(lines.some((line) => /^debug: < 200 in \d+ ms$/.test(line))).toBe(true);
    const answered = lines.filter((line) => line.startsWith('debug: < {'));
    expect(answered.map((line) => JSON.parse(line.slice('debug: < '.length)) as unknown)).toContainEqual(
      expect.objectContaining({
        jsonrpc: '2.0',
        result: expect.objectContaining({ message: expect.anything() }),
      }),
    );
    const help = (await concord(['send', '--help'])).stdout;
    expect(help).toMatch(/--debug +how the command talks to the agent, on stderr/);
  });

  it('A2ACLI_OUT_007: a stream is logged as it arrives, and gRPC messages as their ProtoJSON', async () => {
    const streamed = await concord(['send', '-a', agent.url, 'stream 2', '--stream', '--debug']);
    expect(streamed.code, streamed.stderr).toBe(0);
    const events = debugLines(streamed.stderr).filter((line) => line.startsWith('debug: < data: '));
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.some((line) => line.includes('chunk 2'))).toBe(true);

    const grpc = await concord(['send', '-a', agent.url, 'hello', '--transport', 'grpc', '--debug']);
    expect(grpc.code, grpc.stderr).toBe(0);
    const lines = debugLines(grpc.stderr);
    expect(lines.some((line) => /^debug: interface GRPC 1\.0 /.test(line))).toBe(true);
    expect(
      lines.some((line) =>
        /^debug: > POST http:\/\/127\.0\.0\.1:\d+\/[\w.]+\.A2AService\/SendMessage \(sendMessage\)$/.test(
          line,
        ),
      ),
    ).toBe(true);
    const request = lines.find((line) => line.startsWith('debug: > {'));
    expect(JSON.parse(request!.slice('debug: > '.length))).toMatchObject({
      message: { parts: [{ text: 'hello' }] },
    });
    expect(lines.some((line) => /^debug: < gRPC status 0 in \d+ ms$/.test(line))).toBe(true);
    const answer = lines.find((line) => line.startsWith('debug: < {"task"'));
    expect(JSON.parse(answer!.slice('debug: < '.length))).toHaveProperty('task');
  });

  it('A2ACLI_AUTH_004: the --debug wire log is redacted: tokens, API keys and --svc-param values never appear, echoed or sent', async () => {
    const run = await concord([
      'send',
      '-a',
      fake.url,
      'hi',
      '--debug',
      '--bearer',
      'debug-bearer-secret',
      '--api-key',
      'debug-api-key-secret',
      '--svc-param',
      'x-session:svc-secret-value',
    ]);
    expect(run.code, run.stderr).toBe(0);
    for (const secret of ['debug-bearer-secret', 'debug-api-key-secret', 'svc-secret-value'])
      expect(run.stderr).not.toContain(secret);
    const lines = debugLines(run.stderr);
    expect(lines).toContain('debug: > authorization: [REDACTED]');
    expect(lines).toContain('debug: > x-api-key: [REDACTED]');
    expect(lines).toContain('debug: > x-session: [REDACTED]');
    // What the agent echoed back in its answer is redacted in the log too.
    expect(
      lines.some((line) => line.startsWith('debug: < {') && line.includes('seen [REDACTED] [REDACTED]')),
    ).toBe(true);
  });

  it('A2ACLI_INTERACT_002: a rejected --task-id points at --debug, which shows the protocol error as the agent sent it', async () => {
    const wrong = await concord(['send', '-a', agent.url, 'hi', '--task-id', 'no-such-task', '-o', 'json']);
    expect(wrong.code).toBe(1);
    const { error } = JSON.parse(wrong.stdout) as { error: { code: string; hint: string } };
    expect(error.code).toBe('TaskNotFoundError');
    expect(error.hint).toContain('re-run with --debug');
    expect(wrong.stderr).toContain(
      'hint: the agent did not take the reply to task no-such-task; re-run with --debug',
    );
    const debugged = await concord(['send', '-a', agent.url, 'hi', '--task-id', 'no-such-task', '--debug']);
    expect(debugged.code).toBe(1);
    const refusal = debugLines(debugged.stderr).find(
      (line) => line.startsWith('debug: < {') && line.includes('"error"'),
    );
    expect(JSON.parse(refusal!.slice('debug: < '.length))).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32001 },
    });
  });
});
