/**
 * `concord send|get|list|cancel|subscribe` as a user runs them: the built CLI as a child process
 * against the echo example on a real socket, over each binding and protocol version. Human output
 * is checked for the artifact text and the final state, `--json` output line by line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { concord, ndjson, startConcord } from './cli-process.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  await echo.close();
});

const INTERFACES = [
  ['jsonrpc', '1.0', 'JSONRPC'],
  ['rest', '1.0', 'HTTP+JSON'],
  ['jsonrpc', '0.3', 'JSONRPC'],
  ['rest', '0.3', 'HTTP+JSON'],
] as const;

/** The `task` of the first NDJSON record that has one. */
function firstTask(stdout: string): { id: string; contextId: string; status: { state: string } } {
  const record = ndjson(stdout).find((r) => 'task' in r);
  if (record === undefined) throw new Error(`no task in ${stdout}`);
  return record.task as { id: string; contextId: string; status: { state: string } };
}

describe.each(INTERFACES)('over %s %s', (binding, version, bindingName) => {
  const via = ['--binding', binding, '--a2a-version', version];

  it('send: prints the interface, the artifact text and the final state; exit 0', async () => {
    const run = await concord(['send', echo.url, 'hello', 'world', ...via]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Agent: Echo Agent\nInterface: ${bindingName} ${version} `);
    expect(run.stdout).toMatch(/^Artifact: echo \(\S+\)\necho: hello world\n\n/m);
    expect(run.stdout).toContain('State: TASK_STATE_COMPLETED\n');
  });

  it('send --stream: status changes, chunks in order, then completed', async () => {
    const run = await concord(['send', echo.url, 'stream 3', '--stream', ...via]);
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(
      /^Event: status-update\n(.+\n)*State: TASK_STATE_WORKING\n(.+\n)*Status message: Streaming 3 chunks\n/m,
    );
    const chunks = ['chunk 1 of 3\n', 'chunk 2 of 3\n', 'chunk 3 of 3\n'].map((c) => out.indexOf(c));
    expect(chunks.every((i) => i > 0)).toBe(true);
    expect([...chunks].sort((a, b) => a - b)).toEqual(chunks);
    // Each chunk is an artifact-update event of the same artifact.
    expect(out.match(/^Artifact: stream \(/gm)).toHaveLength(3);
    expect(out.lastIndexOf('State: TASK_STATE_COMPLETED')).toBeGreaterThan(chunks[2]!);
  });

  it('send --stream --json: one JSON event per line, ending completed', async () => {
    const run = await concord(['send', echo.url, 'stream 2', '--stream', '--json', ...via]);
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    expect(Object.keys(events[0]!)).toEqual(['task']);
    const chunks = events.filter((e) => 'artifactUpdate' in e) as {
      artifactUpdate: { artifact: { parts: { text: string }[] } };
    }[];
    expect(chunks.map((c) => c.artifactUpdate.artifact.parts[0]!.text)).toEqual([
      'chunk 1 of 2\n',
      'chunk 2 of 2\n',
    ]);
    expect(events.at(-1)).toMatchObject({ statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('get of an unknown task: the TaskNotFound code and reason, exit 1', async () => {
    const run = await concord(['get', echo.url, 'no-such-task', ...via]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('concord get: TaskNotFoundError');
    expect(run.stderr).toContain('code -32001, TASK_NOT_FOUND');
    if (binding === 'rest') expect(run.stderr).toContain('HTTP 404');
    const json = await concord(['get', echo.url, 'no-such-task', '--json', ...via]);
    expect(json.code).toBe(1);
    // The a2a-cli error envelope: the A2A error's name, its transport-level code.
    expect(ndjson(json.stdout)).toEqual([
      {
        error: {
          code: 'TaskNotFoundError',
          message: expect.stringContaining('TASK_NOT_FOUND') as unknown,
          hint: null,
          a2aCode: binding === 'rest' ? 404 : -32001,
        },
      },
    ]);
  });

  it('send --no-wait, subscribe live, cancel: subscribe reports canceled, exit 0 and a warning', async () => {
    const started = await concord(['send', echo.url, 'wait', '--no-wait', '--json', ...via]);
    expect(started.code).toBe(0);
    const task = firstTask(started.stdout);
    const follower = startConcord(['subscribe', echo.url, task.id, '--json', '--stream', ...via]);
    await follower.until((out) => out.includes('"task"'));
    const canceled = await concord(['cancel', echo.url, task.id, ...via]);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toContain(`Task: ${task.id}\n`);
    expect(canceled.stdout).toContain('State: TASK_STATE_CANCELED\n');
    const followed = await follower.exited;
    expect(followed.code).toBe(0);
    expect(followed.stderr).toContain(`warning: task ${task.id} ended TASK_STATE_CANCELED`);
    const events = ndjson(followed.stdout);
    const last = events.at(-1)!;
    const state =
      'task' in last
        ? (last.task as { status: { state: string } }).status.state
        : (last.statusUpdate as { status: { state: string } }).status.state;
    expect(state).toBe('TASK_STATE_CANCELED');
    // A second cancel is refused by the agent: an A2A error, exit 1.
    const again = await concord(['cancel', echo.url, task.id, ...via]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('TaskNotCancelableError');
  });
});

describe('send', () => {
  it('asks for input, shows how to reply, and completes on the reply (--task, --context)', async () => {
    const asked = await concord(['send', echo.url, 'ask']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('State: TASK_STATE_INPUT_REQUIRED\n');
    expect(asked.stdout).toContain('Status message: What should I echo?\n');
    const hint = /^Resume: concord send -a (\S+) --task-id (\S+) "<reply>"$/m.exec(asked.stdout);
    expect(hint).not.toBeNull();
    const [, url, taskId] = hint!;
    expect(url).toBe(echo.url);
    const contextId = /^Context: (\S+)$/m.exec(asked.stdout)![1]!;
    const done = await concord([
      'send',
      echo.url,
      'blue',
      '--task',
      taskId!,
      '--context',
      contextId!,
      '--json',
    ]);
    expect(done.code).toBe(0);
    const task = firstTask(done.stdout) as ReturnType<typeof firstTask> & {
      artifacts: { parts: { text: string }[] }[];
    };
    expect(task.id).toBe(taskId);
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts.at(-1)!.parts[0]!.text).toBe('echo: blue');
  });

  it('sends --data as a data part and prints the echoed data', async () => {
    const run = await concord(['send', echo.url, '--data', '{"order": 42, "items": ["a"]}']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Artifact: data \(\S+\)\n\{\n {2}"order": 42,/m);
    const json = await concord(['send', echo.url, '--data', '{"order": 42}', '--json']);
    const task = firstTask(json.stdout) as unknown as { artifacts: { parts: unknown[] }[] };
    expect(task.artifacts[0]!.parts[0]).toEqual({ data: { order: 42 }, mediaType: 'application/json' });
  });

  it('--contract wraps the payload in the contract envelope with the contract media type', async () => {
    const run = await concord([
      'send',
      echo.url,
      '--contract',
      'PlaceOrder',
      '--data',
      '{"sku": "X-1", "qty": 2}',
      '--correlation-id',
      'corr-7',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const task = firstTask(run.stdout) as unknown as {
      artifacts: { parts: unknown[] }[];
      history: { parts: unknown[] }[];
    };
    const envelope = {
      data: { _a2a: true, contract: 'PlaceOrder', payload: { sku: 'X-1', qty: 2 }, correlationId: 'corr-7' },
      mediaType: 'application/vnd.concord.contract+json',
    };
    // The echo agent returns the parts it received: what went out is exactly the envelope part.
    expect(task.artifacts[0]!.parts).toEqual([envelope]);
    // The text may carry the payload instead of --data; a correlation id is generated.
    const fromText = await concord(['send', echo.url, '{"sku":"Y"}', '--contract', 'PlaceOrder', '--json']);
    const sent = (firstTask(fromText.stdout) as unknown as { artifacts: { parts: { data: never }[] }[] })
      .artifacts[0]!.parts[0]!.data as { payload: unknown; correlationId: string };
    expect(sent.payload).toEqual({ sku: 'Y' });
    expect(sent.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bad input before sending anything, naming the problem; exit 2', async () => {
    const before = (await echo.store.list({ pageSize: 1, tenant: '', owner: '' })).totalSize;
    const bad = await concord(['send', echo.url, '--data', '{"order": }']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^concord send: --data is not valid JSON/);
    expect(bad.stderr).toContain("Unexpected token '}'");
    const notJson = await concord(['send', echo.url, 'not json', '--contract', 'PlaceOrder']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('the text (the --contract payload) is not valid JSON');
    const nothing = await concord(['send', echo.url]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to send');
    const binding = await concord(['send', echo.url, 'hi', '--binding', 'soap']);
    expect(binding.code).toBe(2);
    expect(binding.stderr).toContain('--binding: expected jsonrpc, rest or grpc, got "soap"');
    const unknown = await concord(['send', echo.url, 'hi', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--bogus'");
    const noUrl = await concord(['send']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('missing the agent URL');
    expect((await echo.store.list({ pageSize: 1, tenant: '', owner: '' })).totalSize).toBe(before);
  });
});

describe('get and list', () => {
  it('get prints state, artifacts and, with --history, the messages; --json the task', async () => {
    const sent = await concord(['send', echo.url, 'remember me', '--json']);
    const { id } = firstTask(sent.stdout);
    const run = await concord(['get', echo.url, id, '--history', '5']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Task: ${id}\n`);
    expect(run.stdout).toContain('State: TASK_STATE_COMPLETED\n');
    expect(run.stdout).toContain('echo: remember me\n');
    expect(run.stdout).toMatch(/^History: \d+ message\(s\)\nuser: remember me\n/m);
    const json = await concord(['get', echo.url, id, '--json']);
    const [task] = ndjson(json.stdout);
    expect(task).toMatchObject({ id, status: { state: 'TASK_STATE_COMPLETED' } });
  });

  it('list filters by context and pages; --json prints the page', async () => {
    const context = crypto.randomUUID();
    for (const text of ['one', 'two', 'three']) {
      expect((await concord(['send', echo.url, text, '--context', context])).code).toBe(0);
    }
    const first = await concord(['list', echo.url, '--context', context, '--page-size', '2']);
    expect(first.code).toBe(0);
    expect(first.stdout.match(new RegExp(`^Context: ${context}$`, 'gm'))).toHaveLength(2);
    expect(first.stdout.match(/^State: TASK_STATE_COMPLETED$/gm)).toHaveLength(2);
    expect(first.stdout).toContain('Tasks: 2 of 3\n');
    const token = /^Next page token: (\S+)$/m.exec(first.stdout)?.[1];
    expect(token).toBeDefined();
    const second = await concord(['list', echo.url, '--context', context, '--page-token', token!, '--json']);
    const [page] = ndjson(second.stdout) as [{ tasks: unknown[]; nextPageToken: string }];
    expect(page.tasks).toHaveLength(1);
    expect(page.nextPageToken).toBe('');
    const filtered = await concord(['list', echo.url, '--context', context, '--status', 'working', '--json']);
    expect((ndjson(filtered.stdout)[0] as { tasks: unknown[] }).tasks).toHaveLength(0);
  });

  it('list over 0.3 is refused locally (0.3 has no ListTasks): UnsupportedOperationError, exit 1', async () => {
    const run = await concord(['list', echo.url, '--a2a-version', '0.3']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('concord list: UnsupportedOperationError:');
    const badState = await concord(['list', echo.url, '--status', 'sleeping']);
    expect(badState.code).toBe(2);
    expect(badState.stderr).toContain('--status: unknown state "sleeping"');
  });
});
