// Every card a host serves is signed, and is the card `concord card` prints (decision
// 0149): the authenticated extended card on every binding (JSON-RPC, HTTP+JSON, gRPC; 1.0 and
// 0.3) verifies like the public card; the 1.0 card declares AUMP with `required: false`, passes
// the AUMP suite's card check and still verifies, with Concord's verifier and with the
// @a2a-js/sdk one (which reads the card through its proto); `concord card <dir>` prints exactly
// the served cards, signatures included (Ed25519 signatures are deterministic).
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { verifyAgentCardSignature } from '@a2a-js/sdk';
import { importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAgentCard } from '../../src/card/index.js';
import { validateBridge } from '../../src/extensions/aump/internal.js';
import { messageToJson } from '../../src/protocol/grpc/index.js';
import type { ProtocolVersion } from '../../src/protocol/index.js';
import { grpcMessageType } from '../../src/server/grpc/grpc-schema-loader.js';
import { concord, ROOT, startConcord, type LiveCli } from '../cli/cli-process.js';
import { grpcClient } from '../helpers/grpc-driver.js';

// Wire JSON read in assertions; its shape is what is under test.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const SECRET = 'signed-cards-test-secret-0123456789abcdef';
const AUMP = 'https://agentic-user-mandate-protocol.github.io/spec/bindings/a2a/v0.1';

let dir: string;
let served: LiveCli;
let url: string;
let grpcTarget: string;
let jwks: { keys: JWK[] };
let bearer: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-signed-cards-'));
  const { privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(join(dir, 'card-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  copyFileSync(join(import.meta.dirname, 'fixtures/host/echo-handler.mjs'), join(dir, 'echo-handler.mjs'));
  copyFileSync(join(ROOT, 'examples/aump-negotiation/mandates/seller.json'), join(dir, 'seller.json'));
  writeFileSync(
    join(dir, 'concord.config.json5'),
    `{
  security: {
    schemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', secret: { env: 'CARDS_TEST_SECRET' } } },
    // Offered, not required: a caller with a token is authenticated all the same. (The SDK's
    // verifier drops a requirement without scopes ({list: []}), so a required scheme would
    // fail its check for a reason that is not this test's.)
    requirements: [],
  },
  signing: { keys: [{ kid: 'cards-ed', alg: 'EdDSA', privateKeyFile: './card-key.pem' }] },
  agents: {
    list: [
      {
        id: 'vault',
        name: 'Vault',
        description: 'Sells under an AUMP mandate; partners see more',
        exposed: true,
        handler: './echo-handler.mjs',
        skills: [
          { id: 'sell', name: 'Sell', description: 'Sells a listing', tags: ['aump'] },
          { id: 'partner-terms', name: 'Partner terms', description: 'For partners only', tags: ['partner'], extended: true },
        ],
        extensions: { aump: { mandates: ['./seller.json'], receivedEvent: 'offer_received' } },
      },
    ],
  },
}
`,
  );
  process.env.CARDS_TEST_SECRET = SECRET;
  served = startConcord(['serve', dir, '--port', '0', '--grpc-port', '0', '--store', 'memory']);
  const banner = await served.until((out) => out.includes('task stores:'));
  url = /hosting \d+ agent\(s\) at (http:\/\/\S+\/)/.exec(banner)![1]!;
  grpcTarget = /gRPC: (\S+) serves/.exec(banner)![1]!;
  jwks = (await (await fetch(`${url}.well-known/jwks.json`)).json()) as { keys: JWK[] };
  bearer = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('partner')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
});

afterAll(async () => {
  served?.child.kill('SIGTERM');
  await served?.exited;
  delete process.env.CARDS_TEST_SECRET;
  rmSync(dir, { recursive: true, force: true });
});

async function publicCard(base: string, version: ProtocolVersion): Promise<Json> {
  const response = await fetch(`${base}.well-known/agent-card.json`, { headers: { 'a2a-version': version } });
  expect(response.status).toBe(200);
  return response.json();
}

/** The @a2a-js/sdk verifier, keys from the host's JWKS. */
const sdkVerify = verifyAgentCardSignature(async (kid) => {
  const key = jwks.keys.find((each) => each.kid === kid);
  if (key === undefined) throw new Error(`no key ${kid}`);
  return (await importJWK(key, 'EdDSA')) as CryptoKey;
});

const skillIds = (card: Json): string[] => card.skills.map((s: { id: string }) => s.id);

async function rpc(version: ProtocolVersion, method: string): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': version,
      authorization: `Bearer ${bearer}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
  });
  const body = (await response.json()) as Json;
  expect(body.error).toBeUndefined();
  return body.result;
}

async function rest(version: ProtocolVersion, path: string): Promise<Json> {
  const response = await fetch(`${url}${path}`, {
    headers: { 'a2a-version': version, authorization: `Bearer ${bearer}` },
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** The card a gRPC client reads back from GetExtendedAgentCard (1.0) / GetAgentCard (0.3). */
function grpcCard(version: ProtocolVersion): Promise<Json> {
  const { client, method } = grpcClient(grpcTarget, version);
  const m = method('getExtendedAgentCard');
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${bearer}`);
  if (version === '1.0') metadata.set('a2a-version', '1.0');
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      m.path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      m.writeRequest({}),
      metadata,
      (error: ServiceError | null, bytes?: Buffer) => {
        client.close();
        if (error !== null) return reject(error);
        const type = grpcMessageType(m.responseType);
        resolve(messageToJson(type, type.decode(bytes!)));
      },
    );
  });
}

