/**
 * Credentials chosen from the card's security requirements, presented to a real server, and the
 * interceptors (headers, extensions, tracing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  A2AClient,
  A2AClientError,
  CardCache,
  apiKey,
  bearer,
  extensionsInterceptor,
  headersInterceptor,
  oauth2ClientCredentials,
  selectCredentials,
  type OutgoingCall,
} from '../../src/client/internal.js';
import type { AgentCard } from '../../src/protocol/index.js';
import { startEcho } from '../helpers/echo-server.js';
import { startJsonServer } from './helpers/json-server.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echoAgent from '../../examples/echo/agent.mjs';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

const hello = () => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] },
});

/** Echo requiring `Authorization: Bearer <token>`, declaring the given schemes on its card. */
async function securedEcho(
  card: Partial<AgentCard>,
  accept: (headers: (name: string) => string | undefined) => boolean,
) {
  const echo = await startEcho({
    agentCard: { ...(echoAgent.agentCard as object), ...card } as never,
    authenticate: (request) => (accept((n) => request.header(n)) ? { name: 'caller' } : undefined),
  });
  cleanup.push(() => echo.close());
  return echo;
}

describe('credentials', () => {
  it('presents a bearer token (static or from a function) for an HTTP bearer scheme; none gets 401', async () => {
    const echo = await securedEcho(
      {
        securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { jwt: { list: [] } } }],
      },
      (h) => h('authorization') === 'Bearer s3cret',
    );
    const base = { allowPrivateNetworks: true, cardCache: new CardCache() };
    const ok = await A2AClient.connect(echo.url, { ...base, auth: bearer(async () => 's3cret') });
    expect('task' in (await ok.sendMessage(hello()))).toBe(true);
    const anonymous = await A2AClient.connect(echo.url, base);
    const error = await anonymous.sendMessage(hello()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect(error).toMatchObject({ type: 'UnauthenticatedError', httpStatus: 401 });
  });

  it('presents an API key only where the card names it', async () => {
    const echo = await securedEcho(
      {
        securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-Api-Key' } } },
        securityRequirements: [{ schemes: { key: { list: [] } } }],
      },
      (h) => h('x-api-key') === 'k-1',
    );
    const client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: ['HTTP+JSON'] },
      auth: [
        apiKey({ in: 'query', name: 'key', value: 'wrong-place' }),
        apiKey({ in: 'header', name: 'X-Api-Key', value: 'k-1' }),
      ],
    });
    expect('task' in (await client.sendMessage(hello()))).toBe(true);
  });

  it('gets an OAuth 2.0 client-credentials token from the card’s token URL, once, and presents it', async () => {
    const tokens = await startJsonServer({
      '/token': (r) =>
        r.headers.authorization === `Basic ${Buffer.from('cid:csecret').toString('base64')}` &&
        r.body.includes('grant_type=client_credentials')
          ? { body: { access_token: 'tok-1', token_type: 'Bearer', expires_in: 3600 } }
          : { status: 401, body: { error: 'invalid_client' } },
    });
    cleanup.push(() => tokens.close());
    const echo = await securedEcho(
      {
        securitySchemes: {
          oauth: {
            oauth2SecurityScheme: {
              flows: {
                clientCredentials: { tokenUrl: `${tokens.url}token`, scopes: { 'agent:call': 'call' } },
              },
            },
          },
        },
        securityRequirements: [{ schemes: { oauth: { list: ['agent:call'] } } }],
      },
      (h) => h('authorization') === 'Bearer tok-1',
    );
    const client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      auth: oauth2ClientCredentials({ clientId: 'cid', clientSecret: 'csecret' }),
    });
    await client.sendMessage(hello());
    await client.sendMessage(hello());
    expect(tokens.requests).toHaveLength(1);
    expect(tokens.requests[0]?.body).toContain('scope=agent%3Acall');

    const wrong = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      auth: oauth2ClientCredentials({ clientId: 'cid', clientSecret: 'nope' }),
    });
    await expect(wrong.sendMessage(hello())).rejects.toMatchObject({ kind: 'BAD_RESPONSE', httpStatus: 401 });
  });

  it('selects the first requirement alternative it holds every credential for', () => {
    const card = {
      securitySchemes: {
        mtls: { mtlsSecurityScheme: {} },
        jwt: { httpAuthSecurityScheme: { scheme: 'bearer' } },
        key: { apiKeySecurityScheme: { location: 'header', name: 'k' } },
      },
      securityRequirements: [
        { schemes: { mtls: { list: [] }, jwt: { list: [] } } },
        { schemes: { jwt: { list: ['a'] }, key: { list: [] } } },
      ],
    } as unknown as AgentCard;
    const b = bearer('t');
    const k = apiKey({ in: 'header', name: 'k', value: 'v' });
    const chosen = selectCredentials(card, [k, b]);
    expect(chosen.map((c) => c.credential)).toEqual([b, k]);
    expect(chosen[0]?.scopes).toEqual(['a']);
    expect(selectCredentials(card, [b])).toEqual([]);
  });
});

describe('interceptors', () => {
  it('adds headers and A2A-Extensions before, sees status and timing after', async () => {
    const echo = await startEcho();
    cleanup.push(() => echo.close());
    const seen: { purpose: string; headers: Record<string, string>; status?: number; ms: number }[] = [];
    const client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      extensions: ['https://example.com/ext/a'],
      interceptors: [
        headersInterceptor((call: OutgoingCall) => ({
          traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-0${call.attempt}`,
        })),
        extensionsInterceptor(['https://example.com/ext/b']),
        {
          after(call, outcome) {
            seen.push({
              purpose: call.purpose,
              headers: { ...call.headers },
              ms: outcome.durationMs,
              ...(outcome.status === undefined ? {} : { status: outcome.status }),
            });
          },
        },
      ],
    });
    await client.sendMessage(hello());
    expect(seen.map((s) => s.purpose)).toEqual(['getAgentCard', 'sendMessage']);
    const send = seen[1]!;
    expect(send.status).toBe(200);
    expect(send.ms).toBeGreaterThan(0);
    expect(send.headers.traceparent).toMatch(/^00-a{32}-b{16}-01$/);
    expect(send.headers['a2a-extensions']).toBe('https://example.com/ext/a, https://example.com/ext/b');
    expect(seen[0]?.headers['a2a-extensions']).toBeUndefined();
  });
});
