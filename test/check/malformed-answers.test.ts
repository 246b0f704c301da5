/**
 * `concord check` (the CLI, as a child process) never dies on a bad answer: a proxy in
 * front of the echo example answers malformed things — a ListTasks result without `tasks`,
 * members of the wrong type, bodies that are not JSON, stream events that are not JSON — and the
 * check still prints its whole report, fails the rules those answers break with a reason, and
 * exits 1 (a rule failed), with nothing on stderr: no crash line, no stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/index.js';
import { CONFORMANCE_RULES } from '../../src/check/index.js';
import { CheckRecorder } from '../../src/check/check-report.js';
import { guarded } from '../../src/check/probes/guarded-step.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startBreakingProxy, type Breakage } from './helpers/breaking-proxy.js';
import { failedRules, runCli } from './helpers/run-cli.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  await echo.close();
});

/** Runs the CLI through a proxy; the run must end with a whole report and exit 1. */
async function checkThrough(breakage: Breakage): Promise<CheckReport> {
  const proxy = await startBreakingProxy(echo.url, breakage);
  try {
    const run = await runCli(['check', proxy.url, '--allow-private', '--json', '--timeout', '3000']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.rules.map((r) => r.id)).toEqual(CONFORMANCE_RULES.map((r) => r.id));
    expect(report.ok).toBe(false);
    return report;
  } finally {
    await proxy.close();
  }
}

type Json = Record<string, unknown>;

/** Rewrites the JSON body of an answer (JSON-RPC `result` or the REST body). */
function rewriteResult(body: string, edit: (result: Json) => void): string {
  let json: Json;
  try {
    json = JSON.parse(body) as Json;
  } catch {
    return body;
  }
  const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  // JSON-RPC: the result only (an error envelope stays); REST: a body that is no error.
  if ('jsonrpc' in json ? !isObject(json.result) : 'error' in json) return body;
  edit('jsonrpc' in json ? (json.result as Json) : json);
  return JSON.stringify(json);
}

const isList = (request: { method: string; path: string; body: string }): boolean =>
  /"method":"ListTasks"/.test(request.body) ||
  (request.method === 'GET' && /^\/tasks(\?|$)/.test(request.path));

describe('a guarded step', () => {
  it('records a throw as a failure of its rule, with the message and no stack, and returns', async () => {
    const recorder = new CheckRecorder();
    await guarded(recorder, { rule: 26, where: 'JSONRPC 1.0 http://x/', what: 'ListTasks' }, () => {
      throw new TypeError("Cannot read properties of undefined (reading 'filter')\n    at list-checks.js:1");
    });
    const rule = recorder.report('http://x/', [], () => '').rules.find((r) => r.id === 26)!;
    expect(rule.outcome).toBe('fail');
    expect(rule.failures).toEqual([
      {
        where: 'JSONRPC 1.0 http://x/',
        expected: 'answers the check can read: the ListTasks checks stopped on one',
        received: "TypeError: Cannot read properties of undefined (reading 'filter')",
      },
    ]);
  });
});

describe('concord check on malformed answers', () => {
  it('a ListTasks answer without tasks: rule 26 fails with the reason, the run goes on', async () => {
    const report = await checkThrough({
      answer(request, answer) {
        if (isList(request)) answer.body = rewriteResult(answer.body, (result) => delete result.tasks);
      },
    });
    const rule26 = report.rules.find((r) => r.id === 26)!;
    expect(rule26.outcome).toBe('fail');
    expect(rule26.failures[0]!.expected).toContain('missing tasks');
    expect(rule26.failures[0]!.received).not.toContain('"tasks"');
    // Rules judged after ListTasks still ran and passed.
    for (const id of [29, 48, 59, 63]) expect(report.rules.find((r) => r.id === id)!.outcome).toBe('pass');
  });

  it('members of the wrong type in every result', async () => {
    const report = await checkThrough({
      answer(request, answer) {
        if (request.path.startsWith('/.well-known/')) return;
        answer.body = rewriteResult(answer.body, (result) => {
          if ('tasks' in result) result.tasks = [null, 7, 'x'];
          if ('status' in result) result.status = 42;
          if ('artifacts' in result) result.artifacts = { not: 'a list' };
          if ('task' in result) result.task = [];
          if ('id' in result) result.id = { nested: true };
        });
      },
    });
    // Each answer fails the shape rule of its dialect, naming the member at fault.
    expect(failedRules(report)).toEqual(expect.arrayContaining([15, 16, 62]));
    const shapes = report.rules.find((r) => r.id === 16)!.failures.map((f) => f.expected);
    expect(shapes).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/task: expected an object, got an array'),
        expect.stringContaining('/tasks/0: expected an object, got null'),
      ]),
    );
  });

  it('bodies that are not JSON, and stream events that are not JSON', async () => {
    const report = await checkThrough({
      answer(request, answer) {
        if (request.path.startsWith('/.well-known/')) return;
        if (/GetTask|tasks\/get|ListTasks/.test(request.body) || request.method === 'GET')
          answer.body = '<html>upstream hiccup</html>';
      },
      sse: (chunk) => chunk.replace(/^data: \{/gm, 'data: {{'),
    });
    const failed = failedRules(report);
    expect(failed).toEqual(expect.arrayContaining([25, 26, 29]));
    const rule25 = report.rules.find((r) => r.id === 25)!;
    expect(rule25.failures.map((f) => f.received).join(' ')).toContain('upstream hiccup');
  });

  it('a card whose members have the wrong types', async () => {
    const report = await checkThrough({
      answer(request, answer) {
        if (!request.path.startsWith('/.well-known/')) return;
        answer.body = rewriteResult(answer.body, (card) => {
          card.capabilities = null;
          card.skills = 5;
          card.securityRequirements = 'all';
          card.signatures = [1, null, {}];
        });
      },
    });
    expect(failedRules(report)).toEqual(expect.arrayContaining([2, 3, 61]));
  });

  it('prints the table, not a stack trace, when nothing is JSON at all', async () => {
    const proxy = await startBreakingProxy(echo.url, {
      answer(request, answer) {
        if (!request.path.startsWith('/.well-known/')) answer.body = 'null';
      },
    });
    try {
      const run = await runCli(['check', proxy.url, '--allow-private', '--timeout', '3000']);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('Result: NOT conformant.');
      expect(run.stdout).not.toMatch(/^\s+at /m);
    } finally {
      await proxy.close();
    }
  });
});
