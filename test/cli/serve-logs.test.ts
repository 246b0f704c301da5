/**
 * The logs of `concord serve` (decision 0158): with `--log-format json` every stdout line is one
 * JSON record, each answered request gets exactly one access line, and no credential the callers
 * sent (an API key, a bearer token) or the host holds (the JWT secret) appears anywhere in the
 * output. A real process hosting an agent behind both schemes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendText, serve, type Served } from './serve-helpers.js';

const API_KEY = 'logs-test-api-key-7f3a9c2e41d8';
const JWT_SECRET = 'logs-test-jwt-secret-0123456789abcdef0123456789';
const dir = mkdtempSync(join(tmpdir(), 'concord-serve-logs-'));
let served: Served;

beforeAll(async () => {
  mkdirSync(join(dir, 'handlers'));
  writeFileSync(
    join(dir, 'concord.config.json5'),
    `{
  security: {
    schemes: {
      bearer: { type: 'http', scheme: 'bearer', secret: { env: 'LOGS_JWT_SECRET' } },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', keys: [{ key: { env: 'LOGS_API_KEY' }, principal: 'ops' }] },
    },
    requirements: [{ bearer: [] }, { apiKey: [] }],
  },
}
`,
  );
  writeFileSync(
    join(dir, 'greeter.md'),
    '---\nname: greeter\nexposed: true\ndescription: Greets.\nhandler: ./handlers/greeter.mjs\n---\n',
  );
  writeFileSync(
    join(dir, 'handlers', 'greeter.mjs'),
    "export default (context, updater) => {\n  updater.addArtifact([{ text: 'hi ' + context.message.parts[0].text }]);\n  updater.complete();\n};\n",
  );
  served = await serve(
    [dir, '--port', '0', '--store', 'memory', '--log-format', 'json', '--log-level', 'info'],
    {
      LOGS_API_KEY: API_KEY,
      LOGS_JWT_SECRET: JWT_SECRET,
    },
  );
});

afterAll(async () => {
  await served?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('concord serve --log-format json', () => {
  it('writes only JSON records, one access line per request, and never a credential', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JWT_SECRET));
    const agent = `${served.url}agents/greeter/`;
    const targets: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await sendText(agent, `key ${i}`, { 'x-api-key': API_KEY });
      expect(response.status).toBe(200);
      await response.text();
      targets.push('key');
    }
    for (let i = 0; i < 2; i++) {
      const response = await sendText(agent, `token ${i}`, { authorization: `Bearer ${token}` });
      expect(response.status).toBe(200);
      await response.text();
      targets.push('token');
    }
    // A refused one is logged too, with its status and without the wrong key it carried.
    const refused = await sendText(agent, 'nope', { 'x-api-key': 'wrong-key-that-must-not-be-logged' });
    await refused.text();
    const code = await served.stop('SIGTERM');
    expect(code).toBe(0);

    const records = served
      .stdout()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.length).toBeGreaterThan(0);
    expect(records.some((record) => record.event === 'listening')).toBe(true);
    expect(records.some((record) => record.event === 'stopped')).toBe(true);
    const everything = served.stdout() + served.stderr();
    for (const secret of [API_KEY, token, JWT_SECRET, 'wrong-key-that-must-not-be-logged']) {
      expect(everything).not.toContain(secret);
    }
    // The listeners' onAccess hook (server/common/access-entry.ts) writes these.
    const access = records.filter((record) => record.kind === 'access');
    expect(access).toHaveLength(targets.length + 1);
    for (const record of access) {
      expect(record).toMatchObject({ method: 'POST', target: '/agents/greeter/' });
      expect(typeof record.durationMs).toBe('number');
    }
    expect(access.filter((record) => record.status === 200)).toHaveLength(targets.length);
  });
});
