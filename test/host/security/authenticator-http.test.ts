/**
 * Host security through the front door: an A2A server on a real socket whose card declares the
 * host's schemes (toCardSecurity) and whose `authenticate` is the bound host authenticator; called
 * with fetch on JSON-RPC 1.0 (SendMessage) and REST (`POST /message:send`). Covers 401 with a
 * challenge for missing/invalid credentials, 403 for missing scopes, HS256 and ES256-via-JWKS
 * bearer tokens (remote and file key sets), API keys in header, query and cookie, and the card.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../../src/server/adapters/node.js';
import { createA2AServer } from '../../../src/server/index.js';
import type { SecurityConfig } from '../../../src/host/host-config.js';
import { bindRequirements, createAuthenticator, toCardSecurity } from '../../../src/host/security/index.js';

const SECRET = 'a-shared-secret-of-at-least-32-bytes!';
const ISSUER = 'https://issuer.test';
const AUDIENCE = 'concord-tests';
const HEADER_KEY = 'key-in-a-header-0001';
const QUERY_KEY = 'key-in-the-query-0002';
const COOKIE_KEY = 'key-in-a-cookie-0003';

let dir: string;
let jwksServer: Server;
let jwksUrl: string;
const jwksFetches: string[] = [];
let esKey: CryptoKey;
let fileKey: CryptoKey;
let agent: RunningServer;
let open: RunningServer;
let config: SecurityConfig;

async function hs256(claims: Record<string, unknown>, exp: string | number = '5m', secret = SECRET) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

async function es256(key: CryptoKey, kid: string, claims: Record<string, unknown>) {
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).setExpirationTime('5m').sign(key);
}

const card = (security: ReturnType<typeof toCardSecurity>) => ({
  name: 'Secured',
  description: 'An agent behind the host authenticator',
  version: '1.0.0',
  capabilities: { streaming: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'hello', name: 'Hello', description: 'Greets the caller', tags: ['test'] }],
  ...security,
});

async function start(security: SecurityConfig): Promise<RunningServer> {
  const auth = createAuthenticator(security, {
    fetch: (url, init) => {
      jwksFetches.push(url);
      return fetch(url, init);
    },
  });
  const server = createA2AServer({
    agentCard: card(toCardSecurity(security)),
    executor: { execute: (c, u) => u.reply(`hello ${c.call.user?.name ?? 'anonymous'}`) },
    authenticate: bindRequirements(auth, security.requirements),
  });
  return listen(server, { port: 0 });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concord-sec-'));
  const remote = await generateKeyPair('ES256');
  esKey = remote.privateKey;
  const jwks = {
    keys: [{ ...(await exportJWK(remote.publicKey)), kid: 'remote-1', alg: 'ES256', use: 'sig' }],
  };
  jwksServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  const local = await generateKeyPair('ES256');
  fileKey = local.privateKey;
  const jwksFile = join(dir, 'jwks.json');
  writeFileSync(
    jwksFile,
    JSON.stringify({ keys: [{ ...(await exportJWK(local.publicKey)), kid: 'file-1' }] }),
  );

  config = {
    schemes: {
      bearer: { type: 'http', scheme: 'bearer', secret: SECRET, issuer: ISSUER, audience: AUDIENCE },
      partner: { type: 'http', scheme: 'bearer', jwks: jwksUrl, description: 'Partner tokens' },
      local: { type: 'http', scheme: 'bearer', jwks: jwksFile, principalClaim: 'client_id' },
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        keys: [{ key: HEADER_KEY, principal: 'svc-header', scopes: ['tasks:write'] }],
      },
      queryKey: {
        type: 'apiKey',
        in: 'query',
        name: 'api_key',
        keys: [{ key: QUERY_KEY, principal: 'svc-query', scopes: [] }],
      },
      cookieKey: {
        type: 'apiKey',
        in: 'cookie',
        name: 'concord_key',
        keys: [{ key: COOKIE_KEY, principal: 'svc-cookie', scopes: [] }],
      },
    },
    requirements: [
      { bearer: ['tasks:write'] },
      { partner: [] },
      { local: [] },
      { apiKey: ['tasks:write'] },
      { queryKey: [] },
      { cookieKey: [] },
    ],
    internalScope: 'agents:internal',
  };
  agent = await start(config);
  open = await start({ ...config, requirements: [] });
});

afterAll(async () => {
  await agent?.close();
  await open?.close();
  await new Promise((resolve) => jwksServer?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const message = { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } };

async function rpc(base: string, headers: Record<string, string> = {}, query = '') {
  const response = await fetch(`${base}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: message }),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function rest(base: string, headers: Record<string, string> = {}, query = '') {
  const response = await fetch(`${base}message:send${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify(message),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The error message of a JSON-RPC or REST error body. */
function errorMessage(text: string): string {
  const body = JSON.parse(text) as { error: { message: string } };
  return body.error.message;
}

