/**
 * The host authenticator's decisions in detail, through its public API with plain HttpRequests:
 * claims (iss, aud, nbf, exp, principal, scopes), the clock option, a key set that cannot be
 * fetched, credentials shared by several schemes, AND alternatives, configuration errors, and the
 * constant-time comparison and cookie parsing it relies on.
 */
import { createServer } from 'node:net';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/protocol/index.js';
import type { HttpRequest } from '../../../src/server/index.js';
import type { SecurityConfig } from '../../../src/host/host-config.js';
import {
  bindRequirements,
  constantTimeEqual,
  createAuthenticator,
  parseCookies,
} from '../../../src/host/security/index.js';

const SECRET = 'unit-test-secret-unit-test-secret';
const OTHER = 'another-secret-another-secret-!!';

function request(headers: Record<string, string> = {}, query = ''): HttpRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method: 'POST',
    path: '/',
    query: new URLSearchParams(query),
    header: (name) => lower[name],
    text: async () => '',
    signal: new AbortController().signal,
  };
}

async function token(claims: Record<string, unknown>, secret = SECRET, alg = 'HS256'): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg });
  if (claims.exp === undefined && claims.noExp !== true) jwt.setExpirationTime('10m');
  return jwt.sign(new TextEncoder().encode(secret));
}

const config = (extra: Partial<SecurityConfig> = {}): SecurityConfig => ({
  schemes: {
    bearer: { type: 'http', scheme: 'bearer', secret: SECRET, issuer: 'https://iss', audience: 'aud' },
    other: { type: 'http', scheme: 'bearer', secret: OTHER },
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      keys: [
        { key: 'short', principal: 'svc-a', scopes: ['read'] },
        { key: 'a-much-longer-api-key-value', principal: 'svc-b', scopes: ['write'] },
      ],
    },
  },
  requirements: [],
  internalScope: 'agents:internal',
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<A2AError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof A2AError) return error;
    throw error;
  }
  throw new Error('expected an A2AError');
}

