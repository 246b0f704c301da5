/**
 * Card resolution over real sockets: caching with ETag revalidation, the legacy path, 0.3-only
 * cards, and signature verification against a JWKS.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { signAgentCard, withSignatures } from '../../src/card/internal.js';
import {
  A2AClient,
  A2ALocalError,
  CardCache,
  resolveAgentCard,
  type CallOutcome,
  type OutgoingCall,
} from '../../src/client/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { startJsonServer, type JsonServer } from './helpers/json-server.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

async function echoWith(options: Parameters<typeof startEcho>[0]): Promise<EchoServer> {
  const echo = await startEcho(options);
  cleanup.push(() => echo.close());
  return echo;
}

async function jsonServer(routes: Parameters<typeof startJsonServer>[0]): Promise<JsonServer> {
  const server = await startJsonServer(routes);
  cleanup.push(() => server.close());
  return server;
}

/** Records the card fetches a client makes: request headers and answer status. */
function recorder(): {
  seen: { headers: Record<string, string>; status?: number }[];
  interceptor: { after(call: OutgoingCall, outcome: CallOutcome): void };
} {
  const seen: { headers: Record<string, string>; status?: number }[] = [];
  return {
    seen,
    interceptor: {
      after(call, outcome) {
        if (call.purpose !== 'getAgentCard') return;
        seen.push(
          outcome.status === undefined
            ? { headers: { ...call.headers } }
            : { headers: { ...call.headers }, status: outcome.status },
        );
      },
    },
  };
}

function card03(url: string): Record<string, unknown> {
  return {
    protocolVersion: '0.3.0',
    name: 'Old Agent',
    description: 'Speaks 0.3 only',
    url,
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
  };
}

describe('card caching (A2A 1.0 §8.6)', () => {
  it('revalidates a stale card with If-None-Match and reuses it on 304', async () => {
    const echo = await echoWith({ cardMaxAgeSeconds: 0 });
    const cache = new CardCache();
    const { seen, interceptor } = recorder();
    const options = { allowPrivateNetworks: true, cardCache: cache, interceptors: [interceptor] };
    const first = await A2AClient.connect(echo.url, options);
    const second = await A2AClient.connect(echo.url, options);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.status).toBe(200);
    expect(seen[0]?.headers['if-none-match']).toBeUndefined();
    expect(seen[1]?.headers['if-none-match']).toMatch(/^".+"$/);
    expect(seen[1]?.status).toBe(304);
    expect(first.resolvedCard?.source).toBe('network');
    expect(second.resolvedCard?.source).toBe('revalidated');
    expect(second.card).toEqual(first.card);
  });

  it('uses a fresh card without asking while max-age lasts', async () => {
    const echo = await echoWith({ cardMaxAgeSeconds: 300 });
    const cache = new CardCache();
    const { seen, interceptor } = recorder();
    const options = { allowPrivateNetworks: true, cardCache: cache, interceptors: [interceptor] };
    await A2AClient.connect(echo.url, options);
    const again = await A2AClient.connect(echo.url, options);
    expect(seen).toHaveLength(1);
    expect(again.resolvedCard?.source).toBe('cache');
  });

  it('never keeps a no-store card', async () => {
    const server = await jsonServer({
      '/.well-known/agent-card.json': () => ({
        headers: { 'cache-control': 'no-store' },
        body: card03(`${server.url}rpc`),
      }),
    });
    const cache = new CardCache();
    await resolveAgentCard(server.url, { allowPrivateNetworks: true, cache });
    await resolveAgentCard(server.url, { allowPrivateNetworks: true, cache });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers['if-none-match']).toBeUndefined();
  });
});

