/**
 * Configuration through the real `concord` binary (a2a-cli SPEC v0.2 §4.5, §5.2, §6.4): what the
 * CLI persists (the logins of `concord auth login`) shown read-only by `config show`, never a
 * token, and no session state written (A2ACLI_CONFIG_001); settings from A2ACLI_ variables and
 * `.env` files in the fixed order flag, environment, local file (or `--config`), global file,
 * built-in default, each shown with its source (A2ACLI_CONFIG_002).
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EchoServer } from '../../helpers/echo-server.js';
import { concord } from '../cli-process.js';
import { SPEC_CARD, startFakeAgent, startSpecAgent, type FakeAgent } from './spec-fixtures.js';

/** A working directory (for the local .env) and a configuration home (for the global one). */
let dir: string;
let home: string;
let work: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-config-'));
  home = join(dir, 'home');
  work = join(dir, 'work', 'project');
  mkdirSync(join(home, 'concord'), { recursive: true });
  mkdirSync(work, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs concord in the project directory with this test's configuration home. */
function run(args: string[], env: Record<string, string> = {}) {
  return concord(args, { XDG_CONFIG_HOME: home, ...env }, work);
}

function writeEnv(path: string, lines: string[], mode = 0o600): void {
  writeFileSync(path, `${lines.join('\n')}\n`);
  chmodSync(path, mode);
}

const REPLY = { message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] } };

