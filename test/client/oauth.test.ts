/**
 * Card-driven OAuth 2.0 through the client API (decision 0168), against a real authorization
 * server on loopback (helpers/oauth-server.ts) and an agent that accepts only its live tokens:
 * client credentials obtained, reused, refreshed and re-granted; the device login with approval,
 * denial, slow_down and expiry; discovery through RFC 8414 metadata and OpenID Connect; refused
 * and expired refresh tokens; the guard on every token request; no secret in any error.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  A2AClient,
  A2AClientError,
  CardCache,
  OAuthError,
  oauth2ClientCredentials,
  oauth2DeviceCode,
  type A2AConnectOptions,
  type DeviceLoginPrompt,
  type OAuth2Tokens,
} from '../../src/client/internal.js';
import type { AgentCard } from '../../src/protocol/index.js';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions } from '../helpers/oauth-server.js';
import {
  AGENT_SCOPE,
  clientCredentialsScheme,
  deviceCodeScheme,
  openIdScheme,
  startOAuthAgent,
  type OAuthAgent,
} from '../helpers/oauth-agent.js';
import type { SecurityScheme } from '../../src/protocol/index.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

const SECRET = 'the-client-secret-42';

async function setup(
  scheme: (oauth: OAuthServer) => SecurityScheme,
  options: Partial<OAuthServerOptions> = {},
): Promise<{ oauth: OAuthServer; agent: OAuthAgent }> {
  const oauth = await startOAuthServer({
    clients: { service: { secret: SECRET }, cli: {} },
    ...options,
  });
  cleanup.push(() => oauth.close());
  const agent = await startOAuthAgent(oauth, scheme(oauth));
  cleanup.push(() => agent.close());
  return { oauth, agent };
}

async function connect(agent: OAuthAgent, auth: NonNullable<A2AConnectOptions['auth']>) {
  const client = await A2AClient.connect(agent.url, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
    auth,
  });
  cleanup.push(async () => client.close());
  return client;
}

const hello = () => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER' as const, parts: [{ text: 'hi' }] },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every secret a run handled must be absent from `text`. */
function expectNoSecrets(text: string, oauth: OAuthServer): void {
  expect(text).not.toContain(SECRET);
  for (const body of oauth.bodies) {
    for (const value of new URLSearchParams(body).values())
      if (value.length >= 20) expect(text).not.toContain(value);
  }
}