describe('createAuthenticator', () => {
  const auth = createAuthenticator(config());
  const good = { iss: 'https://iss', aud: 'aud', sub: 'alice' };

  it('reads scopes from `scope` (space-separated) or `scp` (array or string)', async () => {
    const a = await auth.authenticate(
      request({ authorization: `Bearer ${await token({ ...good, scope: 'a  b' })}` }),
      [],
    );
    expect(a?.scopes).toEqual(['a', 'b']);
    const b = await auth.authenticate(
      request({ authorization: `bearer ${await token({ ...good, scp: ['c', 'd'] })}` }),
      [],
    );
    expect(b?.scopes).toEqual(['c', 'd']);
    const c = await auth.authenticate(
      request({ authorization: `Bearer ${await token({ ...good, scp: 'e' })}` }),
      [],
    );
    expect(c).toMatchObject({ name: 'alice', scopes: ['e'] });
  });

  it('checks issuer and audience when configured, and requires exp', async () => {
    const wrongIss = await failure(
      auth.authenticate(
        request({ authorization: `Bearer ${await token({ ...good, iss: 'https://evil' })}` }),
        [],
      ),
    );
    expect(wrongIss.message).toContain('untrusted issuer');
    expect(wrongIss.metadata).toEqual({ schemes: 'bearer', reason: 'wrong_issuer' });
    const wrongAud = await failure(
      auth.authenticate(
        request({ authorization: `Bearer ${await token({ ...good, aud: 'elsewhere' })}` }),
        [],
      ),
    );
    expect(wrongAud.message).toContain('another audience');
    const noExp = await failure(
      auth.authenticate(request({ authorization: `Bearer ${await token({ ...good, noExp: true })}` }), []),
    );
    expect(noExp.message).toContain('no "exp" claim');
  });

  it('refuses a token that is not valid yet, and one without a principal', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    const early = await failure(
      auth.authenticate(request({ authorization: `Bearer ${await token({ ...good, nbf: future })}` }), []),
    );
    expect(early.message).toContain('not valid yet');
    const { sub: _sub, ...anonymous } = good;
    const nobody = await failure(
      auth.authenticate(request({ authorization: `Bearer ${await token(anonymous)}` }), []),
    );
    expect(nobody.message).toContain('no "sub" claim');
  });

  it('uses the injected clock for exp', async () => {
    const jwt = await token(good);
    const later = createAuthenticator(config(), { now: () => Date.now() + 3 * 3600_000 });
    const expired = await failure(later.authenticate(request({ authorization: `Bearer ${jwt}` }), []));
    expect(expired.type).toBe('UnauthenticatedError');
    expect(expired.metadata?.reason).toBe('token_expired');
    expect((await auth.authenticate(request({ authorization: `Bearer ${jwt}` }), []))?.name).toBe('alice');
  });

  it('does not call a token invalid when another scheme reading the same header accepts it', async () => {
    const jwt = await token({ sub: 'bob', scope: 'x' }, OTHER);
    const identity = await auth.authenticate(request({ authorization: `Bearer ${jwt}` }), [
      { bearer: [] },
      { other: ['x'] },
    ]);
    expect(identity?.name).toBe('bob');
    expect(Object.keys(identity!.schemes)).toEqual(['other']);
    const denied = await failure(
      auth.authenticate(request({ authorization: `Bearer ${jwt}` }), [{ other: ['y'] }]),
    );
    expect(denied.type).toBe('PermissionDeniedError');
  });

  it('evaluates an AND alternative over two schemes: principal from the first', async () => {
    const headers = { authorization: `Bearer ${await token({ ...good, scope: 'w' })}`, 'x-api-key': 'short' };
    const both = await auth.authenticate(request(headers), [{ apiKey: ['read'], bearer: ['w'] }]);
    expect(both).toMatchObject({ name: 'svc-a' });
    expect(both?.scopes.sort()).toEqual(['read', 'w']);
    const onlyOne = await failure(
      auth.authenticate(request({ 'x-api-key': 'short' }), [{ apiKey: [], bearer: [] }]),
    );
    expect(onlyOne.type).toBe('UnauthenticatedError');
    expect(onlyOne.message).toContain(
      '"apiKey" (header X-API-Key) and "bearer" (Authorization: Bearer header)',
    );
  });

  it('matches API keys of any length and says nothing about the key it refuses', async () => {
    expect((await auth.authenticate(request({ 'x-api-key': 'a-much-longer-api-key-value' }), []))?.name).toBe(
      'svc-b',
    );
    for (const key of ['s', 'shor', 'short-but-longer', 'x'.repeat(10_000)]) {
      const refused = await failure(auth.authenticate(request({ 'x-api-key': key }), [{ apiKey: [] }]));
      expect(refused.message).toBe('Invalid credentials (scheme "apiKey": the API key is not recognised)');
    }
    const empty = await failure(auth.authenticate(request({ 'x-api-key': '' }), []));
    expect(empty.metadata?.reason).toBe('empty_api_key');
  });

  it('answers an anonymous call with no identity when nothing is required, and ignores other auth schemes', async () => {
    expect(await auth.authenticate(request(), [])).toBeUndefined();
    expect(await auth.authenticate(request({ authorization: 'Basic dXNlcjpwYXNz' }), [])).toBeUndefined();
    const required = await failure(
      auth.authenticate(request({ authorization: 'Basic dXNlcjpwYXNz' }), [{ bearer: [] }]),
    );
    expect(required.message).toMatch(/^Authentication required/);
  });

  it('makes an unreachable key set an internal error (500), not a caller error', async () => {
    const port = await closedPort();
    const remote = createAuthenticator({
      schemes: { partner: { type: 'http', scheme: 'bearer', jwks: `http://127.0.0.1:${port}/jwks.json` } },
      requirements: [{ partner: [] }],
      internalScope: 'agents:internal',
    });
    const jwt = await new SignJWT({ sub: 'p' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .setExpirationTime('5m')
      .sign(
        (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])).privateKey,
      );
    const error = await remote
      .authenticate(request({ authorization: `Bearer ${jwt}` }), [{ partner: [] }])
      .catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(A2AError);
    expect(String(error.message)).not.toContain(jwt);
  });

  it('refuses bad configuration at creation, naming the place', () => {
    const base = config();
    expect(() =>
      createAuthenticator({ ...base, schemes: { b: { type: 'http', scheme: 'bearer' } } }),
    ).toThrow('security.schemes.b: a bearer scheme needs exactly one of "jwks" (a URL or file) or "secret"');
    expect(() =>
      createAuthenticator({
        ...base,
        schemes: { b: { type: 'http', scheme: 'bearer', jwks: '/no/such/jwks.json' } },
      }),
    ).toThrow(/security\.schemes\.b\.jwks: cannot read the key set file \/no\/such\/jwks\.json/);
    expect(() =>
      createAuthenticator({
        ...base,
        schemes: {
          k: {
            type: 'apiKey',
            in: 'header',
            name: 'X',
            keys: [
              { key: 'same', principal: 'a', scopes: [] },
              { key: 'same', principal: 'b', scopes: [] },
            ],
          },
        },
      }),
    ).toThrow('security.schemes.k.keys: the same key is listed twice');
    expect(() => createAuthenticator({ ...base, requirements: [{ missing: [] }] })).toThrow(
      'security.requirements[0]: unknown security scheme "missing"',
    );
    expect(() => bindRequirements(createAuthenticator(base), [{ bearer: [], ghost: [] }])).toThrow(
      'security requirements[0]: unknown security scheme "ghost"',
    );
  });

  it('binds requirements into the server’s Authenticator', async () => {
    const bound = bindRequirements(auth, [{ apiKey: ['write'] }]);
    expect(await bound(request({ 'x-api-key': 'a-much-longer-api-key-value' }))).toMatchObject({
      name: 'svc-b',
    });
    const denied = await failure(Promise.resolve(bound(request({ 'x-api-key': 'short' }))));
    expect(denied.type).toBe('PermissionDeniedError');
    expect(denied.message).toBe('Permission denied: scheme "apiKey" lacks scope(s) write');
  });
});

describe('constantTimeEqual and parseCookies', () => {
  it('compares secrets of different lengths without throwing', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', 'x'.repeat(4096))).toBe(false);
    expect(constantTimeEqual('é', 'e')).toBe(false);
  });

  it('parses simple pairs, strips quotes, keeps the first of a name and skips junk', () => {
    const cookies = parseCookies('a=1; b="two"; a=3;junk; =novalue; c=x=y');
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['c', 'x=y'],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
  });
});

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
