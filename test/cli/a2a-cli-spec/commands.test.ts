/**
 * The command surface of a2a-cli SPEC v0.2 §5, §6 and §8 through the real `concord` binary: `card
 * get` with every kind of `-a/--agent-card` reference, `send`, the `task` commands, continuing an
 * interaction by its ids, and `help`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { concord, startConcord } from '../cli-process.js';
import { startPushServer } from '../../push/helpers/push-server.js';
import { SPEC_CARD, startFakeAgent, startSpecAgent, wireTask } from './spec-fixtures.js';

interface TaskJson {
  id: string;
  contextId: string;
  status: { state: string };
  artifacts?: { parts: { text?: string }[] }[];
  history?: unknown[];
}

let agent: EchoServer;
let extended: EchoServer;
const presented: (string | undefined)[] = [];
const dir = mkdtempSync(join(tmpdir(), 'concord-a2a-cli-'));
beforeAll(async () => {
  agent = await startSpecAgent();
  extended = await startSpecAgent({
    agentCard: {
      ...SPEC_CARD,
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    } as never,
    extendedAgentCard: { ...SPEC_CARD, name: 'Spec Agent (extended)' } as never,
    authenticate: (request) => {
      presented.push(request.header('x-api-key'));
      return request.header('authorization') === 'Bearer insider' ? { name: 'insider' } : undefined;
    },
  });
});
afterAll(async () => {
  await agent.close();
  await extended.close();
});

async function sendJson(args: string[]): Promise<TaskJson> {
  const run = await concord(['send', ...args, '-o', 'json']);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { task: TaskJson }).task;
}

describe('card get', () => {
  it('A2ACLI_CARD_GET_001: resolves a bare host, an origin, a card URL and a card file, and presents the card', async () => {
    const port = new URL(agent.url).port;
    const references = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      agent.url,
      `${agent.url}.well-known/agent-card.json`,
    ];
    for (const ref of references) {
      const run = await concord(['card', 'get', '-a', ref]);
      expect(run.code, `${ref}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('Name: Spec Agent\n');
      expect(run.stdout).toContain('Streaming: true\n');
      expect(run.stdout).toContain('Push notifications: false\n');
      expect(run.stdout).toContain('Extended card: false\n');
      expect(run.stdout).toMatch(
        new RegExp(`^Interface: JSONRPC 1\\.0 http://(127\\.0\\.0\\.1|localhost):${port}\\b`, 'm'),
      );
      expect(run.stdout).toContain('Skill: spec: Spec: Outcomes on request.\n');
    }
    // A card file (plain path or file:// URL) is read from disk, and is the card later calls use.
    const card = await concord(['card', 'get', '-a', agent.url, '-o', 'json']);
    const file = join(dir, 'spec-card.json');
    writeFileSync(file, card.stdout);
    for (const ref of [file, pathToFileURL(file).href]) {
      const run = await concord(['card', 'get', '-a', ref]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Name: Spec Agent\n');
    }
    const task = await sendJson(['-a', file, 'through the file']);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    // Security schemes are presented too.
    const secured = await concord(['card', 'get', '-a', extended.url]);
    expect(secured.stdout).toContain('Security scheme: jwt http Bearer\n');
    expect(secured.stdout).toContain('Extended card: true\n');
  });

  it('A2ACLI_CARD_GET_002: --validate checks the card against A2A; an invalid one exits 1', async () => {
    const valid = await concord(['card', 'get', '-a', agent.url, '--validate']);
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stderr).toContain('card is valid A2A 1.0');
    const file = join(dir, 'bad-card.json');
    const card = JSON.parse((await concord(['card', 'get', '-a', agent.url, '-o', 'json'])).stdout) as Record<
      string,
      unknown
    >;
    const skills = card.skills as unknown[];
    writeFileSync(file, JSON.stringify({ ...card, skills: [...skills, ...skills] }));
    const invalid = await concord(['card', 'get', '-a', file, '--validate', '-o', 'json']);
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_CARD_INVALID' } });
    expect(invalid.stderr).toMatch(/error: \/skills\/1\/id: .*already the id/);
    // Without --validate the same card is shown as it is.
    expect((await concord(['card', 'get', '-a', file])).code).toBe(0);
  });

  it('A2ACLI_CARD_GET_003: --extended fetches the authenticated extended card with a scheme the public card advertises', async () => {
    const run = await concord([
      'card',
      'get',
      '-a',
      extended.url,
      '--extended',
      '--bearer',
      'insider',
      '-o',
      'json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'Spec Agent (extended)' });
    const anonymous = await concord(['card', 'get', '-a', extended.url, '--extended', '-o', 'json']);
    expect(anonymous.code).toBe(4);
    expect(JSON.parse(anonymous.stdout)).toMatchObject({ error: { code: 'UnauthenticatedError' } });
    // An agent that declares no extended card is not asked.
    const none = await concord(['card', 'get', '-a', agent.url, '--extended', '--bearer', 'insider']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('does not declare an extended card');
  });

  it('A2ACLI_AUTH_008: a credential no scheme on the public card accepts is never presented to the card endpoint', async () => {
    presented.length = 0;
    const run = await concord([
      'card',
      'get',
      '-a',
      extended.url,
      '--extended',
      '--api-key',
      'k-secret',
      '-o',
      'json',
    ]);
    expect(run.code).toBe(4);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_AUTH_FAILED' } });
    expect(presented).not.toContain('k-secret');
  });

  it('A2ACLI_CARD_GET_004: reports a signature as absent (no failure) or unverifiable, never verified without an anchor', async () => {
    const absent = await concord(['card', 'get', '-a', agent.url]);
    expect(absent.code).toBe(0);
    expect(absent.stdout).toContain('Signature: absent\n');
    const card = JSON.parse((await concord(['card', 'get', '-a', agent.url, '-o', 'json'])).stdout) as Record<
      string,
      unknown
    >;
    const file = join(dir, 'signed-card.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...card,
        signatures: [{ protected: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0', signature: 'AAAA' }],
      }),
    );
    const signed = await concord(['card', 'get', '-a', file]);
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(/^Signature: unverifiable \(1 signature/m);
    expect(signed.stdout).not.toMatch(/Signature: verified/);
    const json = await concord(['card', 'get', '-a', file, '-o', 'json']);
    expect(json.stderr).toContain('signature: unverifiable');
  });
});

describe('send and the task commands', () => {
  it('A2ACLI_SEND_001: send -a <ref> starts an interaction and renders the result', async () => {
    const run = await concord(['send', '-a', agent.url, 'hello there']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('hello there');
    expect(run.stdout).toContain('State: TASK_STATE_COMPLETED\n');
    const json = await concord(['send', '-a', agent.url, 'hello there', '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('A2ACLI_TASK_GET_001: task get reports ids, state and artifacts; --history maps to historyLength; -o json is the Task', async () => {
    const sent = await sendJson(['-a', agent.url, 'remember me']);
    const text = await concord(['task', 'get', sent.id, '-a', agent.url, '--history', '1']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(sent.id);
    expect(text.stdout).toContain(sent.contextId);
    expect(text.stdout).toContain('State: TASK_STATE_COMPLETED\n');
    expect(text.stdout).toContain('remember me');
    const json = await concord(['task', 'get', sent.id, '-a', agent.url, '--history', '1', '-o', 'json']);
    const task = JSON.parse(json.stdout) as TaskJson;
    expect(task).toMatchObject({
      id: sent.id,
      contextId: sent.contextId,
      status: { state: 'TASK_STATE_COMPLETED' },
    });
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'remember me' }]);
    expect(task.history).toHaveLength(1);
    // The earlier spelling still works.
    expect((await concord(['get', agent.url, sent.id, '--json'])).stdout).toBe(
      (await concord(['task', 'get', sent.id, '-a', agent.url, '-o', 'json'])).stdout,
    );
  });

  it('A2ACLI_TASK_CANCEL_001: task cancel reports the resulting state; a second cancel is the protocol error', async () => {
    const task = (
      JSON.parse((await concord(['send', '-a', agent.url, 'wait', '--async', '-o', 'json'])).stdout) as {
        task: TaskJson;
      }
    ).task;
    const canceled = await concord(['task', 'cancel', task.id, '-a', agent.url, '-o', 'json']);
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(JSON.parse(canceled.stdout)).toMatchObject({
      id: task.id,
      status: { state: 'TASK_STATE_CANCELED' },
    });
    const again = await concord(['task', 'cancel', task.id, '-a', agent.url, '-o', 'json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'TaskNotCancelableError' } });
  });

  it('A2ACLI_TASK_LIST_001: task list filters by context and status, pages by cursor; -o json the response, --stream a Task per line', async () => {
    const context = crypto.randomUUID();
    for (const text of ['one', 'two', 'three'])
      await sendJson(['-a', agent.url, text, '--context-id', context]);
    const first = await concord([
      'task',
      'list',
      '-a',
      agent.url,
      '--context-id',
      context,
      '--page-size',
      '2',
      '-o',
      'json',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const page = JSON.parse(first.stdout) as { tasks: TaskJson[]; nextPageToken: string; totalSize: number };
    expect(page.tasks).toHaveLength(2);
    expect(page.totalSize).toBe(3);
    const second = await concord([
      'task',
      'list',
      '-a',
      agent.url,
      '--context-id',
      context,
      '--page-token',
      page.nextPageToken,
      '-o',
      'json',
    ]);
    expect((JSON.parse(second.stdout) as { tasks: TaskJson[] }).tasks).toHaveLength(1);
    const filtered = await concord([
      'task',
      'list',
      '-a',
      agent.url,
      '--context-id',
      context,
      '--status',
      'working',
      '-o',
      'json',
    ]);
    expect((JSON.parse(filtered.stdout) as { tasks: TaskJson[] }).tasks).toHaveLength(0);
    const lines = await concord([
      'task',
      'list',
      '-a',
      agent.url,
      '--context-id',
      context,
      '-o',
      'json',
      '--stream',
    ]);
    const tasks = lines.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as TaskJson);
    expect(tasks).toHaveLength(3);
    expect(tasks.every((t) => t.contextId === context)).toBe(true);
  });

  it('A2ACLI_TASK_SUBSCRIBE_001: task subscribe -o json is the terminal Task; --stream a StreamResponse per line', async () => {
    for (const stream of [false, true]) {
      const task = (
        JSON.parse((await concord(['send', '-a', agent.url, 'wait', '--async', '-o', 'json'])).stdout) as {
          task: TaskJson;
        }
      ).task;
      const follower = startConcord([
        'task',
        'subscribe',
        task.id,
        '-a',
        agent.url,
        '-o',
        'json',
        ...(stream ? ['--stream'] : []),
      ]);
      // The first event is the Task: wait for the agent to have the subscriber before canceling.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect((await concord(['task', 'cancel', task.id, '-a', agent.url])).code).toBe(0);
      const run = await follower.exited;
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      if (!stream) {
        expect(lines).toHaveLength(1);
        expect(JSON.parse(lines[0]!)).toMatchObject({
          id: task.id,
          status: { state: 'TASK_STATE_CANCELED' },
        });
      } else {
        const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
        expect(Object.keys(events[0]!)).toEqual(['task']);
        expect(events.at(-1)).toMatchObject({
          statusUpdate: { taskId: task.id, status: { state: 'TASK_STATE_CANCELED' } },
        });
      }
    }
  });

  it('A2ACLI_TASK_SUBSCRIBE_002: a re-subscription starts with the full Task, so no separate get is needed', async () => {
    const task = (
      JSON.parse((await concord(['send', '-a', agent.url, 'stream 60', '--async', '-o', 'json'])).stdout) as {
        task: TaskJson;
      }
    ).task;
    await new Promise((resolve) => setTimeout(resolve, 150));
    const run = await concord(['task', 'subscribe', task.id, '-a', agent.url, '-o', 'json', '--stream']);
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(events[0]!)).toEqual(['task']);
    expect((events[0] as { task: TaskJson }).task.id).toBe(task.id);
    // Sixty chunks take 3 s, so the subscribe (a new process) comes before the end even on a busy
    // machine; the task then holds them all: what the first Task carried plus what followed.
    const whole = await concord(['task', 'get', task.id, '-a', agent.url, '-o', 'json']);
    expect((JSON.parse(whole.stdout) as TaskJson).artifacts?.[0]?.parts).toHaveLength(60);
  });

  it('A2ACLI_PUSH_001: task push-config create, get, list and delete', async () => {
    const pushing = await startPushServer();
    try {
      const task = (
        JSON.parse((await concord(['send', '-a', pushing.url, 'wait', '--async', '-o', 'json'])).stdout) as {
          task: TaskJson;
        }
      ).task;
      const via = ['-a', pushing.url, '-o', 'json'];
      const created = await concord([
        'task',
        'push-config',
        'create',
        task.id,
        ...via,
        '--push-url',
        'http://127.0.0.1:9/hook',
        '--id',
        'h1',
      ]);
      expect(created.code, created.stderr).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({
        id: 'h1',
        taskId: task.id,
        url: 'http://127.0.0.1:9/hook',
      });
      const got = await concord(['task', 'push-config', 'get', task.id, 'h1', ...via]);
      expect(JSON.parse(got.stdout)).toMatchObject({ id: 'h1' });
      const listed = await concord(['task', 'push-config', 'list', task.id, ...via]);
      expect((JSON.parse(listed.stdout) as { configs: { id: string }[] }).configs.map((c) => c.id)).toEqual([
        'h1',
      ]);
      expect((await concord(['task', 'push-config', 'delete', task.id, 'h1', ...via])).code).toBe(0);
      const gone = await concord(['task', 'push-config', 'get', task.id, 'h1', ...via]);
      expect(gone.code).toBe(1);
      await concord(['task', 'cancel', task.id, '-a', pushing.url]);
    } finally {
      await pushing.close();
    }
  });
});

describe('interaction', () => {
  it('A2ACLI_INTERACT_001: --context-id attaches the turn to an existing context as a new task', async () => {
    const first = await sendJson(['-a', agent.url, 'first']);
    const second = await sendJson(['-a', agent.url, 'second', '--context-id', first.contextId]);
    expect(second.contextId).toBe(first.contextId);
    expect(second.id).not.toBe(first.id);
  });

  it('A2ACLI_INTERACT_002: --task-id continues a task, with or without --context-id; a rejected id creates no task', async () => {
    const asked = await sendJson(['-a', agent.url, 'ask']);
    expect(asked.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const answered = await sendJson(['-a', agent.url, 'blue', '--task-id', asked.id]);
    expect(answered).toMatchObject({
      id: asked.id,
      contextId: asked.contextId,
      status: { state: 'TASK_STATE_COMPLETED' },
    });
    const before = (await agent.store.list({ pageSize: 1, tenant: '', owner: '' })).totalSize;
    const wrong = await concord(['send', '-a', agent.url, 'hi', '--task-id', 'no-such-task', '-o', 'json']);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ error: { code: 'TaskNotFoundError' } });
    const mismatched = await concord([
      'send',
      '-a',
      agent.url,
      'hi',
      '--task-id',
      answered.id,
      '--context-id',
      'other',
      '-o',
      'json',
    ]);
    expect(mismatched.code).toBe(1);
    expect((await agent.store.list({ pageSize: 1, tenant: '', owner: '' })).totalSize).toBe(before);
  });

  it('A2ACLI_INTERACT_003: never fabricates a taskId or contextId; only the messageId is made up', async () => {
    const fake = await startFakeAgent(() => ({
      message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] },
    }));
    try {
      expect((await concord(['send', '-a', fake.url, 'hello'])).code).toBe(0);
      expect((await concord(['send', '-a', fake.url, 'again', '--context-id', 'c-7'])).code).toBe(0);
      const [plain, withContext] = fake.calls.map((c) => c.params.message as Record<string, unknown>);
      expect(plain).not.toHaveProperty('taskId');
      expect(plain).not.toHaveProperty('contextId');
      expect(plain?.messageId).toMatch(/^[0-9a-f-]{36}$/);
      expect(withContext).toMatchObject({ contextId: 'c-7' });
      expect(withContext).not.toHaveProperty('taskId');
    } finally {
      await fake.close();
    }
  });

  it('A2ACLI_INTERACT_005: stateless: a send after a send carries no ids from it', async () => {
    const fake = await startFakeAgent(() => ({ task: wireTask('t-1', 'TASK_STATE_INPUT_REQUIRED') }));
    try {
      expect((await concord(['send', '-a', fake.url, 'one'])).code).toBe(0);
      expect((await concord(['send', '-a', fake.url, 'two'])).code).toBe(0);
      const second = fake.calls[1]!.params.message as Record<string, unknown>;
      expect(second).not.toHaveProperty('taskId');
      expect(second).not.toHaveProperty('contextId');
    } finally {
      await fake.close();
    }
  });
});

describe('help and version', () => {
  it('A2ACLI_CLI_001: help and <command> --help print usage and exit 0; -v/--version print the version', async () => {
    for (const args of [
      ['help'],
      ['--help'],
      ['help', 'send'],
      ['send', '--help'],
      ['help', 'task', 'get'],
      ['task', 'get', '--help'],
      ['help', 'card', 'get'],
      ['card', 'get', '-h'],
    ]) {
      const run = await concord(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: concord /);
    }
    expect((await concord(['help', 'task', 'get'])).stdout).toBe(
      (await concord(['task', 'get', '--help'])).stdout,
    );
    for (const flag of ['-v', '--version'])
      expect((await concord([flag])).stdout).toMatch(/^concord \d+\.\d+\.\d+/);
    // The defaults are shown with the options.
    const help = (await concord(['send', '--help'])).stdout;
    for (const text of [
      'text (default',
      '1.0 (default)',
      "(default: the card's order)",
      'the default)',
      '$A2ACLI_BEARER',
    ]) {
      expect(help).toContain(text);
    }
  });
});