describe('client credentials from the card', () => {
  it('obtains a token once, reuses it, refreshes it before expiry and re-grants when the refresh token is refused', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme, {
      accessTokenTtl: 2,
      refreshForClientCredentials: true,
    });
    const client = await connect(
      agent,
      oauth2ClientCredentials({ clientId: 'service', clientSecret: SECRET }),
    );
    await client.sendMessage(hello());
    await client.sendMessage(hello());
    expect(oauth.grants.map((g) => [g.grantType, g.outcome])).toEqual([['client_credentials', 'ok']]);
    expect(agent.presented[0]).toBeDefined();
    expect(agent.presented[1]).toBe(agent.presented[0]);

    // Renewed at half its two-second life, with the refresh token.
    await sleep(1100);
    await client.sendMessage(hello());
    expect(oauth.grants.map((g) => [g.grantType, g.outcome])).toEqual([
      ['client_credentials', 'ok'],
      ['refresh_token', 'ok'],
    ]);
    expect(agent.presented[2]).not.toBe(agent.presented[1]);

    // The refresh token expires: the client asks for a new grant on its own.
    oauth.expireRefreshTokens();
    await sleep(1100);
    await client.sendMessage(hello());
    expect(oauth.grants.slice(2).map((g) => [g.grantType, g.outcome])).toEqual([
      ['refresh_token', 'invalid_grant'],
      ['client_credentials', 'ok'],
    ]);
    expect(oauth.introspect(agent.presented[3]).active).toBe(true);
    expect(oauth.bodies.find((b) => b.includes('grant_type=client_credentials'))).toContain(
      `scope=${encodeURIComponent(AGENT_SCOPE)}`,
    );
  });

  it('keeps a still-valid token when an early renewal fails for a passing reason, until it expires', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme, {
      accessTokenTtl: 3,
      refreshForClientCredentials: true,
    });
    const client = await connect(
      agent,
      oauth2ClientCredentials({ clientId: 'service', clientSecret: SECRET }),
    );
    await client.sendMessage(hello());
    await oauth.close();
    // Due for renewal (half its life), but the server is gone: the held token still serves.
    await sleep(1600);
    expect('task' in (await client.sendMessage(hello()))).toBe(true);
    expect(agent.presented[1]).toBe(agent.presented[0]);
    // Expired: now the failure is the caller's.
    await sleep(1600);
    await expect(client.sendMessage(hello())).rejects.toMatchObject({
      name: 'A2ALocalError',
      kind: 'NETWORK',
    });
    expect(agent.presented).toHaveLength(2);
  });

  it('a refused client (invalid_client) is an OAuthError naming the endpoint and the code, never the secret', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme);
    const client = await connect(
      agent,
      oauth2ClientCredentials({ clientId: 'service', clientSecret: 'wrong-secret-value' }),
    );
    const error = await client.sendMessage(hello()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({
      kind: 'BAD_RESPONSE',
      error: 'invalid_client',
      httpStatus: 401,
      loginRequired: false,
    });
    expect((error as Error).message).toContain(oauth.tokenUrl);
    expect((error as Error).message).toContain('invalid_client');
    expect((error as Error).message).not.toContain('wrong-secret-value');
    // Nothing reached the agent: the call stopped at the token.
    expect(agent.presented).toEqual([]);
  });

  it('discovers the token endpoint from an OpenID Connect discovery document, fetched once', async () => {
    const { oauth, agent } = await setup(openIdScheme);
    const client = await connect(
      agent,
      oauth2ClientCredentials({ clientId: 'service', clientSecret: SECRET }),
    );
    await client.sendMessage(hello());
    await client.sendMessage(hello());
    expect(oauth.documentGets).toEqual(['/.well-known/openid-configuration']);
    expect(oauth.grants.map((g) => g.outcome)).toEqual(['ok']);
  });

  it('discovers it from RFC 8414 metadata when the flow names none, and refuses metadata naming another issuer', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme);
    const fetched = await A2AClient.connect(agent.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
    });
    fetched.close();
    const withMetadata = (metadataUrl: string): AgentCard => ({
      ...fetched.card,
      securitySchemes: {
        corp: {
          oauth2SecurityScheme: {
            flows: { clientCredentials: { tokenUrl: '', scopes: { [AGENT_SCOPE]: 'call' } } },
            oauth2MetadataUrl: metadataUrl,
          },
        },
      },
    });
    const auth = oauth2ClientCredentials({ clientId: 'service', clientSecret: SECRET });
    const client = new A2AClient({
      card: withMetadata(`${oauth.url}.well-known/oauth-authorization-server`),
      allowPrivateNetworks: true,
      auth,
    });
    cleanup.push(async () => client.close());
    expect('task' in (await client.sendMessage(hello()))).toBe(true);
    expect(oauth.documentGets).toEqual(['/.well-known/oauth-authorization-server']);

    // The same document under a path whose issuer differs: a mix-up, refused (RFC 8414 §3.3).
    const other = await startOAuthServer({
      clients: { service: { secret: SECRET } },
      issuer: 'https://evil.example',
    });
    cleanup.push(() => other.close());
    const mixed = new A2AClient({
      card: withMetadata(`${other.url}.well-known/oauth-authorization-server`),
      allowPrivateNetworks: true,
      auth: oauth2ClientCredentials({ clientId: 'service', clientSecret: SECRET }),
    });
    cleanup.push(async () => mixed.close());
    await expect(mixed.sendMessage(hello())).rejects.toMatchObject({
      name: 'OAuthError',
      error: 'invalid_response',
      message: expect.stringContaining('names the issuer "https://evil.example"'),
    });
    expect(other.grants).toEqual([]);
  });

  it('sends token requests through the SSRF guard, and never a secret to a plain-http endpoint off loopback', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme);
    // The agent is reachable as localhost; the token endpoint at 127.0.0.1 is not allowed.
    const local = agent.url.replace('127.0.0.1', 'localhost');
    const client = await A2AClient.connect(local, {
      allowedHosts: ['localhost'],
      cardCache: new CardCache(),
      auth: oauth2ClientCredentials({ clientId: 'service', clientSecret: SECRET }),
    });
    cleanup.push(async () => client.close());
    await expect(client.sendMessage(hello())).rejects.toMatchObject({ kind: 'SSRF_BLOCKED' });
    expect(oauth.grants).toEqual([]);

    const plain = new A2AClient({
      card: {
        ...client.card,
        securitySchemes: {
          corp: {
            oauth2SecurityScheme: {
              flows: { clientCredentials: { tokenUrl: 'http://auth.example/token', scopes: {} } },
            },
          },
        },
      },
      allowPrivateNetworks: true,
      auth: oauth2ClientCredentials({ clientId: 'service', clientSecret: SECRET }),
    });
    cleanup.push(async () => plain.close());
    await expect(plain.sendMessage(hello())).rejects.toMatchObject({
      name: 'OAuthError',
      error: 'invalid_endpoint',
      message: expect.stringContaining('must use https'),
    });
  });
});

