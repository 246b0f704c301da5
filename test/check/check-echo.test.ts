/**
 * `concord check` as a user runs it: the CLI as a child process against Concord's echo example,
 * itself served by `concord serve examples/echo` on a real socket. Every rule that can be tested
 * passes (exit 0); with `--wait-text wait` the open-task rules run too; the SSRF guard stays on
 * unless `--allow-private` is given.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAgent } from '../../src/check/index.js';
import { checkJson, failedRules, runCli, serveCli } from './helpers/run-cli.js';

const ECHO = resolve(import.meta.dirname, '../../examples/echo');

let server: Awaited<ReturnType<typeof serveCli>>;
beforeAll(async () => {
  server = await serveCli(ECHO);
});
afterAll(async () => {
  await server.stop();
});

// Rules a client can test against the echo agent (streaming and push on — `concord serve` offers
// push by default — extended card off, no security, no tenant, plain http on loopback, unsigned card).
const TESTED = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
  31, 33, 35, 37, 38, 40, 42, 43, 47, 48, 50, 53, 59, 60, 62, 63,
];

describe('concord check against the echo example', () => {
  it('passes every testable rule with --wait-text wait, and exits 0', async () => {
    const { run, report } = await checkJson(server.url, ['--wait-text', 'wait']);
    expect(failedRules(report)).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.ok).toBe(true);
    const url = server.url.slice(0, -1); // listed without the trailing slash (decision 0138)
    expect(report.interfaces).toEqual([
      `JSONRPC 1.0 ${url}`,
      `HTTP+JSON 1.0 ${url}`,
      `JSONRPC 0.3 ${url}`,
      `HTTP+JSON 0.3 ${url}`,
    ]);
    const passed = report.rules.filter((r) => r.outcome === 'pass').map((r) => r.id);
    expect(passed).toEqual(expect.arrayContaining([...TESTED, 20, 34, 36]));
    // Every skip says why, and none is an unexplained gap in the check.
    for (const rule of report.rules.filter((r) => r.outcome === 'skip')) {
      expect(rule.skipped.length).toBeGreaterThan(0);
      expect(rule.skipped.join(' ')).not.toMatch(/not exercised/);
    }
    // Push config create, get, list, delete twice and read back on both 1.0 interfaces.
    expect(report.rules.find((r) => r.id === 43)?.passed).toBeGreaterThanOrEqual(8);
    expect(report.rules.flatMap((r) => r.warnings)).toEqual([]);
  });

  it('prints a pass/fail table by rule number; open-task rules are skipped without --wait-text', async () => {
    const run = await runCli(['check', server.url, '--allow-private']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ +12 {2}pass {4}JSON-RPC: -32700 \/ -32600 \/ -32601 \/ -32602 where due$/m);
    expect(run.stdout).toMatch(
      /^ +34 {2}skip {4}SubscribeToTask starts with the current Task\n +needs a task that stays open: pass --wait-text/m,
    );
    expect(run.stdout).toMatch(/^ +44 {2}skip .*\n +needs a webhook receiver/m);
    expect(run.stdout).toContain('Result: conformant on every rule tested.');
    expect(run.stdout).not.toContain('FAIL');
  });

  it('trusts a loopback URL the user typed, and nothing else private (decision 0038)', async () => {
    const typed = await runCli(['check', server.url.replace('127.0.0.1', 'localhost'), '--json']);
    expect(typed.code).toBe(0);
    // As a library, the guard is on unless the caller lifts it: not even the card is fetched.
    const report = await checkAgent(server.url);
    expect(report.ok).toBe(false);
    const card = report.rules.find((r) => r.id === 1)!;
    expect(card.failures[0]?.received).toMatch(/127\.0\.0\.1.*(loopback|private)/i);
    expect(report.interfaces).toEqual([]);
  });

  it('explains its options and refuses a URL that is not http(s)', async () => {
    const help = await runCli(['check', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--wait-text <text>');
    const bad = await runCli(['check', 'ftp://example.com/']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('only http and https agent URLs are supported');
    const option = await runCli(['check', server.url, '--no-such-option']);
    expect(option.code).toBe(2);
  });
});
