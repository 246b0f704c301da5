import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  base64url,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  type CryptoKey,
  type JWK,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAgentCard,
  canonicalJson,
  cardSigningPayload,
  CardSignatureError,
  signAgentCard,
  verifyAgentCard,
  withSignatures,
  type SigningKey,
  type VerifyCardOptions,
} from '../../src/card/internal.js';
import { v0_3JsonRpcCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { BEARER, processOrderDefinition } from './definitions.js';

interface Pair {
  publicKey: CryptoKey;
  privateKey: CryptoKey;
}

let ec: Pair;
let ed: Pair;
let other: Pair;
let jwks: { keys: JWK[] };
let server: Server;
let jwksUrl: string;

const card = buildAgentCard(processOrderDefinition(), {
  baseUrl: 'https://api.acme.com/agents/ProcessOrder/',
  organization: { name: 'ACME Corporation', url: 'https://www.acme.com' },
  securitySchemes: BEARER,
  securityRequirements: [{ schemes: { bearer: { list: ['orders'] } } }],
  capabilities: { streaming: true },
});
const v10 = (): Record<string, unknown> => v1_0Codec.encodeAgentCard(card) as Record<string, unknown>;
const v03 = (): Record<string, unknown> => v0_3JsonRpcCodec.encodeAgentCard(card) as Record<string, unknown>;

async function publicJwk(pair: Pair, kid: string, alg: string): Promise<JWK> {
  return { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' };
}

async function failure(promise: Promise<unknown>): Promise<CardSignatureError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CardSignatureError);
  return error as CardSignatureError;
}

