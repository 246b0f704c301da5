/**
 * Card-driven OAuth through the built `concord` binary (decision 0168), against a real
 * authorization server on loopback (helpers/oauth-server.ts): `auth login` with the device flow
 * while the test approves the code, the stored login used and refreshed by `send`, `auth status`
 * and `auth logout`, the token file's mode, a denied login, an expired refresh token, and client
 * credentials from flags and the environment. No output ever holds a token or a secret.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions } from '../helpers/oauth-server.js';
import {
  clientCredentialsScheme,
  deviceCodeScheme,
  startOAuthAgent,
  type OAuthAgent,
} from '../helpers/oauth-agent.js';
import type { SecurityScheme } from '../../src/protocol/index.js';
import { startEcho } from '../helpers/echo-server.js';
import { concord, ROOT, type CliRun } from './cli-process.js';

const SECRET = 'cli-test-client-secret-7';
const dir = mkdtempSync(join(tmpdir(), 'concord-oauth-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

let stores = 0;
/** A fresh token file path in a directory that does not exist yet. */
function freshStore(): string {
  stores += 1;
  return join(dir, `user-${stores}`, 'concord', 'tokens.json');
}

async function setup(
  scheme: (oauth: OAuthServer) => SecurityScheme,
  options: Partial<OAuthServerOptions> = {},
): Promise<{ oauth: OAuthServer; agent: OAuthAgent }> {
  const oauth = await startOAuthServer({ clients: { service: { secret: SECRET }, cli: {} }, ...options });
  cleanup.push(() => oauth.close());
  const agent = await startOAuthAgent(oauth, scheme(oauth));
  cleanup.push(() => agent.close());
  return { oauth, agent };
}

/** `concord auth login <url> --client-id cli`, running until the test approves or denies it. */
function startLogin(url: string, store: string): { code: Promise<string>; exited: Promise<CliRun> } {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist/cli/main.js'), 'auth', 'login', url, '--client-id', 'cli'],
    {
      env: { ...process.env, NO_COLOR: '1', CONCORD_TOKEN_STORE: store },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  let found: (code: string) => void = () => {};
  const code = new Promise<string>((resolve) => (found = resolve));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const match = /enter the code: (\S+)/.exec(stderr);
    if (match !== null) found(match[1]!);
  });
  const exited = new Promise<CliRun>((resolve) =>
    child.on('exit', (status) => resolve({ code: status ?? -1, stdout, stderr })),
  );
  const timer = setTimeout(() => child.kill(), 30_000);
  void exited.then(() => clearTimeout(timer));
  return { code, exited };
}

/** Logs in with the device flow, the test approving as the person. */
async function deviceLogin(oauth: OAuthServer, url: string, store: string): Promise<CliRun> {
  const login = startLogin(url, store);
  oauth.approve(await login.code, 'ada');
  return login.exited;
}

interface FileLogin {
  agent: string;
  clientId: string;
  tokens: { accessToken: string; refreshToken?: string; expiresAt: number };
}

function loginsIn(store: string): Record<string, FileLogin> {
  return (JSON.parse(readFileSync(store, 'utf8')) as { logins: Record<string, FileLogin> }).logins;
}

/** The secret, what the client sent the server (refresh tokens, device codes) and `tokens` are in no output. */
function expectNoTokens(runs: CliRun[], oauth: OAuthServer, tokens: (string | undefined)[]): void {
  const sent = oauth.bodies
    .flatMap((body) => [...new URLSearchParams(body).values()])
    .filter((v) => v.length >= 20);
  const secrets = [SECRET, ...sent, ...tokens.filter((t): t is string => t !== undefined)];
  expect(secrets.length).toBeGreaterThan(1);
  for (const run of runs)
    for (const secret of secrets) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
}

