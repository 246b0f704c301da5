/**
 * `concord serve --max-json-depth N` (decision 0144), through the built CLI: a code agent and a
 * host of agents both refuse a request nested N + 1 levels naming N and where, and serve one
 * nested N; a value that is not a bound, or one deeper than gRPC can carry with --grpc-port, is a
 * usage error (exit 2) before anything listens.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { concord, ROOT, startConcord } from './cli-process.js';

const ECHO = join(ROOT, 'examples/echo/agent.mjs');

/** `{m: {m: ... {}}}`: `levels` objects. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { m: value };
  return value;
}

/**
 * Sends over HTTP+JSON 1.0 a message whose metadata (level 3 of the body) nests `levels` objects,
 * so the body nests `levels + 2`.
 */
async function send(url: string, levels: number): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL('./message:send', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      message: {
        messageId: `m${levels}`,
        role: 'ROLE_USER',
        parts: [{ text: 'hi' }],
        metadata: nested(levels),
      },
    }),
  });
  return { status: response.status, text: await response.text() };
}

async function expectBound(url: string): Promise<void> {
  expect((await send(url, 4)).status).toBe(200); // 6 levels
  const refused = await send(url, 5); // 7 levels
  expect(refused.status).toBe(400);
  expect(refused.text).toContain(`"field":"/message/metadata/m/m/m/m"`);
  expect(refused.text).toContain('at most 6 levels');
  expect(refused.text).toContain('"maxJsonDepth":"6"');
}

async function served(args: string[], banner: RegExp, check: (url: string) => Promise<void>): Promise<void> {
  const serve = startConcord(['serve', ...args, '--port', '0', '--store', 'memory', '--no-push']);
  try {
    const out = await serve.until((s) => banner.test(s));
    await check(banner.exec(out)![1]!);
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}

describe('concord serve --max-json-depth', () => {
  it('a code agent: 6 levels served, 7 refused naming 6', async () => {
    await served([ECHO, '--max-json-depth', '6'], /serving "[^"]*" at (http:\/\/\S+\/)/, expectBound);
  });

  it('a host of agents: the same for its agents', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-depth-host-'));
    try {
      writeFileSync(join(dir, 'echo.mjs'), `export { executor } from ${JSON.stringify(ECHO)};\n`);
      writeFileSync(
        join(dir, 'concord.config.json5'),
        `{ agents: { list: [{ id: 'echo', description: 'echo', exposed: true, handler: './echo.mjs' }] } }`,
      );
      await served([dir, '--max-json-depth', '6'], /hosting \d+ agent\(s\) at (http:\/\/\S+\/)/, (url) =>
        expectBound(`${url}agents/echo/`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a value that is not a bound, or one gRPC cannot carry, with exit 2', async () => {
    const runs = await Promise.all([
      concord(['serve', ECHO, '--max-json-depth', '0']),
      concord(['serve', ECHO, '--max-json-depth', 'deep']),
      concord(['serve', ECHO, '--max-json-depth', '1001']),
      concord(['serve', ECHO, '--max-json-depth', '41', '--grpc-port', '0']),
    ]);
    for (const run of runs.slice(0, 3)) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--max-json-depth: expected 1-1000, got /);
    }
    expect(runs[3]!.code).toBe(2);
    expect(runs[3]!.stderr).toContain(
      '--max-json-depth: expected 1-40 (gRPC cannot carry deeper values back out), got 41',
    );
  });
});
