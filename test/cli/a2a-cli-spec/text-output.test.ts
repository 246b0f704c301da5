/**
 * The `text` output floor of a2a-cli SPEC v0.2 §9.2 through the real `concord` binary
 * (A2ACLI_OUT_005), the resume command on a paused task (A2ACLI_INTERACT_004), and artifacts
 * rendered part by part, none dropped (A2ACLI_SEND_004).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { concord } from '../cli-process.js';
import { startFakeAgent, startSpecAgent, wireTask } from './spec-fixtures.js';

let agent: EchoServer;
beforeAll(async () => {
  agent = await startSpecAgent();
});
afterAll(async () => {
  await agent.close();
});

const BLOCKS = new Set(['Artifact', 'History', 'Content']);
const FIELD = /^([A-Z][A-Za-z ]*): (.*)$/;

/**
 * Reads text output as the floor defines it: fields, and blocks (a block label's line, its
 * content, a blank line). Fails on anything else; returns the labels in order.
 */
function readFloor(stdout: string): string[] {
  const control = [...stdout].filter((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && c !== '\n' && c !== '\t') || code === 0x7f;
  });
  expect(control).toEqual([]);
  const labels: string[] = [];
  let inBlock = false;
  for (const line of stdout.split('\n').slice(0, -1)) {
    if (inBlock) {
      if (line === '') inBlock = false;
      continue;
    }
    if (line === '') continue;
    const match = FIELD.exec(line);
    expect(match, `not a "Label: value" line: ${JSON.stringify(line)}`).not.toBeNull();
    labels.push(match![1]!);
    if (BLOCKS.has(match![1]!)) inBlock = true;
  }
  expect(inBlock, 'a block left open').toBe(false);
  return labels;
}

describe('the text floor', () => {
  it('A2ACLI_OUT_005: Label: value fields, blocks closed by a blank line, stable labels, no control sequences', async () => {
    const first = await concord(['send', '-a', agent.url, 'hello']);
    const second = await concord(['send', '-a', agent.url, 'hello']);
    const labels = readFloor(first.stdout);
    expect(labels).toEqual(readFloor(second.stdout));
    expect(labels).toEqual(['Agent', 'Interface', 'Task', 'Context', 'State', 'Timestamp', 'Artifact']);
    // Every command touching a task names its id, context and state.
    const id = /^Task: (\S+)$/m.exec(first.stdout)![1]!;
    for (const args of [
      ['task', 'get', id, '-a', agent.url, '--history', '2'],
      ['task', 'list', '-a', agent.url, '--page-size', '2'],
      ['send', '-a', agent.url, 'ask'],
      ['send', '-a', agent.url, 'wait', '--async'],
    ]) {
      const run = await concord(args);
      const seen = readFloor(run.stdout);
      for (const label of ['Task', 'Context', 'State']) expect(seen, args.join(' ')).toContain(label);
      if (args.includes('wait'))
        await concord(['task', 'cancel', /^Task: (\S+)$/m.exec(run.stdout)![1]!, '-a', agent.url]);
    }
    readFloor((await concord(['card', 'get', '-a', agent.url])).stdout);
    // An agent's text cannot put control sequences on the terminal.
    const hostile = await concord(['send', '-a', agent.url, 'red \x1b[31malert\x1b[0m bell\x07']);
    readFloor(hostile.stdout);
    expect(hostile.stdout).toContain('red \\x1b[31malert\\x1b[0m bell\\x07');
  });

  it('A2ACLI_OUT_005: under --stream each event is rendered in the same form and the last restates the ids and state', async () => {
    const run = await concord(['send', '-a', agent.url, 'stream 3', '--stream']);
    expect(run.code).toBe(0);
    const labels = readFloor(run.stdout);
    expect(labels.filter((l) => l === 'Event')).toHaveLength(6);
    const paragraphs = run.stdout.trimEnd().split('\n\n');
    const last = paragraphs.at(-1)!;
    const id = /^Task: (\S+)$/m.exec(run.stdout)![1]!;
    expect(last).toContain(`Task: ${id}\n`);
    expect(last).toMatch(/^Context: \S+$/m);
    expect(last).toMatch(/^State: TASK_STATE_COMPLETED$/m);
  });
});

describe('interaction', () => {
  it.each([
    ['ask', 'TASK_STATE_INPUT_REQUIRED'],
    ['auth', 'TASK_STATE_AUTH_REQUIRED'],
  ])(
    'A2ACLI_INTERACT_004: a task paused by %s reports its ids and state, and the exact command to resume it',
    async (word, state) => {
      const run = await concord(['send', '-a', agent.url, word]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`State: ${state}\n`);
      const id = /^Task: (\S+)$/m.exec(run.stdout)![1]!;
      expect(run.stdout).toMatch(/^Context: \S+$/m);
      const resume = /^Resume: concord send -a (\S+) --task-id (\S+) "<reply>"$/m.exec(run.stdout);
      expect(resume?.[1]).toBe(agent.url);
      expect(resume?.[2]).toBe(id);
      if (word === 'ask') {
        // The command does what it says, with the reply in place of <reply>.
        const answered = await concord(['send', '-a', resume![1]!, '--task-id', resume![2]!, 'green']);
        expect(answered.stdout).toContain(`Task: ${id}\n`);
        expect(answered.stdout).toContain('State: TASK_STATE_COMPLETED\n');
        expect(answered.stdout).toContain('answer: green\n');
      }
    },
  );
});

describe('artifacts', () => {
  it('A2ACLI_SEND_004: text as text, data as formatted JSON, files by name, media type and size; no part dropped', async () => {
    const parts = [
      { text: 'plain words' },
      { data: { total: 3, items: ['a'] }, mediaType: 'application/json' },
      { raw: Buffer.from('%PDF-').toString('base64'), filename: 'report.pdf', mediaType: 'application/pdf' },
      {
        url: 'https://files.example.com/big.bin',
        filename: 'big.bin',
        mediaType: 'application/octet-stream',
      },
    ];
    const fake = await startFakeAgent(() => ({
      task: wireTask('t-1', 'TASK_STATE_COMPLETED', {
        artifacts: [{ artifactId: 'a-1', name: 'mixed', parts }],
      }),
    }));
    try {
      const run = await concord(['send', '-a', fake.url, 'show me']);
      expect(run.code, run.stderr).toBe(0);
      readFloor(run.stdout);
      expect(run.stdout).toContain(
        'Artifact: mixed (a-1)\n' +
          'plain words\n' +
          '{\n  "total": 3,\n  "items": [\n    "a"\n  ]\n}\n' +
          '[file report.pdf, application/pdf, 5 bytes]\n' +
          '[file big.bin, application/octet-stream, size unknown, at https://files.example.com/big.bin]\n\n',
      );
      // The same through task get, and -o json keeps every part as received.
      const json = await concord(['send', '-a', fake.url, 'show me', '-o', 'json']);
      expect(
        (JSON.parse(json.stdout) as { task: { artifacts: { parts: unknown[] }[] } }).task.artifacts[0]!.parts,
      ).toEqual(parts);
    } finally {
      await fake.close();
    }
  });
});
