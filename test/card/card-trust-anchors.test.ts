/**
 * Trust anchors for signed cards (decision 0166; A2A 1.0 §8.4.3, a2aproject/A2A #2096 and #2099):
 * a card verifies only under a key the caller pinned, a key set the caller configured, or an x5c
 * chain to a root certificate the caller configured; a jku alone is never followed. Key sets are
 * served over real loopback HTTP; certificates come from openssl (test/helpers/test-pki.ts).
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { FlattenedSign } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CardSignatureError,
  signAgentCard,
  verifyAgentCard,
  withSignatures,
  type CardVerification,
  type VerifyCardOptions,
} from '../../src/card/internal.js';
import { startJsonServer, type JsonServer } from '../client/helpers/json-server.js';
import { makeTestPki, type TestPki } from '../helpers/test-pki.js';

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

let pki: TestPki;
let keys: JsonServer;
let signer: { privateKey: KeyObject; publicKey: KeyObject };
let jwk: Record<string, unknown>;
let jwksUrl: string;

beforeAll(async () => {
  pki = makeTestPki();
  signer = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  jwk = { ...signer.publicKey.export({ format: 'jwk' }), kid: 'signer-1', alg: 'ES256', use: 'sig' };
  keys = await startJsonServer({
    '/jwks.json': { body: { keys: [jwk] } },
    '/gone.json': { status: 404, body: { error: 'gone' } },
  });
  jwksUrl = `${keys.url}jwks.json`;
});
afterAll(async () => {
  pki.dispose();
  await keys.close();
});

/** The card signed by the untrusted signer, whose jku (valid, serving its key) is on loopback. */
async function jkuSigned(): Promise<Record<string, unknown>> {
  return withSignatures(
    CARD,
    await signAgentCard(CARD, [
      { kid: 'signer-1', alg: 'ES256', privateKey: signer.privateKey, jku: jwksUrl },
    ]),
  );
}

function tampered(card: Record<string, unknown>): Record<string, unknown> {
  return { ...card, description: 'Keeps the books (and the money)' };
}

async function x509Signed(
  chain: string[],
  privateKey: string,
  card = CARD,
): Promise<Record<string, unknown>> {
  return withSignatures(
    card,
    await signAgentCard(card, [{ kid: 'cards-x509', alg: 'ES256', privateKey, x5c: chain }]),
  );
}

