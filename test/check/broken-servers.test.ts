/**
 * `concord check` (the CLI, as a child process) against deliberately broken servers: a proxy in
 * front of the echo example breaks one thing at a time, and the check must name exactly the
 * rules that thing breaks, with evidence, and exit non-zero. The SSE-ids case shows the other
 * side: dropping `id:` lines breaks no A2A rule, so it is a warning and the exit code stays 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport, RuleResult } from '../../src/check/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startBreakingProxy, type Breakage, type BreakingProxy } from './helpers/breaking-proxy.js';
import { checkJson, failedRules, runCli } from './helpers/run-cli.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  await echo.close();
});

async function checkThrough(breakage: Breakage): Promise<{ code: number; report: CheckReport }> {
  let proxy: BreakingProxy | undefined;
  try {
    proxy = await startBreakingProxy(echo.url, breakage);
    const { run, report } = await checkJson(proxy.url, ['--wait-text', 'wait']);
    return { code: run.code, report };
  } finally {
    await proxy?.close();
  }
}

function rule(report: CheckReport, id: number): RuleResult {
  return report.rules.find((r) => r.id === id)!;
}

/** The members the breakages touch, on any JSON answer. */
interface AnswerJson {
  error?: { code?: number; message?: string | undefined };
  result?: Record<string, unknown>;
  capabilities: { pushNotifications?: boolean };
  [member: string]: unknown;
}

function rewriteJson(body: string, edit: (json: AnswerJson) => boolean): string {
  const json = JSON.parse(body) as AnswerJson;
  return edit(json) ? JSON.stringify(json) : body;
}

describe('concord check against broken servers', () => {
  it('wrong error codes: TaskNotFound answered as -32603 over JSON-RPC 1.0', async () => {
    const { code, report } = await checkThrough({
      answer(request, answer) {
        if (request.headers['a2a-version'] !== '1.0' || request.path !== '/') return;
        answer.body = rewriteJson(answer.body, (json) => {
          if (json.error?.code !== -32001) return false;
          json.error = { code: -32603, message: json.error.message };
          return true;
        });
      },
    });
    expect(code).toBe(1);
    // Unknown task ids: GetTask (25), CancelTask (28), a message naming one (21); and the two 1.0
    // bindings now disagree (8).
    expect(failedRules(report)).toEqual([8, 21, 25, 28]);
    const failure = rule(report, 25).failures[0]!;
    expect(failure.where).toMatch(/^JSONRPC 1\.0 /);
    expect(failure.expected).toContain('TaskNotFoundError (-32001), got -32603');
    expect(failure.sent).toMatch(/"method":"GetTask"/);
    expect(failure.received).toMatch(/"code":-32603/);
  });

  it('omits kind on 0.3 JSON-RPC results and stream events', async () => {
    const { code, report } = await checkThrough({
      answer(request, answer) {
        if (request.headers['a2a-version'] !== undefined || request.path !== '/') return;
        answer.body = rewriteJson(
          answer.body,
          (json) => json.result?.kind !== undefined && delete json.result.kind,
        );
      },
      sse: (chunk) => chunk.replace(/"result":\{"kind":"[a-z-]+",/g, '"result":{'),
    });
    expect(code).toBe(1);
    expect(failedRules(report)).toEqual([15, 30]);
    expect(rule(report, 15).failures[0]!.expected).toContain('/kind: kind is undefined');
    expect(rule(report, 30).failures[0]!.where).toMatch(/^JSONRPC 0\.3 /);
  });

  it('ignores A2A-Version: an unsupported version is served as 1.0', async () => {
    const { code, report } = await checkThrough({
      request(request) {
        if (request.headers['a2a-version'] === '99.0') request.headers['a2a-version'] = '1.0';
      },
    });
    expect(code).toBe(1);
    expect(failedRules(report)).toEqual([50]);
    expect(rule(report, 50).failures.map((f) => f.expected)).toEqual([
      expect.stringContaining('A2A-Version: 99.0: VersionNotSupportedError (-32009), got -32001'),
      expect.stringContaining('A2A-Version: 99.0: VersionNotSupportedError (-32009), got -32001'),
    ]);
  });

  it('answers tasks/get for unknown ids with a result over JSON-RPC', async () => {
    const { code, report } = await checkThrough({
      answer(request, answer) {
        if (request.path !== '/' || !/"method":"(GetTask|tasks\/get)"/.test(request.body)) return;
        answer.body = rewriteJson(answer.body, (json) => {
          if (json.error?.code !== -32001) return false;
          const id = (JSON.parse(request.body) as { params: { id: string } }).params.id;
          json.result =
            request.headers['a2a-version'] === '1.0'
              ? { id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } }
              : { kind: 'task', id, contextId: 'c', status: { state: 'completed' } };
          delete json.error;
          return true;
        });
      },
    });
    expect(code).toBe(1);
    // GetTask semantics (25) on both versions; JSON-RPC and REST now disagree (8).
    expect(failedRules(report)).toEqual([8, 25]);
    expect(rule(report, 25).failures.map((f) => f.where.split(' ').slice(0, 2).join(' '))).toEqual([
      'JSONRPC 1.0',
      'JSONRPC 0.3',
    ]);
  });

  it('lies in its card: pushNotifications true, but push calls are refused', async () => {
    const { code, report } = await checkThrough({
      answer(request, answer) {
        if (!request.path.startsWith('/.well-known/')) return;
        answer.body = rewriteJson(answer.body, (json) => (json.capabilities.pushNotifications = true));
      },
    });
    expect(code).toBe(1);
    expect(failedRules(report)).toEqual([6]);
    expect(rule(report, 6).failures[0]!.expected).toBe(
      'capabilities.pushNotifications is true, so push configs can be created',
    );
    expect(rule(report, 39).skipped).toEqual(['the card declares push notification support']);
  });

  it('drops the SSE event ids: a warning (A2A does not require them), exit 0', async () => {
    const { code, report } = await checkThrough({ sse: (chunk) => chunk.replace(/^id: .*\n/gm, '') });
    expect(failedRules(report)).toEqual([]);
    expect(code).toBe(0);
    const warnings = rule(report, 29).warnings;
    expect(warnings).toHaveLength(4);
    expect(warnings[0]!.expected).toContain('Last-Event-ID');
  });

  it('a server that is not an agent at all fails rule 1 and stops there', async () => {
    const proxy = await startBreakingProxy(echo.url, {
      answer(request, answer) {
        if (request.path.startsWith('/.well-known/')) {
          answer.status = 404;
          answer.body = '{"error":"not here"}';
        }
      },
    });
    try {
      const run = await runCli(['check', proxy.url, '--allow-private']);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^ +1 {2}FAIL {4}Card served at/m);
      expect(run.stdout).toContain('the agent card could not be read');
      expect(run.stdout).toContain('Result: NOT conformant.');
    } finally {
      await proxy.close();
    }
  });
});
