/**
 * `concord check` (the CLI) against the agent served by the official SDK (`@a2a-js/sdk` 1.3.0,
 * every interface it serves). What it reports is recorded here: each failing rule was traced to
 * the SDK's own behaviour (not to the check), and Concord allows none (decision 0047).
 * - 12: a JSON-RPC request object without `method` gets -32602, not -32600 (JSON-RPC 2.0 §5.1);
 *   a SendMessage whose message has no role and no parts is accepted (and runs a task).
 * - 59: a message part with no content (1.0 `{}`, 0.3 `{"kind":"text"}`) is accepted on JSON-RPC
 *   (both versions) and 1.0 REST; A2A 1.0 §4.1.6 requires exactly one content member.
 * - 8: 0.3 REST refuses that same empty part while 0.3 JSON-RPC accepts it: the bindings differ.
 * The SDK streams carry no SSE `id:` lines (a warning: A2A does not require them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/check/index.js';
import { checkJson, failedRules } from '../check/helpers/run-cli.js';
import { startSdkServer, type SdkServer } from './helpers/sdk-server.js';

let sdk: SdkServer;
let report: CheckReport;
let code: number;
beforeAll(async () => {
  sdk = await startSdkServer();
  const checked = await checkJson(sdk.url, ['--wait-text', 'wait']);
  report = checked.report;
  code = checked.run.code;
}, 60_000);
afterAll(async () => {
  await sdk.close();
});

const rule = (id: number) => report.rules.find((r) => r.id === id)!;

describe('concord check against the @a2a-js/sdk server', () => {
  it('exercises all four interfaces the SDK card declares', () => {
    expect(report.interfaces).toEqual([
      `JSONRPC 1.0 ${sdk.url}`,
      `HTTP+JSON 1.0 ${sdk.restUrl}`,
      `JSONRPC 0.3 ${sdk.url}`,
      `HTTP+JSON 0.3 ${sdk.restUrl}`,
    ]);
  });

  it('fails exactly the rules the SDK deviates on, and exits 1', () => {
    expect(failedRules(report)).toEqual([8, 12, 59]);
    expect(code).toBe(1);
  });

  it('names the evidence of each deviation', () => {
    expect(rule(12).failures.map((f) => f.expected)).toEqual([
      'a request object without a method: InvalidRequestError (-32600), got -32602 INVALID_PARAMS (HTTP 200)',
      'SendMessage with an invalid message: InvalidParamsError (-32602)',
    ]);
    expect(rule(12).failures[1]!.received).toContain('"result":{"task"');
    expect(rule(59).failures.map((f) => f.where.split(' ').slice(0, 2).join(' '))).toEqual([
      'JSONRPC 1.0',
      'HTTP+JSON 1.0',
      'JSONRPC 0.3',
    ]);
    expect(rule(8).failures.map((f) => f.received)).toEqual(['empty-part: ok vs error -32602']);
  });

  it('passes the rest, streams and subscriptions included', () => {
    const passed = report.rules.filter((r) => r.outcome === 'pass').map((r) => r.id);
    expect(passed).toEqual(
      expect.arrayContaining([
        1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 13, 14, 15, 16, 17, 20, 21, 22, 24, 25, 26, 27, 28,
      ]),
    );
    expect(passed).toEqual(
      expect.arrayContaining([29, 30, 31, 33, 34, 35, 36, 37, 38, 39, 40, 47, 48, 50, 53, 60, 62, 63]),
    );
    expect(rule(29).warnings.map((w) => w.expected)).toEqual(
      Array(4).fill(expect.stringContaining('this stream has none')),
    );
  });
});
