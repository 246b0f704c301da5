/**
 * Key sets for card verification go through the client's network guard (decision 0039): a JWKS
 * URL (also one a jku names) on a private address is refused like any other target, and one the policy
 * allows is fetched by the client's own pinned HTTP (a hostname only the client's resolver knows
 * proves jose's fetch was not used).
 */
import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { signAgentCard, verifyAgentCard, withSignatures } from '../../src/card/internal.js';
import {
  A2AClient,
  createJwksFetcher,
  resolveAgentCard,
  type HostResolver,
} from '../../src/client/internal.js';
import { startJsonServer, type JsonServer } from './helpers/json-server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

/** `keys.test`, `agent.test` and `keys.localhost` exist only for this resolver: all are 127.0.0.1. */
const resolve: HostResolver = async (hostname) => {
  if (['keys.test', 'agent.test', 'keys.localhost'].includes(hostname))
    return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`unknown host ${hostname}`);
};

async function signedCardServer(jkuPath?: string): Promise<{ server: JsonServer; port: string }> {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] };
  const holder: { card?: unknown } = {};
  const server = await startJsonServer({
    '/.well-known/agent-card.json': () => ({ body: holder.card }),
    '/jwks.json': { body: jwks },
  });
  cleanup.push(() => server.close());
  const port = new URL(server.url).port;
  const json: Record<string, unknown> = {
    name: 'Signed',
    description: 'A signed card',
    version: '1',
    supportedInterfaces: [
      { url: `http://agent.test:${port}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'A skill', tags: ['t'] }],
  };
  const key = { kid: 'k1', alg: 'ES256' as const, privateKey: pair.privateKey };
  // A plain-http jku must name this machine (card-signing.ts), hence keys.localhost.
  const jku = jkuPath === undefined ? undefined : `http://keys.localhost:${port}${jkuPath}`;
  holder.card = withSignatures(json, await signAgentCard(json, [jku === undefined ? key : { ...key, jku }]));
  return { server, port };
}

describe('JWKS fetches through the guard', () => {
  it('fetches a JWKS URL with the client’s resolver and policy, and verifies', async () => {
    const { server, port } = await signedCardServer();
    const policy = { resolve, allowedHosts: ['agent.test', 'keys.test'] };
    const resolved = await resolveAgentCard(`http://agent.test:${port}/`, {
      ...policy,
      cache: false,
      verify: { jwks: new URL(`http://keys.test:${port}/jwks.json`) },
    });
    expect(resolved.verification).toMatchObject({ kid: 'k1', alg: 'ES256' });
    expect(server.requests.map((r) => r.path)).toContain('/jwks.json');
  });

  it('fetches a configured key set that the jku names the same way', async () => {
    const { port } = await signedCardServer('/jwks.json');
    const client = await A2AClient.connect(`http://agent.test:${port}/`, {
      resolve,
      allowedHosts: ['agent.test', 'keys.localhost'],
      cardCache: false,
      verify: { jwks: new URL(`http://keys.localhost:${port}/jwks.json`) },
    });
    expect(client.resolvedCard?.verification).toMatchObject({ kid: 'k1' });
  });

  it('refuses a key set on a private address: CARD_SIGNATURE_INVALID naming the refusal', async () => {
    const { server, port } = await signedCardServer();
    const error = await A2AClient.connect(`http://agent.test:${port}/`, {
      resolve,
      // The card's host is allowed; the key host resolves to loopback and is not.
      allowedHosts: ['agent.test'],
      cardCache: false,
      verify: { jwks: new URL(`http://keys.test:${port}/jwks.json`) },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'CARD_SIGNATURE_INVALID' });
    expect((error as Error).message).toContain(`Refusing http://keys.test:${port}/jwks.json`);
    expect(server.requests.map((r) => r.path)).not.toContain('/jwks.json');
  });

  it('createJwksFetcher serves verifyAgentCard directly, and reports a non-JWKS answer', async () => {
    const { server, port } = await signedCardServer();
    const card = await (await fetch(`${server.url}.well-known/agent-card.json`)).json();
    const fetchJwks = createJwksFetcher({ resolve, allowedHosts: ['keys.test'] });
    const verified = await verifyAgentCard(card, {
      jwks: new URL(`http://keys.test:${port}/jwks.json`),
      fetchJwks,
    });
    expect(verified.kid).toBe('k1');
    const wrong = await verifyAgentCard(card, {
      jwks: new URL(`http://keys.test:${port}/.well-known/agent-card.json`),
      fetchJwks,
    }).catch((e: unknown) => e);
    expect((wrong as Error).message).toContain('is not a JWKS');
  });
});