describe('config show and the login store', () => {
  it('A2ACLI_CONFIG_001: config show lists the stored logins read-only, never a token; the calling commands write no session state', async () => {
    const store = join(home, 'concord', 'tokens.json');
    const login = {
      agent: 'https://agent.example/',
      name: 'Example',
      clientId: 'cli-client',
      grant: 'device_code',
      interfaces: ['https://agent.example/'],
      authorizationServer: ['https://idp.example/token'],
      loggedInAt: '2026-11-29T10:00:00.000Z',
      tokens: {
        accessToken: 'stored-access-token-value',
        refreshToken: 'stored-refresh-token-value',
        expiresAt: Date.parse('2026-11-29T11:00:00.000Z'),
        issuedAt: Date.parse('2026-11-29T10:00:00.000Z'),
        scopes: [],
        refreshUrl: 'https://idp.example/token',
      },
    };
    writeFileSync(store, JSON.stringify({ version: 1, logins: { [login.agent]: login } }), { mode: 0o600 });
    const before = readFileSync(store, 'utf8');
    const env = { CONCORD_TOKEN_STORE: store };
    const text = await run(['config', 'show'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Logins: ${store} (mode 0600)\n`);
    expect(text.stdout).toMatch(
      /^Login: https:\/\/agent\.example\/ as cli-client \(device_code\), token expires 2026-11-29T11:00:00\.000Z, refreshable; token not shown$/m,
    );
    const json = await run(['config', 'show', '-o', 'json'], env);
    const shown = JSON.parse(json.stdout) as { logins: { path: string; mode: string; entries: unknown[] } };
    expect(shown.logins).toMatchObject({ path: store, mode: '0600', entries: [{ clientId: 'cli-client' }] });
    for (const output of [text, json])
      for (const token of ['stored-access-token-value', 'stored-refresh-token-value'])
        expect(output.stdout + output.stderr).not.toContain(token);
    // Read-only: nothing changed, and there is nothing to change with.
    expect(readFileSync(store, 'utf8')).toBe(before);
    expect((await run(['config', 'set', 'output', 'json'], env)).code).toBe(2);
    expect((await run(['help', 'config', 'show'])).stdout).toContain('read-only');

    // A call keeps no state: the configuration directory holds what it held.
    const agent = await startSpecAgent();
    try {
      const listing = readdirSync(join(home, 'concord')).sort();
      expect((await run(['send', '-a', agent.url, 'hello'], env)).code).toBe(0);
      expect(readdirSync(join(home, 'concord')).sort()).toEqual(listing);
      expect(readFileSync(store, 'utf8')).toBe(before);
      expect(statSync(store).mode & 0o777).toBe(0o600);
    } finally {
      await agent.close();
    }
  });
});

describe('settings from the environment and .env files', () => {
  let fake: FakeAgent;
  let secured: EchoServer;
  beforeAll(async () => {
    fake = await startFakeAgent(() => REPLY);
    secured = await startSpecAgent({
      agentCard: {
        ...SPEC_CARD,
        securitySchemes: { jwt: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
        securityRequirements: [{ schemes: { jwt: { list: [] } } }],
      } as never,
      authenticate: (request) =>
        request.header('authorization') === 'Bearer file-bearer-secret' ? { name: 'a' } : undefined,
    });
  });
  afterAll(async () => {
    await fake.close();
    await secured.close();
  });

  /** True when stdout is one JSON document (-o json), false when it is text. */
  function isJson(stdout: string): boolean {
    try {
      JSON.parse(stdout);
      return true;
    } catch {
      return false;
    }
  }

  it('A2ACLI_CONFIG_002: flag, then environment, then the local .env (or --config), then the global one, then the default', async () => {
    const send = ['send', '-a', fake.url, 'hi'];
    expect(isJson((await run(send)).stdout)).toBe(false); // built-in default: text
    writeEnv(join(home, 'concord', '.env'), ['A2ACLI_OUTPUT=json']);
    expect(isJson((await run(send)).stdout)).toBe(true); // the global file
    // A local .env is found walking up from the working directory, and wins over the global one.
    writeEnv(join(dir, 'work', '.env'), ['# the team file', 'export A2ACLI_OUTPUT="text"']);
    expect(isJson((await run(send)).stdout)).toBe(false);
    // --config replaces the local file.
    const other = join(dir, 'agent-b.env');
    writeEnv(other, [`A2ACLI_AGENT_CARD=${fake.url}`, 'A2ACLI_OUTPUT=json']);
    expect(isJson((await run(['send', 'hi', '--config', other])).stdout)).toBe(true);
    // The environment wins over the files, the flag over the environment.
    expect(isJson((await run(send, { A2ACLI_OUTPUT: 'json' })).stdout)).toBe(true);
    expect(isJson((await run([...send, '-o', 'text'], { A2ACLI_OUTPUT: 'json' })).stdout)).toBe(false);
    expect(isJson((await run([...send, '--json'], { A2ACLI_OUTPUT: 'text' })).stdout)).toBe(true);
    // A configured json output covers failures too: the error envelope is the document on stdout.
    const failed = await run(['task', 'get', 't-1', '-a', 'http://127.0.0.1:1/'], { A2ACLI_OUTPUT: 'json' });
    expect(failed.code).toBe(3);
    expect(JSON.parse(failed.stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_UNREACHABLE' } });

    // config show names each value's source.
    const shown = await run(['config', 'show', '--transport', 'rest'], { A2ACLI_TIMEOUT: '30s' });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`File (local): ${join(dir, 'work', '.env')} (mode 0600)\n`);
    expect(shown.stdout).toContain(`--output: text [${join(dir, 'work', '.env')} A2ACLI_OUTPUT]\n`);
    expect(shown.stdout).toContain('--transport: rest [flag]\n');
    expect(shown.stdout).toContain('--timeout: 30s [environment A2ACLI_TIMEOUT]\n');
    expect(shown.stdout).toContain('--poll-interval: - [built-in default: 2s]\n');
    const scoped = await run(['config', 'show', '--config', other, '-o', 'json']);
    const settings = (
      JSON.parse(scoped.stdout) as { settings: { flag: string; value: string; source: string }[] }
    ).settings;
    expect(settings.find((s) => s.flag === 'agent-card')).toMatchObject({
      value: fake.url,
      source: `${other} A2ACLI_AGENT_CARD`,
    });
    // --help shows the defaults in force (A2ACLI_CLI_001's effective defaults).
    const help = await run(['send', '--help']);
    expect(help.stdout).toContain('Defaults in force here');
    expect(help.stdout).toContain(`--output text   from ${join(dir, 'work', '.env')} A2ACLI_OUTPUT`);
  });

  it('A2ACLI_CONFIG_002: booleans and lists from files, --wait over a configured --async, --stream never from configuration', async () => {
    writeEnv(join(work, '.env'), [
      'A2ACLI_ASYNC=true',
      'A2ACLI_STREAM=true',
      'A2ACLI_TRANSPORT=grpc,jsonrpc',
    ]);
    fake.calls.length = 0;
    expect((await run(['send', '-a', fake.url, 'hi'])).code).toBe(0);
    expect(fake.calls[0]!.params).toMatchObject({ configuration: { returnImmediately: true } });
    expect(fake.calls[0]!.method).toBe('SendMessage'); // not SendStreamingMessage
    fake.calls.length = 0;
    expect((await run(['send', '-a', fake.url, 'hi', '--wait'])).code).toBe(0);
    expect(fake.calls[0]!.params).not.toHaveProperty('configuration');
    writeEnv(join(work, '.env'), ['A2ACLI_VERBOSE=maybe']);
    const bad = await run(['send', '-a', fake.url, 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('A2ACLI_VERBOSE: expected true or false');
    writeEnv(join(work, '.env'), ['not a setting']);
    expect((await run(['send', '-a', fake.url, 'hi'])).stderr).toContain(
      `${join(work, '.env')}:1: expected NAME=value`,
    );
  });

  it('A2ACLI_CONFIG_002: a credential from a file is attached and redacted; a file others can read is warned of', async () => {
    writeEnv(join(work, '.env'), ['A2ACLI_BEARER=file-bearer-secret']);
    const ok = await run(['send', '-a', secured.url, 'hello', '--debug']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).not.toContain('file-bearer-secret');
    expect(ok.stderr).not.toContain('others may read it');
    const shown = await run(['config', 'show']);
    expect(shown.stdout).toContain(`--bearer: (set, not shown) [${join(work, '.env')} A2ACLI_BEARER]`);
    expect(shown.stdout + shown.stderr).not.toContain('file-bearer-secret');
    chmodSync(join(work, '.env'), 0o644);
    const exposed = await run(['send', '-a', secured.url, 'hello']);
    expect(exposed.code).toBe(0);
    expect(exposed.stderr).toContain(
      `warning: ${join(work, '.env')} holds a credential and others may read it (mode 0644); chmod 600 it`,
    );
  });
});
