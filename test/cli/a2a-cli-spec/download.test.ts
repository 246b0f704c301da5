/**
 * `task download` through the real `concord` binary (a2a-cli SPEC v0.2 §5.1, §8.2;
 * A2ACLI_DOWNLOAD_001): a task's artifacts saved as files, each part one file, bytes as the agent
 * sent them, a URL listed and not fetched, nothing overwritten and nothing written outside --dir.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { concord } from '../cli-process.js';
import { startFakeAgent, startSpecAgent, wireTask } from './spec-fixtures.js';

describe('task download', () => {
  let agent: EchoServer;
  let dir: string;
  beforeAll(async () => {
    agent = await startSpecAgent();
    dir = mkdtempSync(join(tmpdir(), 'concord-download-'));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("A2ACLI_DOWNLOAD_001: task download saves each part of a task's artifacts as a file; a URL is listed, not fetched; nothing is overwritten", async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    const input = join(dir, 'report.bin');
    writeFileSync(input, bytes);
    const sent = await concord([
      'send',
      '-a',
      agent.url,
      '--text',
      'hello',
      '--data',
      '{"order":42}',
      '--file',
      input,
      '--file',
      'https://files.example/big.pdf',
      '--media-type',
      'application/octet-stream',
      '-o',
      'json',
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const task = (JSON.parse(sent.stdout) as { task: { id: string } }).task;
    const out = join(dir, 'out');
    const run = await concord(['task', 'download', task.id, '-a', agent.url, '--dir', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Task: ${task.id}\n`);
    expect(run.stdout).toContain('State: TASK_STATE_COMPLETED\n');
    expect(readFileSync(join(out, 'echo-1.txt'), 'utf8')).toBe('hello');
    expect(JSON.parse(readFileSync(join(out, 'echo-2.json'), 'utf8'))).toEqual({ order: 42 });
    expect(readFileSync(join(out, 'report.bin')).equals(bytes)).toBe(true);
    expect(run.stdout).toMatch(
      /^Not fetched: https:\/\/files\.example\/big\.pdf \(.+ part 4, application\/octet-stream\)$/m,
    );
    expect(readdirSync(out).sort()).toEqual(['echo-1.txt', 'echo-2.json', 'report.bin']);

    // A second download takes free names; the first files stay as they were.
    writeFileSync(join(out, 'echo-1.txt'), 'mine');
    const again = await concord(['task', 'download', task.id, '-a', agent.url, '--dir', out, '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    const { files } = JSON.parse(again.stdout) as {
      files: { path: string | null; bytes: number | null; url: string | null }[];
    };
    expect(files.map((f) => f.path)).toEqual([
      join(out, 'echo-1-2.txt'),
      join(out, 'echo-2-2.json'),
      join(out, 'report-2.bin'),
      null,
    ]);
    expect(files[2]!.bytes).toBe(bytes.length);
    expect(files[3]!.url).toBe('https://files.example/big.pdf');
    expect(readFileSync(join(out, 'echo-1.txt'), 'utf8')).toBe('mine');
    const help = (await concord(['help', 'task', 'download'])).stdout;
    expect(help).toContain('Saves a task');
  });

  it('A2ACLI_DOWNLOAD_001: saves a task larger than --max-response-bytes, a part at a time (decision 0173)', async () => {
    // Three parts of 600 KB (800 KB as base64), a bound of 1 MB: the task could not be read whole.
    const chunks = [0, 1, 2].map((n) => Buffer.alloc(600_000, n + 7));
    const fake = await startFakeAgent(() =>
      wireTask('t-big', 'TASK_STATE_COMPLETED', {
        artifacts: [
          { artifactId: 'skip-me', parts: [{ text: 'not wanted' }] },
          {
            artifactId: 'a-big',
            name: 'big.bin',
            parts: chunks.map((c) => ({ raw: c.toString('base64'), mediaType: 'application/octet-stream' })),
          },
        ],
      }),
    );
    try {
      const out = join(dir, 'big');
      const args = [
        'task',
        'download',
        't-big',
        '-a',
        fake.url,
        '--dir',
        out,
        '--max-response-bytes',
        '1000000',
      ];
      const whole = await concord([
        'task',
        'get',
        't-big',
        '-a',
        fake.url,
        '--max-response-bytes',
        '1000000',
      ]);
      expect(whole.code).not.toBe(0);
      const run = await concord([...args, '--artifact', 'a-big', '-o', 'json']);
      expect(run.code, run.stderr).toBe(0);
      const { files } = JSON.parse(run.stdout) as { files: { path: string; bytes: number; part: number }[] };
      expect(files.map((f) => [f.path, f.bytes, f.part])).toEqual(
        chunks.map((c, i) => [join(out, `big.bin-${i + 1}`), c.length, i + 1]),
      );
      for (const [i, c] of chunks.entries())
        expect(readFileSync(join(out, `big.bin-${i + 1}`)).equals(c)).toBe(true);
      // Nothing else is left in --dir: the unwanted artifact's part, and no temporary file.
      expect(readdirSync(out).sort()).toEqual(['big.bin-1', 'big.bin-2', 'big.bin-3']);
    } finally {
      await fake.close();
    }
  });

  it('A2ACLI_DOWNLOAD_001: an artifact the client cannot read does not shift the others, and a failure leaves no temporary file', async () => {
    // `artifactId: 5` is not a string: read liberally, that artifact is kept unread in its place,
    // so the report's part is saved as the report.
    const fake = await startFakeAgent((call) =>
      wireTask('t-odd', 'TASK_STATE_COMPLETED', {
        artifacts: [
          { artifactId: 5, parts: [{ text: 'from the odd artifact' }] },
          { artifactId: 'report', name: 'report', parts: [{ text: 'the report' }] },
          ...((call.params as { id?: string }).id === 't-long'
            ? [{ artifactId: 'long', parts: [{ raw: 'eA==', filename: `${'n'.repeat(300)}.bin` }] }]
            : []),
        ],
      }),
    );
    try {
      const out = join(dir, 'odd');
      const run = await concord([
        'task',
        'download',
        't-odd',
        '-a',
        fake.url,
        '--dir',
        out,
        '--artifact',
        'report',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(readdirSync(out)).toEqual(['report.txt']);
      expect(readFileSync(join(out, 'report.txt'), 'utf8')).toBe('the report');
      // A name the file system refuses (over 255 bytes) fails the command; nothing waits behind.
      const failed = await concord([
        'task',
        'download',
        't-long',
        '-a',
        fake.url,
        '--dir',
        join(dir, 'long'),
      ]);
      expect(failed.code).not.toBe(0);
      expect(readdirSync(join(dir, 'long')).filter((name) => name.startsWith('.concord-download-'))).toEqual(
        [],
      );
    } finally {
      await fake.close();
    }
  });

  it("A2ACLI_DOWNLOAD_001: an agent's file name cannot leave --dir", async () => {
    const fake = await startFakeAgent(() =>
      wireTask('t-1', 'TASK_STATE_COMPLETED', {
        artifacts: [
          {
            artifactId: 'a-1',
            name: '../../up',
            parts: [{ raw: Buffer.from('x').toString('base64'), filename: '../../escape.bin' }],
          },
        ],
      }),
    );
    try {
      const out = join(dir, 'safe');
      const run = await concord(['task', 'download', 't-1', '-a', fake.url, '--dir', out]);
      expect(run.code, run.stderr).toBe(0);
      expect(readdirSync(out)).toEqual(['escape.bin']);
      expect(readdirSync(dir)).not.toContain('escape.bin');
    } finally {
      await fake.close();
    }
  });
});
