/**
 * The client's card resolver verifies under the caller's trust anchors only (decision 0166):
 * `resolveAgentCard` and `A2AClient.connect` take pinned keys, key sets and root certificates in
 * `verify`, say which anchor verified the card (`verification.anchor`), and refuse a card no
 * anchor vouches for with CARD_SIGNATURE_INVALID carrying the per-signature reasons. Cards and key
 * sets are served over real loopback HTTP; certificates come from openssl.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardSignatureError, signAgentCard, withSignatures } from '../../src/card/internal.js';
import {
  A2AClient,
  A2ALocalError,
  resolveAgentCard,
  type ResolveAgentCardOptions,
} from '../../src/client/index.js';
import { makeTestPki, type TestPki } from '../helpers/test-pki.js';
import { startJsonServer, type JsonServer } from './helpers/json-server.js';

const CARD = {
  name: 'Ledger Agent',
  description: 'Keeps the books',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:9/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'post', name: 'Post entries', description: 'Posts journal entries', tags: ['ledger'] }],
};
const TAMPERED = { description: 'Keeps the books (and the money)' };

let pki: TestPki;
let site: JsonServer;
let jwksUrl: string;
let signer: { privateKey: KeyObject; publicKey: KeyObject };
let jwk: Record<string, unknown>;
const LOOPBACK: ResolveAgentCardOptions = { allowedHosts: ['127.0.0.1'], cache: false };

beforeAll(async () => {
  pki = makeTestPki();
  signer = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  jwk = { ...signer.publicKey.export({ format: 'jwk' }), kid: 'signer-1', alg: 'ES256', use: 'sig' };
  const cards: Record<string, unknown> = {};
  site = await startJsonServer({
    '/jwks.json': { body: { keys: [jwk] } },
    '/jku/.well-known/agent-card.json': () => ({ body: cards.jku }),
    '/jku-tampered/.well-known/agent-card.json': () => ({ body: cards.jkuTampered }),
    '/x509/.well-known/agent-card.json': () => ({ body: cards.x509 }),
    '/x509-expired/.well-known/agent-card.json': () => ({ body: cards.expired }),
  });
  jwksUrl = `${site.url}jwks.json`;
  const jku = withSignatures(
    CARD,
    await signAgentCard(CARD, [
      { kid: 'signer-1', alg: 'ES256', privateKey: signer.privateKey, jku: jwksUrl },
    ]),
  );
  const x509 = async (leaf: typeof pki.leaf): Promise<Record<string, unknown>> =>
    withSignatures(
      CARD,
      await signAgentCard(CARD, [
        { kid: 'cards-x509', alg: 'ES256', privateKey: leaf.keyPem, x5c: pki.x5c(leaf, pki.intermediate) },
      ]),
    );
  Object.assign(cards, {
    jku,
    jkuTampered: { ...jku, ...TAMPERED },
    x509: await x509(pki.leaf),
    expired: await x509(pki.expiredLeaf),
  });
});
afterAll(async () => {
  await site.close();
  pki.dispose();
});

/** The CARD_SIGNATURE_INVALID error of resolving `path` with `verify`, and its card-layer cause. */
async function refused(path: string, verify: ResolveAgentCardOptions['verify']): Promise<CardSignatureError> {
  const error = await resolveAgentCard(`${site.url}${path}`, { ...LOOPBACK, verify }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(A2ALocalError);
  expect(error).toMatchObject({ kind: 'CARD_SIGNATURE_INVALID' });
  const cause = (error as Error).cause;
  expect(cause).toBeInstanceOf(CardSignatureError);
  expect((error as Error).message).toContain(
    `failed signature verification (${(cause as CardSignatureError).reason})`,
  );
  return cause as CardSignatureError;
}

describe('resolveAgentCard: verify takes trust anchors and names the one that verified', () => {
  it('refuses a card signed by an untrusted key with a valid jku: the key is not anchored, the jku is not fetched', async () => {
    const before = site.requests.filter((r) => r.path === '/jwks.json').length;
    const cause = await refused('jku/', {});
    expect(cause.reason).toBe('no-key');
    expect(cause.message).toContain('the key is not anchored');
    expect(cause.message).toContain(`its jku ${jwksUrl} is a hint, not an anchor`);
    expect(site.requests.filter((r) => r.path === '/jwks.json').length).toBe(before);
  });

  it('verifies the same card with the key pinned, and names the pinned key', async () => {
    const resolved = await resolveAgentCard(`${site.url}jku/`, {
      ...LOOPBACK,
      verify: { keys: { 'signer-1': jwk as never } },
    });
    expect(resolved.verification).toEqual({
      kid: 'signer-1',
      alg: 'ES256',
      index: 0,
      anchor: { kind: 'key', kid: 'signer-1', description: 'pinned key signer-1' },
    });
    expect(resolved.card.name).toBe('Ledger Agent');
  });

  it('refuses a tampered card both ways', async () => {
    expect((await refused('jku-tampered/', {})).reason).toBe('no-key');
    expect((await refused('jku-tampered/', { keys: { 'signer-1': jwk as never } })).reason).toBe(
      'bad-signature',
    );
    expect((await refused('jku-tampered/', { jwks: new URL(jwksUrl) })).reason).toBe('bad-signature');
  });

  it('verifies under a configured JWKS URL, fetched through the client guard, naming it', async () => {
    const resolved = await resolveAgentCard(`${site.url}jku/`, {
      ...LOOPBACK,
      verify: { jwks: new URL(jwksUrl) },
    });
    expect(resolved.verification?.anchor).toEqual({
      kind: 'jwks',
      index: 0,
      url: jwksUrl,
      description: `key set ${jwksUrl}`,
    });
    const fetched = site.requests.filter((r) => r.path === '/jwks.json').at(-1);
    expect(fetched?.headers.accept).toContain('application/jwk-set+json');
  });

  it('verifies an x5c chain to a configured root and names the root; refuses another root and an expired leaf', async () => {
    const resolved = await resolveAgentCard(`${site.url}x509/`, {
      ...LOOPBACK,
      verify: { roots: [pki.root.pem] },
    });
    expect(resolved.verification?.anchor).toMatchObject({
      kind: 'root',
      subject: 'CN=Concord Test Root, O=Concord Tests',
      chain: [
        'CN=cards.concord.test',
        'CN=Concord Test Intermediate',
        'CN=Concord Test Root, O=Concord Tests',
      ],
    });
    const other = await refused('x509/', { roots: [pki.otherRoot.pem] });
    expect(other.reason).toBe('untrusted-chain');
    expect(other.failures[0]?.message).toContain('which is not a configured root');
    const expired = await refused('x509-expired/', { roots: [pki.root.pem] });
    expect(expired.reason).toBe('untrusted-chain');
    expect(expired.message).toContain(
      'certificate CN=expired.concord.test expired at 2020-01-02T00:00:00.000Z',
    );
  });
});

describe('A2AClient.connect: the same anchors', () => {
  it('exposes the anchor on resolvedCard, and refuses a card no anchor vouches for', async () => {
    const client = await A2AClient.connect(`${site.url}x509/`, {
      allowedHosts: ['127.0.0.1'],
      cardCache: false,
      verify: { roots: [pki.root.pem] },
    });
    try {
      expect(client.resolvedCard?.verification?.anchor.description).toMatch(
        /^root certificate CN=Concord Test Root, O=Concord Tests \(chain /,
      );
    } finally {
      client.close();
    }
    const pinned = await A2AClient.connect(`${site.url}jku/`, {
      allowedHosts: ['127.0.0.1'],
      cardCache: false,
      verify: { keys: { 'signer-1': signer.publicKey } },
    });
    expect(pinned.resolvedCard?.verification?.anchor).toMatchObject({ kind: 'key', kid: 'signer-1' });
    pinned.close();
    const error = await A2AClient.connect(`${site.url}jku/`, {
      allowedHosts: ['127.0.0.1'],
      cardCache: false,
      verify: { roots: [pki.root.pem] },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'CARD_SIGNATURE_INVALID' });
    expect((error as Error).message).toContain('failed signature verification (no-key)');
  });
});