describe('signed cards (decision 0149)', () => {
  it('signs the extended card on every binding and version, as each one writes it', async () => {
    const answers: [string, Json][] = [
      ['JSON-RPC 1.0 GetExtendedAgentCard', await rpc('1.0', 'GetExtendedAgentCard')],
      [
        'JSON-RPC 0.3 agent/getAuthenticatedExtendedCard',
        await rpc('0.3', 'agent/getAuthenticatedExtendedCard'),
      ],
      ['HTTP+JSON 1.0 GET /extendedAgentCard', await rest('1.0', 'extendedAgentCard')],
      ['HTTP+JSON 0.3 GET /v1/card', await rest('0.3', 'v1/card')],
      ['gRPC 1.0 GetExtendedAgentCard', await grpcCard('1.0')],
      ['gRPC 0.3 GetAgentCard', await grpcCard('0.3')],
    ];
    for (const [where, card] of answers) {
      expect(skillIds(card), where).toContain('partner-terms');
      const verified = await verifyAgentCard(card, { jwks }).catch((error: Error) => {
        throw new Error(`${where}: ${error.message}`);
      });
      expect(verified.kid, where).toBe('cards-ed');
    }
    // The 1.0 forms also verify with the SDK, which rebuilds the payload through its proto.
    for (const [where, card] of answers.filter(([name]) => name.includes('1.0'))) {
      await expect(sdkVerify(card), where).resolves.toBeUndefined();
    }
  });

  it('declares AUMP on the 1.0 card as the AUMP suite checks it (required: false), still verifiable', async () => {
    for (const version of ['1.0', '0.3'] as const) {
      const card = await publicCard(url, version);
      const entry = card.capabilities.extensions.find((e: { uri: string }) => e.uri === AUMP);
      expect(entry.required, version).toBe(false);
      expect(validateBridge(card, 'a2a_extension'), version).toEqual({ valid: true, errors: [] });
      expect((await verifyAgentCard(card, { jwks })).kid).toBe('cards-ed');
    }
    await expect(sdkVerify(await publicCard(url, '1.0'))).resolves.toBeUndefined();
  });

  it('concord card <dir> prints the cards the host serves, extension entries and signatures included', async () => {
    // Served without gRPC: a card printed ahead of serving cannot know a gRPC port.
    const plain = startConcord(['serve', dir, '--port', '0', '--store', 'memory']);
    try {
      const banner = await plain.until((out) => out.includes('task stores:'));
      const at = /hosting \d+ agent\(s\) at (http:\/\/\S+\/)/.exec(banner)![1]!;
      for (const version of ['1.0', '0.3'] as const) {
        const printed = await concord(['card', dir, '--card-version', version, '--base-url', at], {
          CARDS_TEST_SECRET: SECRET,
        });
        expect(printed.code, printed.stderr).toBe(0);
        const card = JSON.parse(printed.stdout) as Json;
        expect(card, version).toEqual(await publicCard(`${at}agents/vault/`, version));
        expect(card.capabilities.extensions.map((e: { uri: string }) => e.uri)).toContain(AUMP);
      }
    } finally {
      plain.child.kill('SIGTERM');
      await plain.exited;
    }
  });
});