describe('concord auth login (device flow) and the calling commands', () => {
  it('logs in while the test approves, stores the login 0600, and send uses it; status shows no token', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme);
    const store = freshStore();
    const env = { CONCORD_TOKEN_STORE: store };
    const login = startLogin(agent.url, store);
    const code = await login.code;
    oauth.approve(code, 'ada');
    const run = await login.exited;
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${oauth.url}device`);
    expect(run.stderr).toContain(`enter the code: ${code}`);
    expect(run.stdout).toMatch(
      /^Logged in to Echo Agent \(http:\/\/127\.0\.0\.1:\d+\/\)\. The access token expires at /,
    );

    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(statSync(join(store, '..')).mode & 0o777).toBe(0o700);
    const stored = Object.values(loginsIn(store));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ agent: agent.url, clientId: 'cli', grant: 'device_code' });

    const sent = await concord(['send', agent.url, 'hello', '--json'], env);
    expect(sent.code).toBe(0);
    expect(agent.presented.at(-1)).toBe(stored[0]!.tokens.accessToken);
    expect(oauth.introspect(agent.presented.at(-1))).toMatchObject({ active: true, subject: 'ada' });

    const status = await concord(['auth', 'status'], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(agent.url);
    expect(status.stdout).toContain('Echo Agent');
    expect(status.stdout).toMatch(/access token expires at \S+ \(in 60 minutes\); a refresh token is held/);
    const one = await concord(['auth', 'status', agent.url], env);
    expect(one.code).toBe(0);
    expectNoTokens([run, sent, status, one], oauth, [
      stored[0]!.tokens.accessToken,
      stored[0]!.tokens.refreshToken,
    ]);

    const logout = await concord(['auth', 'logout', agent.url], env);
    expect(logout.stdout).toContain(`Logged out of ${agent.url}`);
    const after = await concord(['auth', 'status', agent.url], env);
    expect(after.code).toBe(1);
    expect(after.stdout).toContain(`Not logged in to ${agent.url}`);
    const refused = await concord(['send', agent.url, 'hello'], env);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('A2ACLI_ERR_CREDENTIALS_MISSING');
    expectNoTokens([logout, after, refused], oauth, [stored[0]!.tokens.accessToken]);
  });

  it('presents a login only to the agent it was made for, not to another agent of the same server', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme);
    const other = await startOAuthAgent(oauth, deviceCodeScheme(oauth));
    cleanup.push(() => other.close());
    const store = freshStore();
    expect((await deviceLogin(oauth, agent.url, store)).code).toBe(0);
    const run = await concord(['send', other.url, 'hello'], { CONCORD_TOKEN_STORE: store });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(
      `A2ACLI_ERR_CREDENTIALS_MISSING: no stored login for the agent at ${other.url}`,
    );
    expect(run.stderr).toContain('hint: log in first: concord auth login <agent URL> --client-id <id>');
    expect(other.presented).toEqual([]);
    expect((await concord(['send', agent.url, 'hello'], { CONCORD_TOKEN_STORE: store })).code).toBe(0);
  });

  it('a denied login exits 4 with a clear message and stores nothing', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme);
    const store = freshStore();
    const login = startLogin(agent.url, store);
    oauth.deny(await login.code);
    const run = await login.exited;
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('A2ACLI_ERR_AUTH_FAILED');
    expect(run.stderr).toContain(
      `the login to ${agent.url} failed: The login was refused: access was denied`,
    );
    expect(run.stdout).toBe('');
    expect(() => statSync(store)).toThrow();
  });

  it('an agent whose card asks for no OAuth has nothing to log in to: exit 1, nothing stored', async () => {
    const open = await startEcho();
    cleanup.push(() => open.close());
    const store = freshStore();
    const run = await concord(['auth', 'login', open.url, '--client-id', 'cli'], {
      CONCORD_TOKEN_STORE: store,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('CONCORD_ERR_NO_LOGIN_SCHEME');
    expect(run.stderr).toContain('the card of "Echo Agent" requires no OAuth 2.0 or OpenID Connect scheme');
    expect(() => statSync(store)).toThrow();
    const missing = await concord(['auth', 'login', open.url], { CONCORD_TOKEN_STORE: store });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--client-id <id> (or CONCORD_CLIENT_ID)');
  });

  it('refreshes an expiring token and writes it back; an expired refresh token says to log in again', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme, { accessTokenTtl: 2 });
    const store = freshStore();
    const env = { CONCORD_TOKEN_STORE: store };
    expect((await deviceLogin(oauth, agent.url, store)).code).toBe(0);
    const first = Object.values(loginsIn(store))[0]!;

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const renewed = await concord(['send', agent.url, 'hello'], env);
    expect(renewed.code).toBe(0);
    expect(oauth.grants.map((g) => [g.grantType, g.outcome]).at(-1)).toEqual(['refresh_token', 'ok']);
    const second = Object.values(loginsIn(store))[0]!;
    expect(second.tokens.accessToken).not.toBe(first.tokens.accessToken);
    // Rotated: the new refresh token replaced the used one.
    expect(second.tokens.refreshToken).not.toBe(first.tokens.refreshToken);
    expect(agent.presented.at(-1)).toBe(second.tokens.accessToken);
    expect(statSync(store).mode & 0o777).toBe(0o600);

    oauth.expireRefreshTokens();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await concord(['send', agent.url, 'hello'], env);
    expect(expired.code).toBe(4);
    expect(expired.stderr).toContain('A2ACLI_ERR_CREDENTIALS_MISSING');
    expect(expired.stderr).toContain(
      `the stored login for ${agent.url} can no longer be used: the authorization server refused the refresh token (invalid_grant); log in again`,
    );
    expect(expired.stderr).toContain(`hint: run: concord auth login ${agent.url} --client-id cli`);
    const held = [
      first.tokens.accessToken,
      first.tokens.refreshToken,
      second.tokens.accessToken,
      second.tokens.refreshToken,
    ];
    expectNoTokens([renewed, expired], oauth, held);
    // The login is over: nothing is kept for it.
    expect(loginsIn(store)).toEqual({});
  });
});

describe('client credentials on the calling commands', () => {
  it('--client-id/--client-secret or the environment get a token from the card’s server; a wrong secret exits 4', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme);
    const env = { CONCORD_TOKEN_STORE: freshStore() };
    const flags = await concord(
      ['send', agent.url, 'hi', '--client-id', 'service', '--client-secret', SECRET],
      env,
    );
    expect(flags.code).toBe(0);
    expect(oauth.grants.map((g) => [g.grantType, g.clientId, g.outcome])).toEqual([
      ['client_credentials', 'service', 'ok'],
    ]);
    expect(oauth.introspect(agent.presented.at(-1)).active).toBe(true);

    const fromEnv = await concord(['send', agent.url, 'hi'], {
      ...env,
      CONCORD_CLIENT_ID: 'service',
      CONCORD_CLIENT_SECRET: SECRET,
    });
    expect(fromEnv.code).toBe(0);

    const wrong = await concord(
      ['send', agent.url, 'hi', '--client-id', 'service', '--client-secret', 'not-the-secret-9'],
      env,
    );
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('A2ACLI_ERR_AUTH_FAILED');
    expect(wrong.stderr).toContain('invalid_client');
    expect(wrong.stderr).toContain('hint: check --client-id and --client-secret');
    expect(wrong.stderr).not.toContain('not-the-secret-9');
    expectNoTokens([flags, fromEnv, wrong], oauth, agent.presented);

    const half = await concord(['send', agent.url, 'hi', '--client-id', 'service'], env);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('--client-id needs --client-secret');
  });

  it('auth login --client-secret stores a client-credentials login that send then uses', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme);
    const env = { CONCORD_TOKEN_STORE: freshStore() };
    const login = await concord(['auth', 'login', agent.url, '--client-id', 'service'], {
      ...env,
      CONCORD_CLIENT_SECRET: SECRET,
    });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Logged in to Echo Agent');
    const stored = Object.values(loginsIn(env.CONCORD_TOKEN_STORE))[0]!;
    expect(stored).toMatchObject({ grant: 'client_credentials', clientId: 'service' });
    expect(stored.tokens.refreshToken).toBeUndefined();
    const sent = await concord(['send', agent.url, 'hi'], env);
    expect(sent.code).toBe(0);
    expect(agent.presented.at(-1)).toBe(stored.tokens.accessToken);
    expect(oauth.grants).toHaveLength(1);
    expectNoTokens([login, sent], oauth, [stored.tokens.accessToken]);
  });
});
