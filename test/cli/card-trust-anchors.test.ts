/**
 * `concord card verify` and its trust anchors (decision 0166), through the built CLI: a card is
 * verified only under a key pinned with --key, a key set given with --jwks, a root certificate
 * given with --root (x5c chains), or the card's origin with --trust-card-origin; a jku in the card
 * is never an anchor on its own. Cards and key sets are served over real loopback HTTP.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAgentCard, withSignatures } from '../../src/card/internal.js';
import { startJsonServer, type JsonServer } from '../client/helpers/json-server.js';
import { makeTestPki, type TestPki } from '../helpers/test-pki.js';
import { concord } from './cli-process.js';

const CARD = {
  name: 'Ledger Agent',
  description: 'Keeps the books',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'https://ledger.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'post', name: 'Post entries', description: 'Posts journal entries', tags: ['ledger'] }],
};
const TAMPERED = { description: 'Keeps the books (and the money)' };

let dir: string;
let pki: TestPki;
let site: JsonServer;
let cardUrl: string;
let tamperedUrl: string;
let jwksUrl: string;
const file = (name: string, content: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-card-anchors-'));
  pki = makeTestPki();
  const signer = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...signer.publicKey.export({ format: 'jwk' }), kid: 'signer-1', alg: 'ES256', use: 'sig' };
  // The signer's own site: its card, and a valid key set at the jku the card names.
  const holder: { card?: unknown; tampered?: unknown } = {};
  site = await startJsonServer({
    '/jwks.json': { body: { keys: [jwk] } },
    '/.well-known/agent-card.json': () => ({ body: holder.card }),
    '/tampered/.well-known/agent-card.json': () => ({ body: holder.tampered }),
  });
  jwksUrl = `${site.url}jwks.json`;
  cardUrl = site.url;
  tamperedUrl = `${site.url}tampered/`;
  const signed = withSignatures(
    CARD,
    await signAgentCard(CARD, [
      { kid: 'signer-1', alg: 'ES256', privateKey: signer.privateKey, jku: jwksUrl },
    ]),
  );
  holder.card = signed;
  holder.tampered = { ...signed, ...TAMPERED };
  files.jwk = file('signer.jwk.json', jwk);
  files.jwks = file('signer.jwks.json', { keys: [jwk] });
  files.pem = file('signer.pem', signer.publicKey.export({ format: 'pem', type: 'spki' }).toString());
  files.privatePem = file(
    'signer-private.pem',
    signer.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  );
  files.root = file('root.pem', pki.root.pem);
  files.otherRoot = file('other-root.pem', pki.otherRoot.pem);
  const x509 = async (leaf: typeof pki.leaf): Promise<Record<string, unknown>> =>
    withSignatures(
      CARD,
      await signAgentCard(CARD, [
        { kid: 'cards-x509', alg: 'ES256', privateKey: leaf.keyPem, x5c: pki.x5c(leaf, pki.intermediate) },
      ]),
    );
  const chained = await x509(pki.leaf);
  files.chained = file('chained-card.json', chained);
  files.chainedTampered = file('chained-tampered.json', { ...chained, ...TAMPERED });
  files.expired = file('expired-card.json', await x509(pki.expiredLeaf));
});
afterAll(async () => {
  await site.close();
  pki.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const jwksFetches = (): number => site.requests.filter((r) => r.path === '/jwks.json').length;

describe('concord card verify: pinned keys against a card that names its own jku', () => {
  it('reports a card signed by an untrusted key with a valid jku as not verified: the key is not anchored', async () => {
    const before = jwksFetches();
    const run = await concord(['card', 'verify', cardUrl]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${cardUrl}: not verified (no-key)`);
    expect(run.stderr).toContain('signature 0 (kid signer-1, ES256): the key is not anchored');
    expect(run.stderr).toContain(`its jku ${jwksUrl} is a hint, not an anchor`);
    // The jku was not followed.
    expect(jwksFetches()).toBe(before);
  });

  it('verifies the same card with the key pinned, naming the anchor (a JWK file, or a PEM under its kid)', async () => {
    for (const key of [files.jwk!, `signer-1=${files.pem!}`]) {
      const run = await concord(['card', 'verify', cardUrl, '--key', key]);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(
        `${cardUrl}: verified: signature 0 verifies (kid signer-1, ES256) under pinned key signer-1\n`,
      );
      expect(run.code).toBe(0);
    }
  });

  it('fails a tampered card both ways: not anchored without the pin, bad signature with it', async () => {
    const unpinned = await concord(['card', 'verify', tamperedUrl]);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stderr).toContain('not verified (no-key)');
    const pinned = await concord(['card', 'verify', tamperedUrl, '--key', files.jwk!]);
    expect(pinned.code).toBe(1);
    expect(pinned.stderr).toContain(`${tamperedUrl}: not verified (bad-signature)`);
    expect(pinned.stderr).toContain('does not match the card under pinned key signer-1');
  });

  it('prints the outcome as one JSON object with --json', async () => {
    const ok = await concord(['card', 'verify', cardUrl, '--key', files.jwk!, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({
      verified: true,
      signature: { index: 0, kid: 'signer-1', alg: 'ES256' },
      anchor: { kind: 'key', kid: 'signer-1', description: 'pinned key signer-1' },
    });
    const no = await concord(['card', 'verify', cardUrl, '--json']);
    expect(no.code).toBe(1);
    expect(JSON.parse(no.stdout)).toMatchObject({
      verified: false,
      reason: 'no-key',
      failures: [{ index: 0, kid: 'signer-1', alg: 'ES256', reason: 'no-key' }],
    });
  });

  it('refuses a private key, a PEM without a kid and --trust-card-origin for a file as usage errors (exit 2)', async () => {
    const privateKey = await concord(['card', 'verify', cardUrl, '--key', `signer-1=${files.privatePem!}`]);
    expect(privateKey.code).toBe(2);
    expect(privateKey.stderr).toContain('holds a private key; pin the public key');
    expect(privateKey.stderr).not.toContain('PRIVATE KEY');
    const noKid = await concord(['card', 'verify', cardUrl, '--key', files.pem!]);
    expect(noKid.code).toBe(2);
    expect(noKid.stderr).toContain(`use --key <kid>=${files.pem!}`);
    const originOfFile = await concord(['card', 'verify', files.chained!, '--trust-card-origin']);
    expect(originOfFile.code).toBe(2);
    expect(originOfFile.stderr).toContain('--trust-card-origin: the card must be a URL, not a file');
  });
});

describe('concord card verify: configured key sets and the card origin', () => {
  it('verifies under a JWKS URL given with --jwks, naming it', async () => {
    const run = await concord(['card', 'verify', cardUrl, '--jwks', jwksUrl]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`verifies (kid signer-1, ES256) under key set ${jwksUrl}\n`);
    expect(run.code).toBe(0);
    const tampered = await concord(['card', 'verify', tamperedUrl, '--jwks', jwksUrl]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain('not verified (bad-signature)');
  });

  it('names a key set given as a file by its file, verified or not', async () => {
    const run = await concord(['card', 'verify', cardUrl, '--jwks', files.jwks!]);
    expect(run.stdout).toContain(`under key set from ${files.jwks!}\n`);
    expect(run.code).toBe(0);
    const tampered = await concord(['card', 'verify', tamperedUrl, '--jwks', files.jwks!]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain(`does not match the card under key set from ${files.jwks!}:`);
  });

  it('trusts the jku on the card origin only with --trust-card-origin, and says so', async () => {
    const run = await concord(['card', 'verify', cardUrl, '--trust-card-origin']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`under key set ${jwksUrl} on the card's origin`);
  });
});

describe('concord card verify: x5c chains and --root', () => {
  it('verifies a chain to the root given with --root, naming the root', async () => {
    const run = await concord(['card', 'verify', files.chained!, '--root', files.root!]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'signature 0 verifies (kid cards-x509, ES256) under root certificate CN=Concord Test Root, O=Concord Tests ' +
        '(chain CN=cards.concord.test → CN=Concord Test Intermediate → CN=Concord Test Root, O=Concord Tests)',
    );
    expect(run.code).toBe(0);
  });

  it('refuses a chain to another root, and an expired leaf, with the reason', async () => {
    const other = await concord(['card', 'verify', files.chained!, '--root', files.otherRoot!]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('not verified (untrusted-chain)');
    expect(other.stderr).toContain(
      'matches the key of its certificate CN=cards.concord.test, but the key is not anchored: the chain ends at ' +
        'CN=Concord Test Intermediate, issued by CN=Concord Test Root, O=Concord Tests, which is not a configured root',
    );
    const expired = await concord(['card', 'verify', files.expired!, '--root', files.root!]);
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain(
      'certificate CN=expired.concord.test expired at 2020-01-02T00:00:00.000Z',
    );
    const tampered = await concord(['card', 'verify', files.chainedTampered!, '--root', files.root!]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain('not verified (bad-signature)');
  });

  it('refuses a --root file that holds no certificate (exit 2)', async () => {
    const run = await concord(['card', 'verify', files.chained!, '--root', files.jwk!]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('holds no PEM certificate');
  });
});
