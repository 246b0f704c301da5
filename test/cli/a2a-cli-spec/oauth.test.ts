/**
 * OAuth through the real `concord` binary (a2a-cli SPEC v0.2 §10.2, §10.3; decision 0168), named
 * by the registry's IDs: `auth login` with the device-code flow (A2ACLI_AUTH_005) and the
 * client-credentials flow (A2ACLI_AUTH_006), tokens stored for the user only and attached, and
 * renewed, on later calls (A2ACLI_AUTH_007), and an OpenID Connect scheme (A2ACLI_AUTH_010); and
 * `--debug` showing every exchange with the authorization server with its secrets redacted
 * (A2ACLI_OUT_007, A2ACLI_AUTH_004). The authorization server and the agents are the loopback
 * ones of test/cli/oauth-login.test.ts, which covers the failure paths (a denied login, an
 * expired refresh token, a wrong secret).
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

/** The debug lines of a run's stderr. */
function debugLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('debug: '));
}

/** The JSON answers logged right after each `debug: > POST <url> (<what>)` line. */
function answersTo(lines: string[], request: string): Record<string, unknown>[] {
  const answers: Record<string, unknown>[] = [];
  lines.forEach((line, index) => {
    if (line !== request) return;
    const answer = lines.slice(index + 1).find((l) => l.startsWith('debug: < {'));
    if (answer !== undefined)
      answers.push(JSON.parse(answer.slice('debug: < '.length)) as Record<string, unknown>);
  });
  return answers;
}

describe('--debug and the authorization server', () => {
  it('A2ACLI_OUT_007: --debug shows the token request of client credentials, grant, status and answer; the secret and every token as [REDACTED]', async () => {
    // An OpenID Connect scheme: the token endpoint is found in the discovery document first.
    const { oauth, agent } = await setup(openIdScheme, { idToken: true });
    const run = await concord(
      ['send', '-a', agent.url, 'hi', '--client-id', 'service', '--client-secret', SECRET, '--debug'],
      { CONCORD_TOKEN_STORE: freshStore() },
    );
    expect(run.code, run.stderr).toBe(0);
    const lines = debugLines(run.stderr);
    expect(lines).toContain(
      `debug: > GET ${oauth.url}.well-known/openid-configuration (authorization server metadata)`,
    );
    const request = `debug: > POST ${oauth.tokenUrl} (token endpoint, grant_type client_credentials)`;
    expect(lines).toContain(request);
    // The client authenticates with HTTP Basic: the header is shown, its value is not.
    expect(lines).toContain('debug: > authorization: Basic [REDACTED]');
    expect(lines).toContain('debug: > grant_type=client_credentials&scope=agent%3Acall');
    const at = lines.indexOf(request);
    expect(lines.slice(at).some((line) => /^debug: < 200 in \d+ ms$/.test(line))).toBe(true);
    expect(answersTo(lines, request)).toEqual([
      {
        access_token: '[REDACTED]',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'agent:call',
        id_token: '[REDACTED]',
      },
    ]);
    // The call that presents the token is logged as before, the token redacted there too.
    expect(lines).toContain('debug: > authorization: [REDACTED]');
    expect(oauth.issued.length).toBeGreaterThanOrEqual(2);
    expectNone([run], [SECRET, Buffer.from(`service:${SECRET}`).toString('base64'), ...oauth.issued]);
  });

  it('A2ACLI_OUT_007: auth login --debug shows the device authorization and the token polls, and a later call the refresh; no code or token is printed', async () => {
    const { oauth, agent } = await setup(deviceCodeScheme, { accessTokenTtl: 2, idToken: true });
    const store = freshStore();
    const env = { CONCORD_TOKEN_STORE: store };
    const approving = oauth.nextUserCode().then((code) => oauth.approve(code, 'ada'));
    const login = await concord(['auth', 'login', agent.url, '--client-id', 'cli', '--debug'], env);
    await approving;
    expect(login.code, login.stderr).toBe(0);
    const lines = debugLines(login.stderr);
    // The card (which names both endpoints), the device authorization, then the token endpoint.
    expect(lines).toContain(`debug: > GET ${agent.url}.well-known/agent-card.json (getAgentCard)`);
    const authorize = `debug: > POST ${oauth.deviceAuthorizationUrl} (device authorization endpoint)`;
    expect(lines).toContain(authorize);
    expect(lines).toContain('debug: > scope=agent%3Acall&client_id=cli');
    const [device] = answersTo(lines, authorize);
    expect(device).toMatchObject({ device_code: '[REDACTED]', verification_uri: `${oauth.url}device` });
    // The user code is what the person types: shown, as on the prompt.
    expect(device!.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const poll = `debug: > POST ${oauth.tokenUrl} (token endpoint, grant_type urn:ietf:params:oauth:grant-type:device_code)`;
    expect(lines).toContain(poll);
    expect(lines).toContain(
      'debug: > grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=[REDACTED]&client_id=cli',
    );
    expect(answersTo(lines, poll).at(-1)).toMatchObject({
      access_token: '[REDACTED]',
      refresh_token: '[REDACTED]',
      id_token: '[REDACTED]',
    });

    // The access token lives 2 s: the next call renews it, and --debug shows the refresh.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const renewed = await concord(['send', '-a', agent.url, 'hello', '--debug'], env);
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(oauth.grants.at(-1)).toMatchObject({ grantType: 'refresh_token', outcome: 'ok' });
    const refreshLines = debugLines(renewed.stderr);
    const refresh = `debug: > POST ${oauth.tokenUrl} (token endpoint, grant_type refresh_token)`;
    expect(refreshLines).toContain(refresh);
    expect(refreshLines).toContain(
      'debug: > grant_type=refresh_token&refresh_token=[REDACTED]&client_id=cli',
    );
    expect(answersTo(refreshLines, refresh)).toEqual([
      expect.objectContaining({
        access_token: '[REDACTED]',
        refresh_token: '[REDACTED]',
        id_token: '[REDACTED]',
      }),
    ]);
    // Nothing the server issued or was sent as a secret shows: device codes, tokens, refresh tokens.
    const sent = oauth.bodies.flatMap((body) => {
      const form = new URLSearchParams(body);
      return [...form.getAll('device_code'), ...form.getAll('refresh_token')];
    });
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expectNone(
      [login, renewed],
      [...oauth.issued, ...sent, ...storedTokens(store).flatMap((t) => [t.accessToken, t.refreshToken])],
    );
    expect((await concord(['auth', 'login', '--help'])).stdout).toMatch(
      /--debug +the card fetch and each request/,
    );
  });
});