async function failure(card: unknown, options: VerifyCardOptions): Promise<CardSignatureError> {
  const error = await verifyAgentCard(card, options).then(
    (verified: CardVerification) => new Error(`verified under ${verified.anchor.description}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CardSignatureError);
  return error as CardSignatureError;
}

describe('a jku never anchors on its own', () => {
  it('reports a card signed by an untrusted key with a valid jku as not anchored, and never fetches the jku', async () => {
    const before = keys.requests.length;
    const error = await failure(await jkuSigned(), {});
    expect(error.reason).toBe('no-key');
    expect(error.failures).toMatchObject([{ index: 0, kid: 'signer-1', alg: 'ES256', reason: 'no-key' }]);
    expect(error.message).toContain('signature 0 (kid signer-1, ES256): the key is not anchored');
    expect(error.message).toContain(`its jku ${jwksUrl} is a hint, not an anchor`);
    // Other anchors configured, none holding the kid: still not anchored.
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    const pinnedElse = await failure(await jkuSigned(), { keys: { 'someone-else': other } });
    expect(pinnedElse.message).toContain('no pinned key or configured key set holds kid signer-1');
    expect(keys.requests.length).toBe(before);
  });

  it('verifies the same card once the key is pinned (JWK, KeyObject, PEM public key or certificate), naming the anchor', async () => {
    const card = await jkuSigned();
    const pem = signer.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    for (const key of [jwk, signer.publicKey, pem]) {
      const verified = await verifyAgentCard(card, { keys: { 'signer-1': key as never } });
      expect(verified).toEqual({
        kid: 'signer-1',
        alg: 'ES256',
        index: 0,
        anchor: { kind: 'key', kid: 'signer-1', description: 'pinned key signer-1' },
      });
    }
    // A certificate pinned under the kid pins its key.
    const byCert = withSignatures(
      CARD,
      await signAgentCard(CARD, [{ kid: 'leaf', alg: 'ES256', privateKey: pki.leaf.keyPem }]),
    );
    expect((await verifyAgentCard(byCert, { keys: { leaf: pki.leaf.pem } })).anchor.kind).toBe('key');
  });

  it('fails a tampered card both ways: not anchored without the pin, bad signature with it', async () => {
    const card = tampered(await jkuSigned());
    expect((await failure(card, {})).reason).toBe('no-key');
    const pinned = await failure(card, { keys: { 'signer-1': jwk as never } });
    expect(pinned.reason).toBe('bad-signature');
    expect(pinned.message).toContain(
      "signature 0 (kid signer-1, ES256) does not match the card under pinned key signer-1: the card was altered after signing, or the key is not the signer's",
    );
  });

  it('a pinned key of the wrong type is a bad signature naming it, and a private key is refused up front', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    const wrong = await failure(await jkuSigned(), { keys: { 'signer-1': rsa } });
    expect(wrong.reason).toBe('bad-signature');
    expect(wrong.message).toContain('pinned key signer-1 (it is not a ES256 public key');
    const privatePem = signer.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    await expect(verifyAgentCard(await jkuSigned(), { keys: { 'signer-1': privatePem } })).rejects.toThrow(
      'verifyAgentCard: options.keys["signer-1"] is a private key; pin the public key',
    );
    const privateJwk = { ...signer.privateKey.export({ format: 'jwk' }), kid: 'signer-1' };
    await expect(
      verifyAgentCard(await jkuSigned(), { keys: { 'signer-1': privateJwk as never } }),
    ).rejects.toThrow('is a private JWK');
  });
});

describe('a configured key set', () => {
  it('verifies under a JWKS URL the caller configured (the jku equal to it is simply that anchor)', async () => {
    const verified = await verifyAgentCard(await jkuSigned(), { jwks: new URL(jwksUrl) });
    expect(verified.anchor).toEqual({
      kind: 'jwks',
      index: 0,
      url: jwksUrl,
      description: `key set ${jwksUrl}`,
    });
    const tamperedCard = await failure(tampered(await jkuSigned()), { jwks: new URL(jwksUrl) });
    expect(tamperedCard.reason).toBe('bad-signature');
  });

  it('reports a configured key set that cannot be read as anchor-unavailable, hiding credentials in its URL', async () => {
    const url = new URL(`${keys.url}gone.json?token=secret-value`);
    url.username = 'user';
    url.password = 'hunter2';
    const error = await failure(await jkuSigned(), { jwks: url });
    expect(error.reason).toBe('anchor-unavailable');
    expect(error.message).toContain(`key set ${keys.url}gone.json?… could not be read`);
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('secret-value');
  });
});

describe('x5c chains to configured roots', () => {
  it('verifies a chain leaf → intermediate → configured root, naming the root and the chain', async () => {
    const card = await x509Signed(pki.x5c(pki.leaf, pki.intermediate), pki.leaf.keyPem);
    const verified = await verifyAgentCard(card, { roots: [pki.root.pem] });
    expect(verified).toMatchObject({ kid: 'cards-x509', alg: 'ES256', index: 0 });
    expect(verified.anchor).toMatchObject({
      kind: 'root',
      subject: 'CN=Concord Test Root, O=Concord Tests',
      chain: [
        'CN=cards.concord.test',
        'CN=Concord Test Intermediate',
        'CN=Concord Test Root, O=Concord Tests',
      ],
    });
    expect(verified.anchor.description).toBe(
      'root certificate CN=Concord Test Root, O=Concord Tests (chain CN=cards.concord.test → CN=Concord Test Intermediate → CN=Concord Test Root, O=Concord Tests)',
    );
    expect((verified.anchor as { fingerprint256: string }).fingerprint256).toMatch(
      /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/,
    );
    // The root may be sent too, and a bundle may hold several roots.
    const withRoot = await x509Signed(pki.x5c(pki.leaf, pki.intermediate, pki.root), pki.leaf.keyPem);
    expect((await verifyAgentCard(withRoot, { roots: [pki.otherRoot.pem + pki.root.pem] })).anchor.kind).toBe(
      'root',
    );
  });

  it('refuses a chain to a root nobody configured, with the signature itself valid', async () => {
    const stranger = await x509Signed(pki.x5c(pki.strangerLeaf, pki.otherRoot), pki.strangerLeaf.keyPem);
    const error = await failure(stranger, { roots: [pki.root.pem] });
    expect(error.reason).toBe('untrusted-chain');
    expect(error.message).toContain(
      'signature 0 (kid cards-x509, ES256) matches the key of its certificate CN=stranger.example, but the key is not anchored: ' +
        'the chain ends at CN=Other Root, O=Someone Else, issued by CN=Other Root, O=Someone Else, which is not a configured root',
    );
    const good = await x509Signed(pki.x5c(pki.leaf, pki.intermediate), pki.leaf.keyPem);
    expect((await failure(good, { roots: [pki.otherRoot.pem] })).message).toContain(
      'the chain ends at CN=Concord Test Intermediate, issued by CN=Concord Test Root, O=Concord Tests, which is not a configured root',
    );
    expect((await failure(good, {})).message).toContain(
      'but the key is not anchored: no root certificate is configured',
    );
  });

  it('refuses an expired leaf, and a chain checked after its certificates expire', async () => {
    const expired = await x509Signed(pki.x5c(pki.expiredLeaf, pki.intermediate), pki.expiredLeaf.keyPem);
    const error = await failure(expired, { roots: [pki.root.pem] });
    expect(error.reason).toBe('untrusted-chain');
    expect(error.message).toContain(
      'certificate CN=expired.concord.test expired at 2020-01-02T00:00:00.000Z',
    );
    const good = await x509Signed(pki.x5c(pki.leaf, pki.intermediate), pki.leaf.keyPem);
    const later = new Date(Date.now() + 30 * 86_400_000);
    expect((await failure(good, { roots: [pki.root.pem], currentDate: later })).message).toContain(
      'certificate CN=cards.concord.test expired at',
    );
  });

  it('refuses a missing intermediate, an issuer that is no CA, and a leaf whose key usage forbids signing', async () => {
    const alone = await x509Signed(pki.x5c(pki.leaf), pki.leaf.keyPem);
    expect((await failure(alone, { roots: [pki.root.pem] })).message).toContain(
      'the chain ends at CN=cards.concord.test, issued by CN=Concord Test Intermediate, which is not a configured root',
    );
    const underNotCa = await x509Signed(pki.x5c(pki.underNotCa, pki.notCa), pki.underNotCa.keyPem);
    expect((await failure(underNotCa, { roots: [pki.root.pem] })).message).toContain(
      'certificate CN=Not A CA issues a certificate but is not a CA (basicConstraints)',
    );
    const noSign = await x509Signed(pki.x5c(pki.noSignLeaf, pki.intermediate), pki.noSignLeaf.keyPem);
    expect((await failure(noSign, { roots: [pki.root.pem] })).message).toContain(
      'certificate CN=nosign.concord.test may not sign (its key usage lacks digitalSignature)',
    );
    // The x5c order matters: the signing certificate first.
    const reversed = await x509Signed(pki.x5c(pki.intermediate, pki.leaf), pki.leaf.keyPem);
    expect((await failure(reversed, { roots: [pki.root.pem] })).reason).toBe('bad-signature');
  });

  it('fails a tampered card under its certificate as a bad signature, whatever the chain', async () => {
    const card = tampered(await x509Signed(pki.x5c(pki.leaf, pki.intermediate), pki.leaf.keyPem));
    for (const roots of [[pki.root.pem], [pki.otherRoot.pem], []]) {
      const error = await failure(card, { roots });
      expect(error.reason).toBe('bad-signature');
      expect(error.message).toContain(
        'signature 0 (kid cards-x509, ES256) does not match the card under the key of its certificate CN=cards.concord.test',
      );
    }
  });

  it('reads x5c from the protected header only, refuses a malformed one, and refuses roots that are no certificates', async () => {
    const signed = withSignatures(
      CARD,
      await signAgentCard(CARD, [{ kid: 'cards-x509', alg: 'ES256', privateKey: pki.leaf.keyPem }]),
    );
    const [signature] = signed.signatures as { protected: string; signature: string }[];
    const unprotected = {
      ...signed,
      signatures: [{ ...signature, header: { x5c: pki.x5c(pki.leaf, pki.intermediate) } }],
    };
    expect((await failure(unprotected, { roots: [pki.root.pem] })).reason).toBe('no-key');
    const jws = await new FlattenedSign(new Uint8Array())
      .setProtectedHeader({ alg: 'ES256', kid: 'k', typ: 'JOSE', x5c: ['not base64!'] })
      .sign(createPrivateKey(pki.leaf.keyPem));
    const malformed = await failure(
      { ...CARD, signatures: [{ protected: jws.protected, signature: jws.signature }] },
      { roots: [pki.root.pem] },
    );
    expect(malformed.reason).toBe('malformed');
    expect(malformed.message).toContain('x5c[0] is not a base64 DER certificate');
    await expect(verifyAgentCard(signed, { roots: ['not a certificate'] })).rejects.toThrow(
      'verifyAgentCard: options.roots[0] holds no PEM certificate',
    );
  });

  it('a certificate configured as a root trusts itself (a pinned certificate)', async () => {
    const card = await x509Signed(pki.x5c(pki.leaf), pki.leaf.keyPem);
    const verified = await verifyAgentCard(card, { roots: [pki.leaf.pem] });
    expect(verified.anchor).toMatchObject({
      kind: 'root',
      subject: 'CN=cards.concord.test',
      chain: ['CN=cards.concord.test'],
    });
  });
});

describe('several signatures', () => {
  it('takes the first that verifies and names its anchor; otherwise reports the most telling reason', async () => {
    const jku = (await jkuSigned()).signatures as unknown[];
    const x509 = (await x509Signed(pki.x5c(pki.leaf, pki.intermediate), pki.leaf.keyPem))
      .signatures as unknown[];
    const both = { ...CARD, signatures: [...jku, ...x509] };
    const verified = await verifyAgentCard(both, { roots: [pki.root.pem] });
    expect([verified.index, verified.anchor.kind]).toEqual([1, 'root']);
    const error = await failure(both, { roots: [pki.otherRoot.pem] });
    expect(error.reason).toBe('untrusted-chain');
    expect(error.failures.map((f) => f.reason)).toEqual(['no-key', 'untrusted-chain']);
  });
});