describe('the device login (RFC 8628)', () => {
  it('prompts, waits for the person to approve, then calls with the token; refreshes it later', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme, { accessTokenTtl: 2 });
    const prompts: DeviceLoginPrompt[] = [];
    const store = new Map<string, OAuth2Tokens>();
    const client = await connect(
      agent,
      oauth2DeviceCode({ clientId: 'cli', store, onPrompt: (prompt) => void prompts.push(prompt) }),
    );
    const login = client.authenticate();
    const code = await oauth.nextUserCode();
    await vi.waitFor(() => expect(prompts).toHaveLength(1));
    expect(prompts).toEqual([
      {
        verificationUri: `${oauth.url}device`,
        verificationUriComplete: `${oauth.url}device?user_code=${code}`,
        userCode: code,
        expiresIn: 600,
      },
    ]);
    await sleep(1500);
    expect(store.size).toBe(0);
    oauth.approve(code, 'ada');
    await login;
    // It polled while waiting, at the interval asked for (1 s).
    const polls = oauth.pollTimes(code);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < polls.length; i++) expect(polls[i]! - polls[i - 1]!).toBeGreaterThanOrEqual(950);
    expect(store.size).toBe(1);
    expect([...store.values()][0]).toMatchObject({ scopes: [AGENT_SCOPE], refreshToken: expect.any(String) });

    expect('task' in (await client.sendMessage(hello()))).toBe(true);
    expect(oauth.introspect(agent.presented[0])).toMatchObject({ active: true, subject: 'ada' });
    await sleep(1100);
    await client.sendMessage(hello());
    expect(oauth.grants.map((g) => [g.grantType, g.outcome]).slice(-1)).toEqual([['refresh_token', 'ok']]);
    expect(prompts).toHaveLength(1);
  });

  it('a denied login is an OAuthError access_denied; nothing is kept', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme);
    const store = new Map<string, OAuth2Tokens>();
    const client = await connect(agent, oauth2DeviceCode({ clientId: 'cli', store, onPrompt: () => {} }));
    const login = client.authenticate().catch((e: unknown) => e);
    oauth.deny(await oauth.nextUserCode());
    const error = await login;
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ error: 'access_denied', message: expect.stringContaining('refused') });
    expect(store.size).toBe(0);
    expectNoSecrets((error as Error).message, oauth);
  });

  it('a code nobody approves expires (expired_token)', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme, { deviceCodeTtl: 2 });
    const client = await connect(agent, oauth2DeviceCode({ clientId: 'cli', onPrompt: () => {} }));
    await expect(client.authenticate()).rejects.toMatchObject({
      name: 'OAuthError',
      error: 'expired_token',
      message: expect.stringContaining('not completed in time'),
    });
    expect(oauth.grants.every((g) => g.outcome !== 'ok')).toBe(true);
  });

  it('honours slow_down: every later poll waits 5 s longer', { timeout: 20_000 }, async () => {
    const { oauth, agent } = await setup(deviceCodeScheme, { slowDownFirstPoll: true });
    const client = await connect(agent, oauth2DeviceCode({ clientId: 'cli', onPrompt: () => {} }));
    const login = client.authenticate();
    const code = await oauth.nextUserCode();
    oauth.approve(code);
    await login;
    const polls = oauth.pollTimes(code);
    expect(oauth.grants.map((g) => g.outcome)).toEqual(['slow_down', 'ok']);
    expect(polls).toHaveLength(2);
    expect(polls[1]! - polls[0]!).toBeGreaterThanOrEqual(5950);
  });

  it('an expired refresh token without anyone to prompt says a login is needed; with a prompt, logs in again', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme, { accessTokenTtl: 2 });
    const store = new Map<string, OAuth2Tokens>();
    const first = await connect(agent, oauth2DeviceCode({ clientId: 'cli', store, onPrompt: () => {} }));
    const login = first.authenticate();
    oauth.approve(await oauth.nextUserCode());
    await login;
    oauth.expireRefreshTokens();
    await sleep(1100);

    // The same store, no one at the terminal: the refresh is refused and nothing else can be done.
    const unattended = await connect(agent, oauth2DeviceCode({ clientId: 'cli', store }));
    const error = await unattended.sendMessage(hello()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ error: 'login_required', loginRequired: true, httpStatus: 400 });
    expect((error as Error).message).toContain('refused the refresh token (invalid_grant)');
    expectNoSecrets((error as Error).message, oauth);
    expect(store.size).toBe(0);
    // No call reached the agent without a token.
    expect(agent.presented).toEqual([]);

    const prompts: DeviceLoginPrompt[] = [];
    const attended = await connect(
      agent,
      oauth2DeviceCode({ clientId: 'cli', store, onPrompt: (p) => void prompts.push(p) }),
    );
    const again = attended.authenticate();
    oauth.approve(await oauth.nextUserCode());
    await again;
    expect(prompts).toHaveLength(1);
    expect('task' in (await attended.sendMessage(hello()))).toBe(true);
  });

  it('finds the device endpoint through OpenID Connect discovery; a token the agent does not know gets its 401', async () => {
    const { oauth, agent } = await setup(openIdScheme);
    const client = await connect(agent, oauth2DeviceCode({ clientId: 'cli', onPrompt: () => {} }));
    const login = client.authenticate();
    oauth.approve(await oauth.nextUserCode());
    await login;
    expect(oauth.documentGets).toEqual(['/.well-known/openid-configuration']);
    expect('task' in (await client.sendMessage(hello()))).toBe(true);

    const store = new Map<string, OAuth2Tokens>();
    const forged = await connect(agent, oauth2DeviceCode({ clientId: 'cli', store }));
    const key = JSON.stringify([forged.card.supportedInterfaces[0]!.url, 'corp', 'cli', [AGENT_SCOPE]]);
    store.set(key, {
      accessToken: 'not-issued-by-the-server',
      expiresAt: Date.now() + 60_000,
      issuedAt: Date.now(),
      scopes: [AGENT_SCOPE],
      refreshUrl: oauth.tokenUrl,
    });
    await expect(forged.sendMessage(hello())).rejects.toBeInstanceOf(A2AClientError);
    expect(agent.presented.at(-1)).toBe('not-issued-by-the-server');
  });
});
