/**
 * OAuth through the real `concord` binary (a2a-cli SPEC v0.2 §10.2, §10.3; decision 0168), named
 * by the registry's IDs: `auth login` with the device-code flow (A2ACLI_AUTH_005) and the
 * client-credentials flow (A2ACLI_AUTH_006), tokens stored for the user only and attached, and
 * renewed, on later calls (A2ACLI_AUTH_007), and an OpenID Connect scheme (A2ACLI_AUTH_010). The
 * authorization server and the agents are the loopback ones of test/cli/oauth-login.test.ts,
 * which covers the failure paths (a denied login, an expired refresh token, a wrong secret).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { SecurityScheme } from '../../../src/protocol/index.js';
import {
  clientCredentialsScheme,
  deviceCodeScheme,
  openIdScheme,
  startOAuthAgent,
  type OAuthAgent,
} from '../../helpers/oauth-agent.js';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions } from '../../helpers/oauth-server.js';
import { concord, type CliRun } from '../cli-process.js';

const SECRET = 'spec-test-client-secret-3';
const dir = mkdtempSync(join(tmpdir(), 'concord-oauth-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

let users = 0;
/** A login store in a user's configuration directory that does not exist yet. */
function freshStore(): string {
  users += 1;
  return join(dir, `user-${users}`, 'concord', 'tokens.json');
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

/** `concord auth login <url> --client-id cli`, approved as `ada` once the server has issued the code. */
async function deviceLogin(oauth: OAuthServer, url: string, store: string): Promise<CliRun> {
  const approving = oauth.nextUserCode().then((code) => oauth.approve(code, 'ada'));
  const run = await concord(['auth', 'login', url, '--client-id', 'cli'], { CONCORD_TOKEN_STORE: store });
  await approving;
  return run;
}

function storedTokens(store: string): { accessToken: string; refreshToken?: string }[] {
  const content = JSON.parse(readFileSync(store, 'utf8')) as {
    logins: Record<string, { tokens: { accessToken: string; refreshToken?: string } }>;
  };
  return Object.values(content.logins).map((login) => login.tokens);
}

/** No output of `runs` holds any of `secrets`. */
function expectNone(runs: CliRun[], secrets: (string | undefined)[]): void {
  for (const run of runs)
    for (const secret of secrets)
      if (secret !== undefined) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
}

describe('OAuth login', () => {
  it('A2ACLI_AUTH_005: auth login runs the OAuth device-code flow (RFC 8628): the page and code on stderr, done once approved', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme);
    const store = freshStore();
    const login = await deviceLogin(oauth, agent.url, store);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`${oauth.url}device`);
    expect(login.stderr).toMatch(/enter the code: [A-Z]{4}-[A-Z]{4}/);
    expect(oauth.grants.map((g) => [g.grantType, g.clientId, g.outcome]).at(-1)).toEqual([
      'urn:ietf:params:oauth:grant-type:device_code',
      'cli',
      'ok',
    ]);
    const sent = await concord(['send', '-a', agent.url, 'hello'], { CONCORD_TOKEN_STORE: store });
    expect(sent.code, sent.stderr).toBe(0);
    expect(oauth.introspect(agent.presented.at(-1))).toMatchObject({ active: true, subject: 'ada' });
    expectNone(
      [login, sent],
      [SECRET, ...storedTokens(store).flatMap((t) => [t.accessToken, t.refreshToken])],
    );
  });

  it('A2ACLI_AUTH_006: auth login --client-secret runs the client-credentials flow; the calls also take --client-id/--client-secret', async () => {
    const { oauth, agent } = await setup(clientCredentialsScheme);
    const store = freshStore();
    const env = { CONCORD_TOKEN_STORE: store };
    const login = await concord(
      ['auth', 'login', agent.url, '--client-id', 'service', '--client-secret', SECRET],
      env,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(oauth.grants.map((g) => [g.grantType, g.clientId, g.outcome])).toEqual([
      ['client_credentials', 'service', 'ok'],
    ]);
    const sent = await concord(['send', '-a', agent.url, 'hi'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(agent.presented.at(-1)).toBe(storedTokens(store)[0]!.accessToken);
    // Without a stored login, the flags get a token for the one call.
    const direct = await concord(
      ['send', '-a', agent.url, 'hi', '--client-id', 'service', '--client-secret', SECRET],
      {
        CONCORD_TOKEN_STORE: freshStore(),
      },
    );
    expect(direct.code, direct.stderr).toBe(0);
    expect(oauth.grants).toHaveLength(2);
    expectNone([login, sent, direct], [SECRET, ...agent.presented]);
  });

  it('A2ACLI_AUTH_007: tokens are stored for the user only (0600 in 0700), attached to later calls, and renewed before they expire', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme, { accessTokenTtl: 2 });
    const store = freshStore();
    const env = { CONCORD_TOKEN_STORE: store };
    expect((await deviceLogin(oauth, agent.url, store)).code).toBe(0);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(store)).mode & 0o777).toBe(0o700);
    const first = storedTokens(store)[0]!;
    const sent = await concord(['task', 'list', '-a', agent.url], env);
    expect(sent.code, sent.stderr).toBe(0);
    // Attached as stored (a token this close to its end may already have been renewed first).
    const attached = storedTokens(store)[0]!;
    expect(agent.presented.at(-1)).toBe(attached.accessToken);
    // The access token lives 2 s: a later call renews it with the refresh token and keeps the new one.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const renewed = await concord(['send', '-a', agent.url, 'hello'], env);
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(oauth.grants.at(-1)).toMatchObject({ grantType: 'refresh_token', outcome: 'ok' });
    const second = storedTokens(store)[0]!;
    expect(second.accessToken).not.toBe(attached.accessToken);
    expect(agent.presented.at(-1)).toBe(second.accessToken);
    expect(statSync(store).mode & 0o777).toBe(0o600);
    // config show lists the login without its tokens.
    const shown = await concord(['config', 'show'], env);
    expect(shown.stdout).toContain(`Login: ${agent.url} as cli (device_code)`);
    expectNone(
      [sent, renewed, shown],
      [first.accessToken, first.refreshToken, attached.accessToken, second.accessToken, second.refreshToken],
    );
  });

  it('A2ACLI_AUTH_010: an OpenID Connect scheme: its discovery document names the token endpoint the login uses', async () => {
    const { oauth, agent } = await setup(openIdScheme);
    const store = freshStore();
    const env = { CONCORD_TOKEN_STORE: store };
    const login = await concord(
      ['auth', 'login', agent.url, '--client-id', 'service', '--client-secret', SECRET],
      env,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(oauth.documentGets).toContain('/.well-known/openid-configuration');
    const sent = await concord(['send', '-a', agent.url, 'hi'], env);
    expect(sent.code, sent.stderr).toBe(0);
    expect(oauth.introspect(agent.presented.at(-1)).active).toBe(true);
    expectNone([login, sent], [SECRET, ...agent.presented]);
  });
});
