/**
 * Waiting for a task, a2a-cli SPEC v0.2 §4.5, §7.3, §8.2 and §11.3, through the real `concord`
 * binary: `send` waits by default, client-driven (A2ACLI_SEND_002), `--stream` streams where the
 * card allows and falls back otherwise (A2ACLI_SEND_003, A2ACLI_VER_003), `task get --wait` polls
 * (A2ACLI_TASK_POLL_001) under `--poll-interval` and `--timeout` (A2ACLI_TASK_POLL_002), stopping
 * only at a terminal or interrupted state (A2ACLI_TASK_POLL_003), and a broken stream falls back
 * to polling (A2ACLI_TASK_POLL_004).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { startJsonServer } from '../../client/helpers/json-server.js';
import { concord, startConcord } from '../cli-process.js';
import { SPEC_CARD, startFakeAgent, startSpecAgent, wireTask } from './spec-fixtures.js';

let agent: EchoServer;
beforeAll(async () => {
  agent = await startSpecAgent();
});
afterAll(async () => {
  await agent.close();
});

/** A fake agent whose GetTask answers the given states in turn (the last one repeats). */
function statesAgent(send: unknown, states: string[]) {
  return startFakeAgent((call) => {
    if (call.method === 'SendMessage') return send;
    if (call.method === 'GetTask') {
      const polls = fakeCalls.filter((c) => c === 'GetTask').length;
      fakeCalls.push('GetTask');
      return wireTask('t-1', states[Math.min(polls, states.length - 1)]!);
    }
    return { error: { code: -32601, message: `no ${call.method}` } };
  });
}
let fakeCalls: string[] = [];

