/**
 * `concord card` on the client's resolver (decisions 0038, 0039), through the built CLI: the
 * legacy `/.well-known/agent.json` fallback, the SSRF guard on card URLs, and key sets for
 * `card verify` (a --jwks URL, a trusted jku) fetched through the same guard.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAgentCard } from '../../src/card/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startJsonServer, type JsonServer } from '../client/helpers/json-server.js';
import { concord } from './cli-process.js';

let echo: EchoServer;
let dir: string;
beforeAll(async () => {
  echo = await startEcho();
  dir = mkdtempSync(join(tmpdir(), 'concord-card-cli-'));
});
afterAll(async () => {
  await echo.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The echo agent's card as served in `version` (0.3: no A2A-Version header). */
async function echoCard(version: '0.3' | '1.0'): Promise<Record<string, unknown>> {
  const response = await fetch(`${echo.url}.well-known/agent-card.json`, {
    headers: version === '1.0' ? { 'a2a-version': '1.0' } : {},
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('concord card <url>', () => {
  let legacy: JsonServer;
  beforeAll(async () => {
    legacy = await startJsonServer({ '/.well-known/agent.json': { body: await echoCard('0.3') } });
  });
  afterAll(() => legacy.close());

  it('falls back to the legacy /.well-known/agent.json, prints and lints the card', async () => {
    const run = await concord(['card', legacy.url, '--card-version', '0.3']);
    expect(run.stderr).toContain(`${legacy.url}: card is valid A2A 0.3`);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'Echo Agent', protocolVersion: '0.3.0' });
    expect(legacy.requests.map((r) => r.path)).toEqual([
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
    ]);
  });

  it('refuses a private card URL before connecting and names the flag', async () => {
    const run = await concord(['card', 'http://10.1.2.3:9/']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('SSRF_BLOCKED');
    expect(run.stderr).toContain('pass --allow-private');
  });
});

describe('concord card verify: key sets through the guard', () => {
  let keys: JsonServer;
  let signedFile: string;
  let signedServer: JsonServer;

  beforeAll(async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' };
    keys = await startJsonServer({ '/jwks.json': { body: { keys: [jwk] } } });
    const card = await echoCard('1.0');
    signedFile = join(dir, 'signed.json');
    writeFileSync(
      signedFile,
      JSON.stringify({
        ...card,
        signatures: await signAgentCard(card, [{ kid: 'k1', alg: 'ES256', privateKey }]),
      }),
    );
    // A server whose card names a jku on its own origin: trusted with --trust-card-origin only.
    const holder: { card?: unknown } = {};
    signedServer = await startJsonServer({
      '/jwks.json': { body: { keys: [jwk] } },
      '/.well-known/agent-card.json': () => ({ body: holder.card }),
    });
    const jku = `${signedServer.url}jwks.json`;
    holder.card = {
      ...card,
      signatures: await signAgentCard(card, [{ kid: 'k1', alg: 'ES256', privateKey, jku }]),
    };
  });
  afterAll(async () => {
    await keys.close();
    await signedServer.close();
  });

  it('verifies a card file against a --jwks URL on loopback, fetched by the client', async () => {
    const run = await concord(['card', 'verify', signedFile, '--jwks', `${keys.url}jwks.json`]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('signature 0 verifies (kid k1, ES256)');
    expect(run.code).toBe(0);
    // The guarded fetcher asks for a JWK set by media type; jose's own fetch would not.
    const fetched = keys.requests.find((r) => r.path === '/jwks.json');
    expect(fetched?.headers.accept).toContain('application/jwk-set+json');
  });

  it('verifies a served card through its same-origin jku with --trust-card-origin, fetched by the client', async () => {
    const run = await concord(['card', 'verify', signedServer.url, '--trust-card-origin']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('signature 0 verifies (kid k1, ES256)');
    expect(run.stdout).toContain(`under key set ${signedServer.url}jwks.json on the card's origin`);
    expect(run.code).toBe(0);
    const fetched = signedServer.requests.find((r) => r.path === '/jwks.json');
    expect(fetched?.headers.accept).toContain('application/jwk-set+json');
  });

  it("does not trust the card's own origin unless asked (decision 0166)", async () => {
    const before = signedServer.requests.filter((r) => r.path === '/jwks.json').length;
    const run = await concord(['card', 'verify', signedServer.url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the key is not anchored');
    expect(run.stderr).toContain(
      'no trust anchor was given: pass --key, --jwks, --root or --trust-card-origin',
    );
    expect(signedServer.requests.filter((r) => r.path === '/jwks.json').length).toBe(before);
  });

  it('refuses a --jwks URL on a private network: the signature finds no key, exit 1', async () => {
    const run = await concord(['card', 'verify', signedFile, '--jwks', 'http://10.1.2.3:9/jwks.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no key for kid k1');
    expect(run.stderr).toContain('Refusing http://10.1.2.3:9/jwks.json');
  });
});
