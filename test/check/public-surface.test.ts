/**
 * `concord-a2a/check` as a user imports it: by the package name (package.json `exports`), from a
 * separate Node process against the built files. The surface is the deliberate list of
 * src/check/index.ts, and the rule table (src/check/rules.ts) holds items 1 to 63 in order.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE_RULES } from '../../src/check/index.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('concord-a2a/check', () => {
  it('exports checkAgent, formatCheckReport and the rule table by package name', async () => {
    const script =
      "const m = await import('concord-a2a/check'); console.log(JSON.stringify(Object.keys(m).sort()));";
    const stdout = await new Promise<string>((done, fail) => {
      execFile(
        process.execPath,
        ['--input-type=module', '-e', script],
        { cwd: ROOT, timeout: 30_000 },
        (error, out, err) => (error === null ? done(out) : fail(new Error(`${error.message}\n${err}`))),
      );
    });
    expect(JSON.parse(stdout)).toEqual(['CONFORMANCE_RULES', 'checkAgent', 'formatCheckReport']);
  });

  it('numbers the rules 1 to 63, untestable ones with a reason', () => {
    expect(CONFORMANCE_RULES.map((r) => r.id)).toEqual(Array.from({ length: 63 }, (_, i) => i + 1));
    expect(CONFORMANCE_RULES.filter((r) => r.untestable !== undefined).map((r) => r.id)).toEqual([
      44, 45, 46, 51, 54, 57,
    ]);
  });
});
