/**
 * `concord check` against an agent whose card asks for credentials and offers an extended card:
 * without `--token` it verifies that calls are refused (rule 56) and skips the rest, naming the
 * option; with `--token` every call carries the bearer token, the extended-card rules (40, 41)
 * run, and the token never appears in the report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JS example module without type declarations
import * as echoExample from '../../examples/echo/agent.mjs';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { checkJson, failedRules } from './helpers/run-cli.js';

const TOKEN = 'check-token-0123456789';
const card = echoExample.agentCard as Record<string, unknown>;

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho({
    agentCard: {
      ...card,
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    } as never,
    extendedAgentCard: { ...card, description: 'The extended echo card' } as never,
    authenticate: (request) =>
      request.header('authorization') === `Bearer ${TOKEN}` ? { name: 'checker' } : undefined,
  });
});
afterAll(async () => {
  await echo.close();
});

describe('concord check against an agent that requires credentials', () => {
  it('without --token: checks that calls are refused, skips the rest naming --token', async () => {
    const { run, report } = await checkJson(echo.url);
    expect(failedRules(report)).toEqual([]);
    expect(run.code).toBe(0);
    expect(report.rules.find((r) => r.id === 56)).toMatchObject({ outcome: 'pass', passed: 4 });
    expect(report.rules.find((r) => r.id === 18)?.skipped).toEqual([
      'the card requires credentials: pass --token',
    ]);
  });

  it('with --token: every rule runs authenticated; the extended card needs the credentials', async () => {
    const { run, report } = await checkJson(echo.url, ['--token', TOKEN, '--wait-text', 'wait']);
    expect(failedRules(report)).toEqual([]);
    expect(run.code).toBe(0);
    const passed = report.rules.filter((r) => r.outcome === 'pass').map((r) => r.id);
    expect(passed).toEqual(expect.arrayContaining([18, 20, 25, 26, 34, 36, 40, 41, 56]));
    expect(run.stdout).not.toContain(TOKEN);
  });
});