describe('card location and versions', () => {
  it('falls back to the legacy /.well-known/agent.json and understands a 0.3-only card', async () => {
    const server = await jsonServer({
      '/.well-known/agent.json': () => ({ body: card03(`${server.url}rpc`) }),
    });
    const client = await A2AClient.connect(server.url, { allowPrivateNetworks: true, cardCache: false });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
    ]);
    expect(client.resolvedCard?.cardVersion).toBe('0.3');
    expect(client.transport).toEqual({
      url: `${server.url}rpc`,
      protocolBinding: 'JSONRPC',
      protocolVersion: '0.3',
    });
  });

  it('asks for the 1.0 card with A2A-Version, and for the 0.3 card without it', async () => {
    const echo = await echoWith({});
    const { seen, interceptor } = recorder();
    const v1 = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: false,
      interceptors: [interceptor],
    });
    const v03 = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: false,
      interceptors: [interceptor],
      prefer: { versions: ['0.3'] },
    });
    expect(seen[0]?.headers['a2a-version']).toBe('1.0');
    expect(seen[1]?.headers['a2a-version']).toBeUndefined();
    expect(v1.resolvedCard?.cardVersion).toBe('1.0');
    expect(v1.transport.protocolVersion).toBe('1.0');
    expect(v03.resolvedCard?.cardVersion).toBe('0.3');
    expect(v03.transport.protocolVersion).toBe('0.3');
  });

  it('reports a missing card and a card that is not a card as BAD_RESPONSE', async () => {
    const server = await jsonServer({ '/bad/.well-known/agent-card.json': { body: { name: 'x' } } });
    const missing = await resolveAgentCard(`${server.url}none/`, {
      allowPrivateNetworks: true,
      cache: false,
    }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ kind: 'BAD_RESPONSE', httpStatus: 404 });
    const bad = await resolveAgentCard(`${server.url}bad/`, {
      allowPrivateNetworks: true,
      cache: false,
    }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(A2ALocalError);
    expect((bad as A2ALocalError).message).toMatch(/not a valid 0\.3 card/);
  });
});

describe('card signatures (A2A 1.0 §8.4)', () => {
  async function signedServer() {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const other = await generateKeyPair('ES256', { extractable: true });
    const json: Record<string, unknown> = card03('http://127.0.0.1:1/rpc');
    const signed = withSignatures(
      json,
      await signAgentCard(json, [{ kid: 'k1', alg: 'ES256', privateKey: pair.privateKey }]),
    );
    const server = await jsonServer({
      '/signed/.well-known/agent-card.json': { body: signed },
      '/unsigned/.well-known/agent-card.json': { body: json },
      '/tampered/.well-known/agent-card.json': { body: { ...signed, name: 'Evil Agent' } },
    });
    const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' }] };
    const wrongJwks = { keys: [{ ...(await exportJWK(other.publicKey)), kid: 'k1', alg: 'ES256' }] };
    return { server, jwks, wrongJwks };
  }

  it('accepts a card signed by a key in the JWKS', async () => {
    const { server, jwks } = await signedServer();
    const resolved = await resolveAgentCard(`${server.url}signed/`, {
      allowPrivateNetworks: true,
      cache: false,
      verify: { jwks },
    });
    expect(resolved.verification).toMatchObject({ kid: 'k1', alg: 'ES256', index: 0 });
    expect(resolved.card.name).toBe('Old Agent');
  });

  it('refuses a tampered, an unsigned and a wrongly keyed card with CARD_SIGNATURE_INVALID', async () => {
    const { server, jwks, wrongJwks } = await signedServer();
    const attempts = [
      () =>
        A2AClient.connect(`${server.url}tampered/`, {
          allowPrivateNetworks: true,
          cardCache: false,
          verify: { jwks },
        }),
      () =>
        A2AClient.connect(`${server.url}unsigned/`, {
          allowPrivateNetworks: true,
          cardCache: false,
          verify: { jwks },
        }),
      () =>
        A2AClient.connect(`${server.url}signed/`, {
          allowPrivateNetworks: true,
          cardCache: false,
          verify: { jwks: wrongJwks },
        }),
    ];
    for (const attempt of attempts) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(A2ALocalError);
      expect((error as A2ALocalError).kind).toBe('CARD_SIGNATURE_INVALID');
    }
  });
});
