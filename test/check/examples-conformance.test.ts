/**
 * Every example passes `concord check`: each is served by `concord serve` as its
 * README says, and checked once by the CLI as a child process, over every interface its card
 * declares. The agents example's model agent runs on a local OpenAI-compatible stub and its
 * calls need a bearer JWT (its config's requirement); the dealer takes AAP requests, not text,
 * and its card declares only its 1.0 interfaces (decision 0139).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { startOpenAiStub, type OpenAiStub } from '../helpers/openai-stub.js';
import { checkJson, failedRules, serveCli, type ServeOptions } from './helpers/run-cli.js';

const EXAMPLES = resolve(import.meta.dirname, '../../examples');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh --data-dir, so no example writes into the working directory. */
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-check-example-'));
  dirs.push(dir);
  return dir;
}

/** Serves `example`, checks `path` below its URL with `extra` flags, and returns the report. */
async function check(example: string, path: string, extra: string[], options: ServeOptions = {}) {
  const server = await serveCli(join(EXAMPLES, example), {
    ...options,
    args: ['--data-dir', dataDir(), ...(options.args ?? [])],
  });
  try {
    const url = new URL(path, server.url).href;
    const { run, report } = await checkJson(url, extra);
    return { url, code: run.code, report };
  } finally {
    await server.stop();
  }
}

/** Expects a clean pass: no failed rule, exit 0, and at least `passed` rules passed. */
function expectConformant(result: Awaited<ReturnType<typeof check>>, passed: number): void {
  const { report, code } = result;
  const failures = report.rules
    .filter((r) => r.outcome === 'fail')
    .map((r) => `${r.id}: ${r.failures.map((f) => `${f.where}: ${f.expected}`).join(' | ')}`);
  expect(failures).toEqual([]);
  expect(failedRules(report)).toEqual([]);
  expect(code).toBe(0);
  expect(report.summary.pass).toBeGreaterThanOrEqual(passed);
}

describe('concord check on every example', { timeout: 120_000 }, () => {
  it('echo', async () => {
    expectConformant(await check('echo', './', ['--wait-text', 'wait']), 48);
  });

  it('dealer (AAP requests; a card of 1.0 interfaces only)', async () => {
    const result = await check('dealer', './', ['--data', '{"type":"dealer.information.request"}']);
    // Interface URLs are listed without the trailing slash (decision 0138).
    const listed = result.url.replace(/\/$/, '');
    expect(result.report.interfaces).toEqual([`JSONRPC 1.0 ${listed}`, `HTTP+JSON 1.0 ${listed}`]);
    expectConformant(result, 20);
  });

  it('pipeline (its public coordinator)', async () => {
    expectConformant(await check('pipeline', 'agents/coordinator/', []), 40);
  });

  it('aump-negotiation (the seller)', async () => {
    expectConformant(await check('aump-negotiation', 'agents/seller/', []), 40);
  });

  it('agents (the model agent, on a stub model endpoint, with a bearer JWT)', async () => {
    const secret = 'an-example-secret-of-at-least-32-bytes';
    let stub: OpenAiStub | undefined;
    try {
      stub = await startOpenAiStub();
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('concord-check')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(Buffer.from(secret, 'utf8'));
      const env = { CONCORD_JWT_SECRET: secret, OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'stub' };
      const result = await check('agents', 'agents/ProcessOrder/', ['--token', token], { env });
      expectConformant(result, 40);
      expect(result.report.rules.find((r) => r.id === 56)?.outcome).toBe('pass');
      expect(stub.requests.length).toBeGreaterThan(0);
    } finally {
      await stub?.close();
    }
  });
});
