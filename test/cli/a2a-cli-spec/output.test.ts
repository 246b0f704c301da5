/**
 * Output formats of a2a-cli SPEC v0.2 §9.1-§9.5 through the real `concord` binary: stdout holds
 * only the payload in json modes (A2ACLI_OUT_001), `-o json` is exactly one document
 * (A2ACLI_OUT_002), `-o json --stream` is JSON Lines ending with the terminal event or an error
 * envelope (A2ACLI_OUT_003), and a send that does not wait still gives the ids
 * (A2ACLI_OUT_006).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { concord } from '../cli-process.js';
import { startSpecAgent } from './spec-fixtures.js';

let agent: EchoServer;
beforeAll(async () => {
  agent = await startSpecAgent();
});
afterAll(async () => {
  await agent.close();
});

interface TaskJson {
  id: string;
  contextId: string;
  status: { state: string };
}

/** Each line of a JSON Lines output, checked to be one compact object. */
function jsonLines(stdout: string): Record<string, unknown>[] {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      expect(line).toBe(JSON.stringify(JSON.parse(line)));
      return JSON.parse(line) as Record<string, unknown>;
    });
}

describe('json output', () => {
  it('A2ACLI_OUT_001: in json modes stdout carries only the payload; warnings and diagnostics go to stderr', async () => {
    const failed = await concord(['send', '-a', agent.url, 'fail', '-o', 'json']);
    expect(failed.code).toBe(0);
    const response = JSON.parse(failed.stdout) as { task: TaskJson };
    // The response names its context, task and state.
    expect(response.task).toMatchObject({
      id: expect.any(String),
      contextId: expect.any(String),
      status: { state: 'TASK_STATE_FAILED' },
    });
    expect(failed.stderr).toContain('warning: task');
    const streamed = await concord(['send', '-a', agent.url, 'ask', '-o', 'json', '--stream']);
    for (const line of jsonLines(streamed.stdout)) expect(Object.keys(line)).toHaveLength(1);
    expect(streamed.stderr).toContain('is paused at TASK_STATE_INPUT_REQUIRED');
    // A failure is the envelope alone on stdout; the readable line is on stderr.
    const missing = await concord(['task', 'get', 'nope', '-a', agent.url, '-o', 'json']);
    expect(Object.keys(JSON.parse(missing.stdout) as object)).toEqual(['error']);
    expect(missing.stderr).toMatch(/^concord get: TaskNotFoundError/);
  });

  it('A2ACLI_OUT_002: -o json without --stream is exactly one JSON document, per command', async () => {
    const sent = await concord(['send', '-a', agent.url, 'stream 3', '-o', 'json']);
    const response = JSON.parse(sent.stdout) as { task: TaskJson & { artifacts: unknown[] } };
    expect(Object.keys(response)).toEqual(['task']);
    expect(response.task.status.state).toBe('TASK_STATE_COMPLETED');
    const id = response.task.id;
    const reply = JSON.parse(
      (await concord(['send', '-a', agent.url, 'reply', '-o', 'json'])).stdout,
    ) as object;
    expect(Object.keys(reply)).toEqual(['message']);
    const documents = [
      ['task', 'get', id, '-a', agent.url],
      ['task', 'list', '-a', agent.url, '--page-size', '2'],
      ['card', 'get', '-a', agent.url],
    ];
    for (const args of documents) {
      const run = await concord([...args, '-o', 'json']);
      expect(run.code, args.join(' ')).toBe(0);
      expect(() => JSON.parse(run.stdout) as unknown, args.join(' ')).not.toThrow();
    }
    expect(
      JSON.parse((await concord(['task', 'get', id, '-a', agent.url, '-o', 'json'])).stdout),
    ).toMatchObject({ id });
    expect(
      JSON.parse((await concord(['task', 'list', '-a', agent.url, '-o', 'json'])).stdout),
    ).toHaveProperty('tasks');
    expect(JSON.parse((await concord(['card', 'get', '-a', agent.url, '-o', 'json'])).stdout)).toHaveProperty(
      'supportedInterfaces',
    );
    // --json is -o json.
    expect(JSON.parse((await concord(['task', 'get', id, '-a', agent.url, '--json'])).stdout)).toMatchObject({
      id,
    });
  });

  it('A2ACLI_OUT_003: -o json --stream is JSON Lines, the last line the terminal event; an error ends it as an envelope line', async () => {
    const run = await concord(['send', '-a', agent.url, 'stream 3', '-o', 'json', '--stream']);
    expect(run.code, run.stderr).toBe(0);
    const events = jsonLines(run.stdout);
    expect(Object.keys(events[0]!)).toEqual(['task']);
    expect(events.filter((e) => 'artifactUpdate' in e)).toHaveLength(3);
    const last = events.at(-1) as {
      statusUpdate: { taskId: string; contextId: string; status: { state: string } };
    };
    expect(last.statusUpdate).toMatchObject({
      taskId: expect.any(String),
      contextId: expect.any(String),
      status: { state: 'TASK_STATE_COMPLETED' },
    });
    // A direct reply is one {"message"} line.
    const reply = jsonLines(
      (await concord(['send', '-a', agent.url, 'reply', '-o', 'json', '--stream'])).stdout,
    );
    expect(reply).toHaveLength(1);
    expect(Object.keys(reply[0]!)).toEqual(['message']);
    // Commands without a stream honour it with one line.
    const id = (events[0] as { task: TaskJson }).task.id;
    expect(
      jsonLines((await concord(['task', 'get', id, '-a', agent.url, '-o', 'json', '--stream'])).stdout),
    ).toHaveLength(1);
    // An error that ends the stream is its last line, the envelope.
    const failed = await concord([
      'task',
      'subscribe',
      'no-such-task',
      '-a',
      agent.url,
      '-o',
      'json',
      '--stream',
    ]);
    expect(failed.code).toBe(1);
    const lines = jsonLines(failed.stdout);
    expect(lines.at(-1)).toMatchObject({ error: { code: 'TaskNotFoundError' } });
  });

  it('A2ACLI_OUT_006: without waiting (--async, and its aliases) the result still carries taskId and contextId', async () => {
    for (const flag of ['--async', '--no-wait', '--return-immediately']) {
      const run = await concord(['send', '-a', agent.url, 'wait', flag, '-o', 'json']);
      expect(run.code, run.stderr).toBe(0);
      const { task } = JSON.parse(run.stdout) as { task: TaskJson };
      expect(task.id).toMatch(/\S/);
      expect(task.contextId).toMatch(/\S/);
      expect(task.status.state).toBe('TASK_STATE_WORKING');
      await concord(['task', 'cancel', task.id, '-a', agent.url]);
    }
    const text = await concord(['send', '-a', agent.url, 'wait', '--async']);
    expect(text.code).toBe(0);
    const id = /[0-9a-f]{8}-[0-9a-f-]{27}/.exec(text.stdout)?.[0];
    expect(id).toBeDefined();
    await concord(['task', 'cancel', id!, '-a', agent.url]);
  });
});