describe('send waits', () => {
  it('A2ACLI_SEND_002: send waits by default, polling a task the agent answered early; --async returns at once', async () => {
    fakeCalls = [];
    const fake = await statesAgent({ task: wireTask('t-1', 'TASK_STATE_WORKING') }, [
      'TASK_STATE_WORKING',
      'TASK_STATE_COMPLETED',
    ]);
    try {
      const run = await concord(['send', '-a', fake.url, 'go', '--poll-interval', '100ms', '-o', 'json']);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        task: { id: 't-1', status: { state: 'TASK_STATE_COMPLETED' } },
      });
      expect(fake.calls.map((c) => c.method)).toEqual(['SendMessage', 'GetTask', 'GetTask']);
      // The id is on stderr before the wait, so an interrupted wait does not lose it.
      expect(run.stderr).toContain('waiting for task t-1');
      fake.calls.length = 0;
      for (const flag of ['--async', '--no-wait', '--return-immediately']) {
        const quick = await concord(['send', '-a', fake.url, 'go', flag, '-o', 'json']);
        expect(JSON.parse(quick.stdout)).toMatchObject({ task: { status: { state: 'TASK_STATE_WORKING' } } });
      }
      expect(fake.calls.map((c) => c.method)).toEqual(['SendMessage', 'SendMessage', 'SendMessage']);
      expect(
        fake.calls.every(
          (c) => (c.params.configuration as { returnImmediately?: boolean }).returnImmediately,
        ),
      ).toBe(true);
    } finally {
      await fake.close();
    }
    // A direct reply creates no task: nothing to wait for.
    const reply = await startFakeAgent(() => ({
      message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    }));
    try {
      expect((await concord(['send', '-a', reply.url, 'go'])).code).toBe(0);
      expect(reply.calls.map((c) => c.method)).toEqual(['SendMessage']);
    } finally {
      await reply.close();
    }
    // On a Concord agent a blocking send already ends when the task does.
    const slow = await concord(['send', '-a', agent.url, 'slow 300', '-o', 'json']);
    expect(JSON.parse(slow.stdout)).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('A2ACLI_SEND_003: --stream consumes the stream; a direct reply is its one object; a card without streaming falls back', async () => {
    const streamed = await concord(['send', '-a', agent.url, 'stream 2', '--stream', '-o', 'json']);
    expect(streamed.code).toBe(0);
    expect(streamed.stdout.trimEnd().split('\n').length).toBeGreaterThanOrEqual(4);
    const reply = await concord(['send', '-a', agent.url, 'reply', '--stream']);
    expect(reply.code).toBe(0);
    expect(reply.stdout).toContain('a direct reply');
    const fake = await startFakeAgent(
      () => ({ task: wireTask('t-9', 'TASK_STATE_COMPLETED') }),
      (url) => ({
        ...SPEC_CARD,
        capabilities: {},
        supportedInterfaces: [{ url: `${url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
    );
    try {
      const run = await concord(['send', '-a', fake.url, 'go', '--stream', '-o', 'json']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('declares no streaming');
      expect(fake.calls.map((c) => c.method)).toEqual(['SendMessage']);
      // Still JSON Lines: the one object on its line.
      expect(
        run.stdout
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as unknown),
      ).toEqual([{ task: expect.objectContaining({ id: 't-9' }) as unknown }]);
    } finally {
      await fake.close();
    }
  });

  it('A2ACLI_VER_003: capabilities are checked before streaming, push configs and the extended card', async () => {
    const fake = await startFakeAgent(
      (call) =>
        call.method === 'GetTask'
          ? wireTask('t-2', 'TASK_STATE_COMPLETED')
          : { task: wireTask('t-2', 'TASK_STATE_COMPLETED') },
      (url) => ({
        ...SPEC_CARD,
        capabilities: {},
        supportedInterfaces: [{ url: `${url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      }),
    );
    try {
      const push = await concord([
        'task',
        'push-config',
        'create',
        't-2',
        '-a',
        fake.url,
        '--push-url',
        'http://127.0.0.1:9/h',
        '-o',
        'json',
      ]);
      expect(push.code).toBe(1);
      expect(JSON.parse(push.stdout)).toMatchObject({ error: { code: 'PushNotificationNotSupportedError' } });
      const sendPush = await concord(['send', '-a', fake.url, 'go', '--push-url', 'http://127.0.0.1:9/h']);
      expect(sendPush.code).toBe(1);
      const extended = await concord(['card', 'get', '-a', fake.url, '--extended', '--bearer', 't']);
      expect(extended.code).toBe(1);
      expect(extended.stderr).toContain('does not declare an extended card');
      const subscribe = await concord(['task', 'subscribe', 't-2', '-a', fake.url, '-o', 'json']);
      expect(subscribe.code, subscribe.stderr).toBe(0);
      expect(subscribe.stderr).toContain('declares no streaming; polling task t-2');
      // None of the gated calls was sent; the subscription was a GetTask.
      expect(fake.calls.map((c) => c.method)).toEqual(['GetTask']);
    } finally {
      await fake.close();
    }
  });
});

describe('task get --wait', () => {
  it('A2ACLI_TASK_POLL_001: task get is one-shot; --wait (or --watch) polls until the task ends', async () => {
    // Slow enough that the one-shot get (a second CLI process) finds it working on a busy machine.
    const started = JSON.parse(
      (await concord(['send', '-a', agent.url, 'slow 4000', '--async', '-o', 'json'])).stdout,
    ) as {
      task: { id: string };
    };
    const id = started.task.id;
    const once = await concord(['task', 'get', id, '-a', agent.url, '-o', 'json']);
    expect(JSON.parse(once.stdout)).toMatchObject({ status: { state: 'TASK_STATE_WORKING' } });
    const waited = await concord([
      'task',
      'get',
      id,
      '-a',
      agent.url,
      '--wait',
      '--poll-interval',
      '200ms',
      '-o',
      'json',
    ]);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ id, status: { state: 'TASK_STATE_COMPLETED' } });
    const watched = await concord(['task', 'get', id, '-a', agent.url, '--watch']);
    expect(watched.stdout).toContain('State: TASK_STATE_COMPLETED\n');
  });

  it('A2ACLI_TASK_POLL_002: --poll-interval paces the polls (no busy loop), --timeout ends the wait with A2ACLI_ERR_TIMEOUT, exit 5', async () => {
    fakeCalls = [];
    const fake = await statesAgent({}, ['TASK_STATE_WORKING']);
    try {
      const started = Date.now();
      const run = await concord([
        'task',
        'get',
        't-1',
        '-a',
        fake.url,
        '--wait',
        '--poll-interval',
        '250ms',
        '--timeout',
        '1.2s',
        '-o',
        'json',
      ]);
      const took = Date.now() - started;
      expect(run.code).toBe(5);
      const { error } = JSON.parse(run.stdout) as { error: { code: string; hint: string } };
      expect(error.code).toBe('A2ACLI_ERR_TIMEOUT');
      expect(error.hint).toContain('concord task get t-1');
      expect(took).toBeGreaterThanOrEqual(1200);
      // 250 ms, then slower while nothing changes: a handful of polls, not hundreds.
      const polls = fake.calls.filter((c) => c.method === 'GetTask').length;
      expect(polls).toBeGreaterThanOrEqual(3);
      expect(polls).toBeLessThanOrEqual(6);
      // The same overall deadline on send: the wait ends, the task goes on.
      const send = await concord(['send', '-a', agent.url, 'wait', '--timeout', '1s', '-o', 'json']);
      expect(send.code).toBe(5);
      expect(JSON.parse(send.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_TIMEOUT' } });
      expect((await concord(['task', 'get', 'x', '-a', fake.url, '--timeout', 'soon'])).code).toBe(2);
    } finally {
      await fake.close();
    }
  });

  it('A2ACLI_TASK_POLL_002: a wait is interruptible and keeps the task id it printed', async () => {
    fakeCalls = [];
    const fake = await statesAgent({}, ['TASK_STATE_WORKING']);
    try {
      const live = startConcord(['task', 'get', 't-1', '-a', fake.url, '--wait', '--poll-interval', '100ms']);
      // Interrupted once it is waiting (it has polled), however long the process took to start.
      while (!fake.calls.some((c) => c.method === 'GetTask')) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      live.child.kill('SIGINT');
      const run = await live.exited;
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('concord task get t-1');
    } finally {
      await fake.close();
    }
  });

  it('A2ACLI_TASK_POLL_003: waits through UNSPECIFIED and unknown states, reported as received; stops at once when interrupted', async () => {
    fakeCalls = [];
    const odd = await statesAgent({}, [
      'TASK_STATE_UNSPECIFIED',
      'TASK_STATE_PONDERING',
      'TASK_STATE_COMPLETED',
    ]);
    try {
      const run = await concord(['task', 'get', 't-1', '-a', odd.url, '--wait', '--poll-interval', '50ms']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('task t-1: TASK_STATE_UNSPECIFIED');
      expect(run.stderr).toContain('task t-1: TASK_STATE_PONDERING');
      expect(run.stdout).toContain('State: TASK_STATE_COMPLETED\n');
      expect(odd.calls.filter((c) => c.method === 'GetTask')).toHaveLength(3);
    } finally {
      await odd.close();
    }
    fakeCalls = [];
    const asking = await statesAgent({}, [
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
    ]);
    try {
      const run = await concord([
        'task',
        'get',
        't-1',
        '-a',
        asking.url,
        '--wait',
        '--poll-interval',
        '50ms',
      ]);
      expect(run.stdout).toContain('State: TASK_STATE_INPUT_REQUIRED\n');
      expect(asking.calls.filter((c) => c.method === 'GetTask')).toHaveLength(2);
    } finally {
      await asking.close();
    }
  });
});

describe('a broken stream', () => {
  it('A2ACLI_TASK_POLL_004: a wait whose stream fails falls back to polling and drives the task to its end', async () => {
    const holder = { url: '' };
    let polls = 0;
    const server = await startJsonServer({
      '/.well-known/agent-card.json': () => ({
        body: {
          ...SPEC_CARD,
          supportedInterfaces: [
            { url: `${holder.url}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
          ],
        },
      }),
      '/rpc': (request) => {
        const body = JSON.parse(request.body) as { id: number; method: string };
        if (body.method === 'SendStreamingMessage') {
          // One event, then the connection ends without the task's end.
          const event = {
            jsonrpc: '2.0',
            id: body.id,
            result: { task: wireTask('t-5', 'TASK_STATE_WORKING') },
          };
          return {
            headers: { 'content-type': 'text/event-stream' },
            body: `data: ${JSON.stringify(event)}\n\n`,
          };
        }
        if (body.method === 'SubscribeToTask')
          return { status: 502, headers: { 'content-type': 'text/plain' }, body: 'bad gateway' };
        polls++;
        const state = polls < 2 ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED';
        return { body: { jsonrpc: '2.0', id: body.id, result: wireTask('t-5', state) } };
      },
    });
    holder.url = server.url;
    try {
      const run = await concord([
        'send',
        '-a',
        server.url,
        'go',
        '--stream',
        '--poll-interval',
        '50ms',
        '-o',
        'json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { task?: { status: { state: string } } });
      expect(lines[0]).toMatchObject({ task: { status: { state: 'TASK_STATE_WORKING' } } });
      expect(lines.at(-1)).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
      expect(polls).toBeGreaterThanOrEqual(2);
      expect(run.stderr).toContain('warning: the stream failed');
    } finally {
      await server.close();
    }
  });
});