describe('host security over HTTP', () => {
  it('answers 401 with WWW-Authenticate and the accepted schemes when no credentials come', async () => {
    for (const call of [rpc, rest]) {
      const reply = await call(agent.url);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toMatch(/^bearer realm=/i);
      const text = errorMessage(reply.text);
      expect(text).toContain('Authentication required');
      expect(text).toContain('"apiKey" (header X-API-Key)');
      expect(text).toContain('"queryKey" (query parameter api_key)');
    }
  });

  it('accepts a valid HS256 token on both bindings and names the caller by `sub`', async () => {
    const token = await hs256({ sub: 'alice', scope: 'tasks:read tasks:write' });
    for (const call of [rpc, rest]) {
      const reply = await call(agent.url, { authorization: `Bearer ${token}` });
      expect(reply.status).toBe(200);
      expect(reply.text).toContain('hello alice');
    }
  });

  it('refuses an expired token with 401, says why, and never echoes the token', async () => {
    const token = await hs256({ sub: 'alice', scope: 'tasks:write' }, Math.floor(Date.now() / 1000) - 3600);
    for (const call of [rpc, rest]) {
      const reply = await call(agent.url, { authorization: `Bearer ${token}` });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).not.toBeNull();
      expect(reply.text).toContain('expired');
      expect(reply.text).not.toContain(token);
      expect(reply.text).not.toContain(token.split('.')[2]!);
    }
  });

  it('refuses a token signed with another secret (bad signature) with 401', async () => {
    const token = await hs256(
      { sub: 'mallory', scope: 'tasks:write' },
      '5m',
      'some-other-secret-of-32-bytes-!!!',
    );
    const reply = await rest(agent.url, { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(401);
    expect(reply.text).toContain('signature');
    expect(reply.text).not.toContain(token);
  });

  it('refuses garbage in the Authorization header without echoing it', async () => {
    const reply = await rpc(agent.url, { authorization: 'Bearer not-a-jwt-SECRETVALUE' });
    expect(reply.status).toBe(401);
    expect(reply.text).toContain('well-formed');
    expect(reply.text).not.toContain('SECRETVALUE');
  });

  it('answers 403 naming the missing scope when the token is valid but lacks it', async () => {
    const token = await hs256({ sub: 'bob', scope: 'tasks:read' });
    for (const call of [rpc, rest]) {
      const reply = await call(agent.url, { authorization: `Bearer ${token}` });
      expect(reply.status).toBe(403);
      expect(reply.text).toContain('tasks:write');
      expect(reply.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('verifies an ES256 token against a JWKS served over HTTP (fetched with the given fetch)', async () => {
    const token = await es256(esKey, 'remote-1', { sub: 'partner-co' });
    const reply = await rpc(agent.url, { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('hello partner-co');
    expect(jwksFetches).toContain(jwksUrl);
  });

  it('verifies an ES256 token against a JWKS file, with the principal from a configured claim', async () => {
    const token = await es256(fileKey, 'file-1', { client_id: 'batch-job' });
    const reply = await rest(agent.url, { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('hello batch-job');
  });

  it('accepts API keys in a header, a query parameter and a cookie', async () => {
    expect((await rpc(agent.url, { 'x-api-key': HEADER_KEY })).text).toContain('hello svc-header');
    const query = await rest(agent.url, {}, `?api_key=${QUERY_KEY}`);
    expect(query.status).toBe(200);
    expect(query.text).toContain('hello svc-query');
    const cookie = await rpc(agent.url, { cookie: `theme=dark; concord_key=${COOKIE_KEY}; other=1` });
    expect(cookie.status).toBe(200);
    expect(cookie.text).toContain('hello svc-cookie');
  });

  it('refuses a wrong API key with 401 without echoing it', async () => {
    for (const reply of [
      await rpc(agent.url, { 'x-api-key': 'wrong-key-VISIBLE' }),
      await rest(agent.url, {}, '?api_key=wrong-key-VISIBLE'),
      await rpc(agent.url, { cookie: 'concord_key=wrong-key-VISIBLE' }),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.text).toContain('not recognised');
      expect(reply.text).not.toContain('VISIBLE');
    }
  });

  it('with no requirements lets anonymous callers in, yet names authenticated ones and refuses bad credentials', async () => {
    expect((await rpc(open.url)).text).toContain('hello anonymous');
    const token = await hs256({ sub: 'carol' });
    expect((await rest(open.url, { authorization: `Bearer ${token}` })).text).toContain('hello carol');
    expect((await rpc(open.url, { 'x-api-key': 'nope' })).status).toBe(401);
  });

  it('declares the schemes and requirements in the card, and no secret, key or JWKS location', async () => {
    const response = await fetch(`${agent.url}.well-known/agent-card.json`, {
      headers: { 'a2a-version': '1.0' },
    });
    const text = await response.text();
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(json.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } },
      partner: {
        httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT', description: 'Partner tokens' },
      },
      local: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } },
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
      queryKey: { apiKeySecurityScheme: { location: 'query', name: 'api_key' } },
      cookieKey: { apiKeySecurityScheme: { location: 'cookie', name: 'concord_key' } },
    });
    expect(json.securityRequirements).toEqual([
      { schemes: { bearer: { list: ['tasks:write'] } } },
      { schemes: { partner: {} } },
      { schemes: { local: {} } },
      { schemes: { apiKey: { list: ['tasks:write'] } } },
      { schemes: { queryKey: {} } },
      { schemes: { cookieKey: {} } },
    ]);
    for (const secret of [
      SECRET,
      HEADER_KEY,
      QUERY_KEY,
      COOKIE_KEY,
      jwksUrl,
      dir,
      ISSUER,
      AUDIENCE,
      'svc-header',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