beforeAll(async () => {
  ec = await generateKeyPair('ES256', { extractable: true });
  ed = await generateKeyPair('EdDSA', { extractable: true });
  other = await generateKeyPair('ES256', { extractable: true });
  jwks = { keys: [await publicJwk(ec, 'ec-1', 'ES256'), await publicJwk(ed, 'ed-1', 'EdDSA')] };
  server = createServer((req, res) => {
    if (req.url !== '/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ecKey = (): SigningKey => ({ kid: 'ec-1', alg: 'ES256', privateKey: ec.privateKey });
const edKey = (): SigningKey => ({ kid: 'ed-1', alg: 'EdDSA', privateKey: ed.privateKey });

describe('signAgentCard', () => {
  it('writes detached JWS signatures with alg, kid, typ JOSE and jku in the protected header', async () => {
    const signatures = await signAgentCard(v10(), [
      { ...ecKey(), jku: 'https://keys.acme.com/jwks.json' },
      edKey(),
    ]);
    expect(signatures).toHaveLength(2);
    expect(Object.keys(signatures[0]!).sort()).toEqual(['protected', 'signature']);
    expect(decodeProtectedHeader(signatures[0]!)).toEqual({
      alg: 'ES256',
      kid: 'ec-1',
      typ: 'JOSE',
      jku: 'https://keys.acme.com/jwks.json',
    });
    expect(decodeProtectedHeader(signatures[1]!)).toEqual({ alg: 'EdDSA', kid: 'ed-1', typ: 'JOSE' });
  });

  it('signs the JCS form of the card without its signatures', async () => {
    const json = withSignatures(v10(), [{ protected: 'x', signature: 'y' }]);
    const payload = new TextDecoder().decode(cardSigningPayload(json));
    expect(payload).toBe(canonicalJson(v10()));
    expect(
      payload.startsWith('{"capabilities":{"pushNotifications":false,"streaming":true},"defaultInputModes"'),
    ).toBe(true);
  });

  it('accepts a PKCS#8 PEM private key', async () => {
    const pem = await exportPKCS8(ed.privateKey);
    const signatures = await signAgentCard(v10(), [{ kid: 'ed-1', alg: 'EdDSA', privateKey: pem }]);
    await expect(verifyAgentCard(withSignatures(v10(), signatures), { jwks })).resolves.toEqual({
      kid: 'ed-1',
      alg: 'EdDSA',
      index: 0,
      anchor: { kind: 'jwks', index: 0, description: 'key set jwks[0]' },
    });
  });

  it('refuses bad keys with a message naming the key', async () => {
    await expect(signAgentCard(v10(), [])).rejects.toThrow('signAgentCard needs at least one signing key');
    await expect(signAgentCard(v10(), [{ ...ecKey(), kid: '' }])).rejects.toThrow('signing key 0 has no kid');
    await expect(signAgentCard(v10(), [{ ...ecKey(), alg: 'HS256' as 'ES256' }])).rejects.toThrow(
      'signing key 0 (kid "ec-1", HS256): alg must be one of ES256, ES384, EdDSA, RS256, PS256',
    );
    await expect(signAgentCard(v10(), [ecKey(), { ...edKey(), kid: 'ec-1' }])).rejects.toThrow(
      'another key has the same kid',
    );
    await expect(signAgentCard(v10(), [{ ...ecKey(), privateKey: ed.privateKey }])).rejects.toThrow(
      /signing key 0 \(kid "ec-1", ES256\): signing failed, is it a private ES256 key\?/,
    );
    await expect(signAgentCard(v10(), [{ ...ecKey(), privateKey: 'not a pem' }])).rejects.toThrow(
      /privateKey is not a PKCS#8 PEM ES256 key/,
    );
    await expect(
      signAgentCard(v10(), [{ ...ecKey(), jku: 'http://keys.acme.com/jwks.json' }]),
    ).rejects.toThrow(/jku "http:\/\/keys\.acme\.com\/jwks\.json" must be an absolute https URL/);
  });

  it('refuses a card that is not plain JSON', async () => {
    await expect(signAgentCard({ ...v10(), iconUrl: undefined }, [ecKey()])).rejects.toThrow(
      'cannot canonicalize /iconUrl: undefined is not a JSON value',
    );
  });
});

describe('verifyAgentCard', () => {
  it.each([
    ['ES256', ecKey],
    ['EdDSA', edKey],
  ])('round-trips a %s signature on the 1.0 and the 0.3 card', async (alg, key) => {
    for (const json of [v10(), v03()]) {
      const signed = withSignatures(json, await signAgentCard(json, [key()]));
      // As a client gets it: parsed from the served text.
      const received = JSON.parse(JSON.stringify(signed)) as unknown;
      await expect(verifyAgentCard(received, { jwks })).resolves.toMatchObject({ alg, index: 0 });
    }
  });

  it('does not depend on member order (JCS)', async () => {
    const json = v10();
    const signed = withSignatures(json, await signAgentCard(json, [ecKey()]));
    const reversed = Object.fromEntries(Object.entries(signed).reverse());
    await expect(verifyAgentCard(reversed, { jwks })).resolves.toMatchObject({ kid: 'ec-1' });
  });

  it('fails a card altered by one byte with reason bad-signature and a clear message', async () => {
    const json = v10();
    const text = JSON.stringify(withSignatures(json, await signAgentCard(json, [ecKey()])));
    const altered = text.replace('external partners', 'external partnerz');
    expect(altered.length).toBe(text.length);
    const error = await failure(verifyAgentCard(JSON.parse(altered), { jwks }));
    expect(error.reason).toBe('bad-signature');
    expect(error.message).toBe(
      'the card signature does not verify: signature 0 (kid ec-1, ES256) does not match the card ' +
        "under key set jwks[0]: the card was altered after signing, or the key is not the signer's",
    );
  });

  it('signs a 1.0 card after ProtoJSON presence: `required: false` is left out of the payload (decision 0149)', async () => {
    const declared = { uri: 'https://example.com/ext/v1', required: false };
    const json = { ...v10(), capabilities: { streaming: true, extensions: [declared] } };
    const signed = withSignatures(json, await signAgentCard(json, [ecKey()], '1.0'));
    // The payload is the card without the default, as a verifier reading it through the proto rebuilds it.
    const bare = { ...json, capabilities: { streaming: true, extensions: [{ uri: declared.uri }] } };
    expect(cardSigningPayload(json, '1.0')).toEqual(cardSigningPayload(bare));
    expect((await verifyAgentCard(signed, { jwks })).kid).toBe('ec-1');
    const { signatures } = signed as { signatures: unknown };
    expect((await verifyAgentCard({ ...bare, signatures }, { jwks })).kid).toBe('ec-1');
    // The default may be dropped, never changed.
    const flipped = {
      ...signed,
      capabilities: { streaming: true, extensions: [{ ...declared, required: true }] },
    };
    expect((await failure(verifyAgentCard(flipped, { jwks }))).reason).toBe('bad-signature');
  });

  it("does not accept the 0.3 card's signature on the 1.0 card", async () => {
    const signatures = await signAgentCard(v03(), [ecKey()]);
    expect((await failure(verifyAgentCard(withSignatures(v10(), signatures), { jwks }))).reason).toBe(
      'bad-signature',
    );
  });

  it('reports a kid no anchor holds as no-key: the key is not anchored', async () => {
    const json = v10();
    const signed = withSignatures(json, await signAgentCard(json, [{ ...ecKey(), kid: 'ec-9' }]));
    const viaJwks = await failure(verifyAgentCard(signed, { jwks }));
    expect(viaJwks.reason).toBe('no-key');
    expect(viaJwks.message).toContain(
      'signature 0 (kid ec-9, ES256): the key is not anchored: no pinned key or configured key set holds kid ec-9',
    );
    const viaKeys = await failure(verifyAgentCard(signed, { keys: { 'ec-1': ec.publicKey } }));
    expect(viaKeys.reason).toBe('no-key');
    const none = await failure(verifyAgentCard(signed, {}));
    expect(none.message).toContain('the key is not anchored: no trust anchor is configured');
  });

  it('reports an unsigned card as unsigned', async () => {
    const error = await failure(verifyAgentCard(v10(), { jwks }));
    expect(error.reason).toBe('unsigned');
    expect(error.message).toBe('the card has no signatures');
    expect((await failure(verifyAgentCard({ ...v10(), signatures: [] }, { jwks }))).reason).toBe('unsigned');
  });

  it('verifies with a key map (CryptoKey or JWK), a JWKS document, a resolver and a JWKS URL', async () => {
    const json = v10();
    const signed = withSignatures(json, await signAgentCard(json, [ecKey()]));
    const jwk = await publicJwk(ec, 'ec-1', 'ES256');
    const ways: VerifyCardOptions[] = [
      { keys: { 'ec-1': ec.publicKey } },
      { keys: { 'ec-1': jwk } },
      { jwks },
      { jwks: createLocalJWKSet(jwks) },
      { jwks: new URL(jwksUrl) },
    ];
    for (const options of ways)
      await expect(verifyAgentCard(signed, options)).resolves.toMatchObject({ kid: 'ec-1' });
  });

  it('never follows a jku on its own; a jku naming a configured key set only orders the search', async () => {
    const json = v10();
    // A loopback jku is allowed for development key servers; production ones must be https.
    const signed = withSignatures(json, await signAgentCard(json, [{ ...ecKey(), jku: jwksUrl }]));
    const untrusted = await failure(verifyAgentCard(signed, {}));
    expect(untrusted.reason).toBe('no-key');
    expect(untrusted.message).toContain(`its jku ${jwksUrl} is a hint, not an anchor`);
    // The same URL configured by the caller is that anchor, searched before the others.
    const edOnly = { keys: jwks.keys.filter((k) => k.kid === 'ed-1') };
    await expect(verifyAgentCard(signed, { jwks: [edOnly, new URL(jwksUrl)] })).resolves.toMatchObject({
      kid: 'ec-1',
      anchor: { kind: 'jwks', index: 1, url: jwksUrl, description: `key set ${jwksUrl}` },
    });
  });

  it('uses the next signature when one fails (key rotation), and reports every failure otherwise', async () => {
    const json = v10();
    const signatures = await signAgentCard(json, [{ ...ecKey(), kid: 'retired' }, edKey()]);
    await expect(verifyAgentCard(withSignatures(json, signatures), { jwks })).resolves.toMatchObject({
      kid: 'ed-1',
      alg: 'EdDSA',
      index: 1,
    });
    const forged = await signAgentCard(json, [{ kid: 'ec-1', alg: 'ES256', privateKey: other.privateKey }]);
    const error = await failure(
      verifyAgentCard(withSignatures(json, [signatures[0]!, forged[0]!]), { jwks }),
    );
    expect(error.reason).toBe('bad-signature');
    expect(error.failures.map((f) => [f.index, f.kid, f.reason])).toEqual([
      [0, 'retired', 'no-key'],
      [1, 'ec-1', 'bad-signature'],
    ]);
    expect(error.message).toMatch(
      /^none of the card's 2 signatures verifies: signature 0 \(kid retired, ES256\)/,
    );
  });

  it('refuses alg none and HMAC signatures, and options that would allow them', async () => {
    const json = v10();
    const header = (h: object): string => base64url.encode(JSON.stringify(h));
    for (const alg of ['none', 'HS256']) {
      const signed = withSignatures(json, [
        { protected: header({ alg, kid: 'ec-1', typ: 'JOSE' }), signature: 'AA' },
      ]);
      const error = await failure(verifyAgentCard(signed, { jwks }));
      expect(error.reason).toBe('algorithm-refused');
      expect(error.message).toContain(`signature 0 (kid ec-1, ${alg}): alg "${alg}"`);
    }
    await expect(verifyAgentCard(json, { jwks, algorithms: ['ES256', 'HS256'] })).rejects.toThrow(
      'verifyAgentCard: options.algorithms: alg "HS256" is an HMAC',
    );
  });

  it('reports malformed signatures and cards precisely', async () => {
    const json = v10();
    const cases: [unknown, string][] = [
      [{ ...json, signatures: 'x' }, 'the card\'s "signatures" is not an array'],
      [{ ...json, signatures: [{ protected: 1 }] }, 'signature 0 is not an object with string "protected"'],
      [
        { ...json, signatures: [{ protected: '!!', signature: 'AA' }] },
        'signature 0: "protected" is not a base64url',
      ],
      [
        { ...json, signatures: [{ protected: base64url.encode('{"alg":"ES256"}'), signature: 'AA' }] },
        'signature 0 (ES256): the protected header lacks kid',
      ],
      [[json], 'the card is not a JSON object'],
    ];
    for (const [input, message] of cases) {
      const error = await failure(verifyAgentCard(input, { jwks }));
      expect(error.reason).toBe('malformed');
      expect(error.message).toContain(message);
    }
    const restricted = await failure(
      verifyAgentCard(withSignatures(json, await signAgentCard(json, [edKey()])), {
        jwks,
        algorithms: ['ES256'],
      }),
    );
    expect(restricted.reason).toBe('algorithm-refused');
    expect(restricted.message).toContain('alg EdDSA is not accepted (accepted: ES256)');
  });
});
