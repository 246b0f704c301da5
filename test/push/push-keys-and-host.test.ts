/**
 * The keys and settings around push: the secret box (AES-256-GCM, bound to its config), the keys
 * kept in the data directory (0600, the same on every start, CONCORD_SECRET_KEY first), the host
 * config's `push` section (validated with the field named, never echoing a secret), and the host
 * (push on by default, off on request, its push key in the root JWKS).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DefinitionError, loadHost, startHost, type RunningHost } from '../../src/host/index.js';
import {
  loadPushKeys,
  parseSecretKey,
  SECRET_KEY_FILE,
  SIGNING_KEY_FILE,
} from '../../src/server/internal.js';
import { SecretBox, SecretOpenError } from '../../src/server/push/secret-box.js';

const HOST = join(import.meta.dirname, 'fixtures/host');
const dirs: string[] = [];
let host: RunningHost | undefined;

afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-push-keys-'));
  dirs.push(dir);
  return dir;
}

describe('secret box', () => {
  const key = parseSecretKey('11'.repeat(32));

  it('opens what it sealed for the same config, and nothing else', () => {
    const box = new SecretBox(key);
    const sealed = box.seal({ token: 'tok', credentials: 'cred' }, 't1', 'c1')!;
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('tok');
    expect(box.open(sealed, 't1', 'c1')).toEqual({ token: 'tok', credentials: 'cred' });
    expect(box.seal({}, 't1', 'c1')).toBeUndefined();
    // Copied onto another config, changed, or opened with another key: refused.
    expect(() => box.open(sealed, 't1', 'c2')).toThrow(SecretOpenError);
    const [version, iv, body] = sealed.split('.');
    const bytes = Buffer.from(body!, 'base64url');
    bytes[0] = bytes[0]! ^ 0x01;
    expect(() => box.open(`${version}.${iv}.${bytes.toString('base64url')}`, 't1', 'c1')).toThrow(
      SecretOpenError,
    );
    expect(() => new SecretBox(parseSecretKey('22'.repeat(32))).open(sealed, 't1', 'c1')).toThrow(
      /do not open with this key/,
    );
    expect(() => box.open('v2.x.y', 't1', 'c1')).toThrow(/not in a form/);
  });

  it('reads keys as hex or base64, and says what is wrong without repeating the value', () => {
    expect(parseSecretKey(Buffer.alloc(32, 7).toString('base64'))).toEqual(new Uint8Array(32).fill(7));
    expect(parseSecretKey(Buffer.alloc(32, 7).toString('base64url'))).toEqual(new Uint8Array(32).fill(7));
    expect(() => parseSecretKey('not-the-secret-key-value')).toThrow(/64 hex digits or as base64/);
    try {
      parseSecretKey('not-the-secret-key-value');
    } catch (error) {
      expect((error as Error).message).not.toContain('not-the-secret-key-value');
    }
  });
});

describe('push keys in the data directory', () => {
  it('makes both keys on first start, owner-only, and reads the same ones back', async () => {
    const dir = tempDir();
    const first = await loadPushKeys({ dir, env: {} });
    const second = await loadPushKeys({ dir, env: {} });
    expect(second.secretKey).toEqual(first.secretKey);
    expect(second.signingKey).toEqual(first.signingKey);
    expect(first.signingKey.alg).toBe('ES256');
    expect(first.signingKey.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const name of [SECRET_KEY_FILE, SIGNING_KEY_FILE]) {
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    }
    expect(readFileSync(join(dir, SECRET_KEY_FILE), 'utf8').trim()).toBe(
      Buffer.from(first.secretKey).toString('hex'),
    );
  });

  it('takes CONCORD_SECRET_KEY first, and refuses a bad one by name', async () => {
    const dir = tempDir();
    const hex = 'ab'.repeat(32);
    const keys = await loadPushKeys({ dir, env: { CONCORD_SECRET_KEY: hex } });
    expect(Buffer.from(keys.secretKey).toString('hex')).toBe(hex);
    await expect(loadPushKeys({ dir, env: { CONCORD_SECRET_KEY: 'short' } })).rejects.toThrow(
      /^CONCORD_SECRET_KEY must be 32 bytes/,
    );
  });

  it('without a directory, makes keys for the process only', async () => {
    const a = await loadPushKeys({ env: {} });
    const b = await loadPushKeys({ env: {} });
    expect(a.secretKey).not.toEqual(b.secretKey);
    expect(a.signingKey.kid).not.toBe(b.signingKey.kid);
  });
});

describe('the host config push section', () => {
  function configDir(push: string): string {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'concord.config.json5'),
      `{ push: ${push}, agents: { list: [{ id: 'a', name: 'A', description: 'd', exposed: true, handler: '${join(HOST, 'streamer.mjs')}' }] } }`,
    );
    return dir;
  }

  it('reports a bad allow entry and a bad secret key with their fields, never the key itself', async () => {
    const dir = configDir(
      `{ allow: ['127.0.0.1', '10.0.0.0/40', 'no spaces allowed'], secretKey: { env: 'PUSH_KEY' } }`,
    );
    const error = await loadHost(dir, { env: { PUSH_KEY: 'my-weak-secret' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    const problems = (error as DefinitionError).problems.map((p) => `${p.field}: ${p.message}`);
    expect(problems).toEqual([
      expect.stringMatching(/^\/push\/allow\/1: .*prefix length must be 0-32/),
      expect.stringMatching(/^\/push\/allow\/2: .*neither a host name nor an IP address or CIDR block/),
      expect.stringMatching(/^\/push\/secretKey: .*must be 32 bytes/),
    ]);
    expect((error as Error).message).not.toContain('my-weak-secret');
  });

  it('reads allow, retry, timeout and the key', async () => {
    const dir = configDir(
      `{ allow: ['10.0.0.0/8'], timeoutMs: 500, retry: { maxAttempts: 3 }, secretKey: { env: 'PUSH_KEY' } }`,
    );
    const config = await loadHost(dir, { env: { PUSH_KEY: 'cd'.repeat(32) } });
    expect(config.push).toEqual({
      enabled: true,
      allow: ['10.0.0.0/8'],
      timeoutMs: 500,
      retry: { maxAttempts: 3 },
      secretKey: 'cd'.repeat(32),
    });
  });
});

describe('push on the host', () => {
  async function card(url: string): Promise<{ capabilities: Record<string, unknown> }> {
    return (await (
      await fetch(`${url}.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })
    ).json()) as {
      capabilities: Record<string, unknown>;
    };
  }

  it('is on by default, with the delivery key in the agent JWKS (the root one for a lone agent)', async () => {
    host = await startHost(HOST, { store: 'memory', env: {} });
    expect((await card(host.url)).capabilities.pushNotifications).toBe(true);
    const root = (await (await fetch(`${host.url}.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    const agent = (await (await fetch(`${host.url}agents/streamer/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    expect(root.keys).toHaveLength(1);
    expect(agent).toEqual(root);
  });

  it('is off with push.enabled false or --no-push, and push calls are then -32003', async () => {
    host = await startHost(HOST, { store: 'memory', env: {}, push: { enabled: false } });
    expect((await card(host.url)).capabilities.pushNotifications).toBe(false);
    const response = await fetch(host.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ListTaskPushNotificationConfigs',
        params: { taskId: 'x' },
      }),
    });
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32003);
    expect((await fetch(`${host.url}.well-known/jwks.json`)).status).toBe(404);
  });
});
