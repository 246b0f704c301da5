/**
 * Message parts on `send`, a2a-cli SPEC v0.2 §8.2, through the real `concord` binary: repeatable
 * part flags kept in order (A2ACLI_SEND_006) and `--media-type` bound to the flag before it
 * (A2ACLI_SEND_005).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concord, ROOT, type CliRun } from '../cli-process.js';
import { startFakeAgent, type FakeAgent } from './spec-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'concord-parts-'));
const pdf = join(dir, 'report.pdf');
const blob = join(dir, 'blob');
const json = join(dir, 'order.json');
writeFileSync(pdf, '%PDF-1.7 fake');
writeFileSync(blob, Buffer.from([0, 1, 2, 255]));
writeFileSync(json, '{"order": 42, "items": ["a"]}');

let fake: FakeAgent;
beforeAll(async () => {
  fake = await startFakeAgent(() => ({
    message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] },
  }));
});
afterAll(async () => {
  await fake.close();
});

/** The parts of the last message the fake agent received. */
function sentParts(): Record<string, unknown>[] {
  const call = fake.calls.at(-1)!;
  return (call.params.message as { parts: Record<string, unknown>[] }).parts;
}

/** Runs `concord ...args` with `input` on its stdin. */
function concordWithInput(args: string[], input: string): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('part flags', () => {
  it('A2ACLI_SEND_006: --text, --file and --data are repeatable and keep their order in one message', async () => {
    const run = await concord([
      'send',
      '-a',
      fake.url,
      '--text',
      'first',
      '--file',
      pdf,
      '--data',
      json,
      '--file',
      `${fake.url}files/photo.png`,
      '--text',
      'last',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(sentParts()).toEqual([
      { text: 'first' },
      {
        raw: Buffer.from('%PDF-1.7 fake').toString('base64'),
        filename: 'report.pdf',
        mediaType: 'application/pdf',
      },
      { data: { order: 42, items: ['a'] }, mediaType: 'application/json' },
      { url: `${fake.url}files/photo.png`, filename: 'photo.png', mediaType: 'image/png' },
      { text: 'last' },
    ]);
    // The URL is the agent's to fetch: the CLI never asked for it.
    expect(fake.requests.some((r) => r.path.startsWith('/files/'))).toBe(false);
    // The later v0.2 spellings, and the text arguments where they stand.
    await concord([
      'send',
      '-a',
      fake.url,
      'hello',
      'there',
      '--data-part',
      json,
      '--text-part',
      'after',
      '--file-part',
      blob,
    ]);
    expect(sentParts()).toEqual([
      { text: 'hello there' },
      { data: { order: 42, items: ['a'] }, mediaType: 'application/json' },
      { text: 'after' },
      {
        raw: Buffer.from([0, 1, 2, 255]).toString('base64'),
        filename: 'blob',
        mediaType: 'application/octet-stream',
      },
    ]);
    // --data - reads the JSON from stdin; --data '{...}' still takes it inline.
    const piped = await concordWithInput(['send', '-a', fake.url, '--data', '-'], '{"from": "stdin"}');
    expect(piped.code, piped.stderr).toBe(0);
    expect(sentParts()).toEqual([{ data: { from: 'stdin' }, mediaType: 'application/json' }]);
    await concord(['send', '-a', fake.url, '--data', '{"inline": true}']);
    expect(sentParts()).toEqual([{ data: { inline: true }, mediaType: 'application/json' }]);
    // A file that is not there, or JSON that is not JSON, is a usage error before anything is sent.
    const before = fake.calls.length;
    expect((await concord(['send', '-a', fake.url, '--file', join(dir, 'missing.bin')])).code).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{"order": }');
    const bad = await concord(['send', '-a', fake.url, '--data', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.json is not valid JSON');
    expect(fake.calls.length).toBe(before);
  });

  it('A2ACLI_SEND_005: --media-type sets the type of the part flag right before it; inferred only when absent; alone it is a usage error', async () => {
    const run = await concord([
      'send',
      '-a',
      fake.url,
      '--file',
      pdf,
      '--media-type',
      'application/x-custom',
      '--file',
      pdf,
      '--text',
      '# Title',
      '--media-type',
      'text/markdown',
      '--data',
      json,
      '--media-type',
      'application/vnd.order+json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(sentParts().map((p) => p.mediaType)).toEqual([
      'application/x-custom',
      'application/pdf',
      'text/markdown',
      'application/vnd.order+json',
    ]);
    const before = fake.calls.length;
    for (const args of [
      ['--media-type', 'text/plain', '--text', 'x'],
      ['--text', 'x', '--media-type', 'text/plain', '--media-type', 'text/html'],
      ['hello', '--media-type', 'text/plain'],
      ['--text', 'x', '--media-type', 'not a type'],
    ]) {
      const refused = await concord(['send', '-a', fake.url, ...args, '-o', 'json']);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_USAGE' } });
    }
    expect(fake.calls.length).toBe(before);
  });
});
