// The URLs a deployed `concord serve` advertises (decision 0149): the public URL from a
// flag, the environment or the host config, in that order; the routes under the public path
// whether the proxy strips it or keeps it; forwarding headers honoured only behind a trusted
// proxy, validated, and varied on; a wildcard bind advertising the machine, never a loopback name.
// Everything through `concord serve` as a process and fetch over real sockets.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, loadHost } from '../../src/host/index.js';
import { machineHost } from '../../src/server/adapters/advertised-host.js';
import { concord, ROOT } from '../cli/cli-process.js';

const CLI = join(ROOT, 'dist/cli/main.js');
const ECHO = join(ROOT, 'examples/echo');
const SEED_URL = 'https://api.acme.com/a2a/v1';

type Card = {
  url?: string;
  preferredTransport?: string;
  additionalInterfaces?: { url: string; transport: string }[];
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
};

interface Served {
  child: ChildProcess;
  /** The listener's own base URL, from the banner. */
  url: string;
  output: () => string;
}

const running = new Set<ChildProcess>();

/** `concord serve ...args` with `env` added; resolves once its banner is out. */
function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let out = '';
  return new Promise((started, failed) => {
    const timer = setTimeout(() => failed(new Error(`did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /(?:serving "[^"]*"|hosting \d+ agent\(s\)) at (http:\/\/\S+\/)/.exec(out);
      if (m !== null && /task stores?:/.test(out)) {
        clearTimeout(timer);
        started({ child, url: m[1]!, output: () => out });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => failed(new Error(`exited with ${code}: ${out}`)));
  });
}

function stop(served: Served): Promise<void> {
  return new Promise((done) => {
    if (served.child.exitCode !== null) return done();
    served.child.on('exit', () => done());
    served.child.kill('SIGTERM');
  });
}

async function card(url: string, version: '1.0' | '0.3', headers: Record<string, string> = {}) {
  const response = await fetch(`${url}.well-known/agent-card.json`, {
    headers: { 'a2a-version': version, ...headers },
  });
  expect(response.status).toBe(200);
  return { card: (await response.json()) as Card, vary: response.headers.get('vary') ?? '' };
}

const urls = (c: Card) => [...new Set(c.supportedInterfaces.map((i) => i.url))];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-deployed-'));
  copyFileSync(join(import.meta.dirname, 'fixtures/host/echo-handler.mjs'), join(dir, 'echo-handler.mjs'));
});
afterAll(async () => {
  for (const child of running) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** A host directory of one agent (`solo`) whose config carries `extra` top-level settings. */
function hostDir(name: string, extra: string): string {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  copyFileSync(join(dir, 'echo-handler.mjs'), join(at, 'echo-handler.mjs'));
  writeFileSync(
    join(at, 'concord.config.json5'),
    `{
  ${extra}
  agents: {
    list: [
      {
        id: 'solo',
        name: 'Solo',
        description: 'The only agent here',
        exposed: true,
        handler: './echo-handler.mjs',
        skills: [{ id: 'echo', name: 'Echo', description: 'Answers with what it got', tags: ['echo'] }],
      },
    ],
  },
}
`,
  );
  return at;
}

describe('the public URL: flag, environment, host config (decision 0149)', () => {
  it("CONCORD_PUBLIC_URL and CONCORD_GRPC_PUBLIC_URL give a code agent's card the seed's URLs", async () => {
    const served = await serve([ECHO, '--port', '0', '--store', 'memory', '--grpc-port', '0'], {
      CONCORD_PUBLIC_URL: SEED_URL,
      CONCORD_GRPC_PUBLIC_URL: 'https://grpc.acme.com/a2a',
    });
    try {
      // Shaman's agent-card.md "Transport Declaration" and "Complete Example", as written.
      const { card: v03 } = await card(served.url, '0.3');
      expect(v03.url).toBe(SEED_URL);
      expect(v03.preferredTransport).toBe('JSONRPC');
      expect(v03.additionalInterfaces).toContainEqual({ url: SEED_URL, transport: 'JSONRPC' });
      expect(v03.additionalInterfaces).toContainEqual({
        url: 'https://grpc.acme.com/a2a',
        transport: 'GRPC',
      });
      const { card: v1 } = await card(served.url, '1.0');
      expect(urls(v1)).toEqual([SEED_URL, 'grpc.acme.com:443', 'https://grpc.acme.com/a2a']);
      expect(served.output()).toContain(`public URL: ${SEED_URL} (the card lists it)`);
      // Forwarding headers are never read unless the proxy is trusted.
      const spoofed = await card(served.url, '1.0', {
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'evil.example',
        forwarded: 'proto=http;host=evil.example',
      });
      expect(urls(spoofed.card)[0]).toBe(SEED_URL);
      expect(spoofed.vary).toBe('A2A-Version');
    } finally {
      await stop(served);
    }
  });

  it("the host config's publicUrl is listed; the environment wins over it and the flag over both", async () => {
    const at = hostDir(
      'configured',
      "publicUrl: 'https://config.acme.com/a2a/v1', grpcPublicUrl: 'grpc.config.acme.com:8443',",
    );
    const base = ['--port', '0', '--store', 'memory', '--grpc-port', '0'];
    const fromConfig = await serve([at, ...base]);
    try {
      const { card: v1 } = await card(fromConfig.url, '1.0');
      expect(urls(v1)).toEqual(['https://config.acme.com/a2a/v1', 'grpc.config.acme.com:8443']);
      const mounted = await card(`${fromConfig.url}agents/solo/`, '0.3');
      expect(mounted.card.url).toBe('https://config.acme.com/a2a/v1/agents/solo');
    } finally {
      await stop(fromConfig);
    }
    const env = { CONCORD_PUBLIC_URL: 'https://env.acme.com/a2a' };
    const fromEnv = await serve([at, ...base], env);
    try {
      const { card: v1 } = await card(fromEnv.url, '1.0');
      expect(urls(v1)).toEqual(['https://env.acme.com/a2a', 'grpc.config.acme.com:8443']);
    } finally {
      await stop(fromEnv);
    }
    const fromFlag = await serve([at, ...base, '--public-url', 'https://flag.acme.com/'], env);
    try {
      const { card: v1 } = await card(fromFlag.url, '1.0');
      expect(urls(v1)).toEqual(['https://flag.acme.com', 'grpc.config.acme.com:8443']);
    } finally {
      await stop(fromFlag);
    }
  });

  it('a public URL that is not an http(s) base is refused before anything listens, naming where it was set', async () => {
    const at = hostDir('bad-config', "publicUrl: 'ftp://files.acme.com/a2a',");
    const config = await concord(['serve', at, '--port', '0', '--store', 'memory']);
    expect(config.code).not.toBe(0);
    expect(config.stderr).toMatch(/concord\.config\.json5.*publicUrl|publicUrl.*concord\.config\.json5/s);
    expect(config.stderr).toContain('is not an http(s) URL');
    const env = await concord(['serve', ECHO, '--port', '0', '--store', 'memory'], {
      CONCORD_PUBLIC_URL: 'api.acme.com/a2a',
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('CONCORD_PUBLIC_URL: "api.acme.com/a2a" is not an absolute URL');
    const flag = await concord(['serve', ECHO, '--port', '0', '--public-url', 'https://x.acme.com/?q=1']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--public-url: "https://x.acme.com/?q=1" has a query or fragment');
  });
});

describe('dev mode (decision 0149)', () => {
  it('reports a changed publicUrl as waiting for a restart', async () => {
    const at = hostDir('watched', "publicUrl: 'https://one.acme.com/',");
    const host = await createHost(await loadHost(at), { store: 'memory' });
    try {
      hostDir('watched', "publicUrl: 'https://two.acme.com/', trustProxy: true,");
      const report = await host.reload(await loadHost(at));
      expect(report.pending).toEqual([
        'publicUrl changed: restart the host to apply it (a flag or environment variable still wins)',
        'trustProxy changed: restart the host to apply it (a flag or environment variable still wins)',
      ]);
    } finally {
      await host.close();
    }
  });
});

describe('behind a proxy (decision 0149)', () => {
  it('serves every route under the public path whether the proxy strips that path or keeps it', async () => {
    const served = await serve([ECHO, '--port', '0', '--store', 'memory', '--public-url', SEED_URL], {
      CONCORD_TRUST_PROXY: '1',
    });
    try {
      // Trusted (from the environment here), a forwarded host keeps the public URL's scheme and path.
      const edge = await card(served.url, '1.0', { 'x-forwarded-host': 'edge.acme.com' });
      expect(urls(edge.card)).toEqual(['https://edge.acme.com/a2a/v1']);
      const kept = `${served.url}a2a/v1/`;
      const stripped = served.url;
      for (const base of [kept, stripped]) {
        const { card: v1 } = await card(base, '1.0');
        expect(urls(v1)).toEqual([SEED_URL]);
        const rpc = await fetch(base, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: {
              message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
            },
          }),
        });
        const answer = (await rpc.json()) as { result?: unknown; error?: unknown };
        expect(answer.error).toBeUndefined();
        expect(answer.result).toBeDefined();
        const rest = await fetch(`${base}message:send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({
            message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] },
          }),
        });
        expect(rest.status).toBe(200);
      }
    } finally {
      await stop(served);
    }
  });

  it('with --trust-proxy lists the forwarded scheme and host, validated, and varies by them', async () => {
    const at = hostDir('proxied', '');
    const served = await serve([at, '--port', '0', '--store', 'memory', '--trust-proxy']);
    const own = served.url.slice(0, -1);
    try {
      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.acme.com:8443' };
      const root = await card(served.url, '1.0', forwarded);
      expect(urls(root.card)).toEqual(['https://api.acme.com:8443']);
      expect(root.vary).toBe('A2A-Version, Forwarded, X-Forwarded-Host, X-Forwarded-Proto');
      const mounted = await card(`${served.url}agents/solo/`, '0.3', forwarded);
      expect(mounted.card.url).toBe('https://api.acme.com:8443/agents/solo');
      const listing = (await (await fetch(`${served.url}agents`, { headers: forwarded })).json()) as {
        agents: { url: string }[];
      };
      expect(listing.agents[0]!.url).toBe('https://api.acme.com:8443/agents/solo/');

      // RFC 7239: the first element, the one the proxy nearest the client wrote.
      const rfc = await card(served.url, '1.0', {
        forwarded: 'for=192.0.2.60;proto=https;host="agents.acme.com", for=198.51.100.7;host=evil.example',
      });
      expect(urls(rfc.card)).toEqual(['https://agents.acme.com']);
      // Only the scheme forwarded: the host is the request's own.
      const schemeOnly = await card(served.url, '1.0', { 'x-forwarded-proto': 'https' });
      expect(urls(schemeOnly.card)).toEqual([own.replace('http:', 'https:')]);

      // Hostile values never reach the card: each is ignored and the card names the listener.
      const hostiles: Record<string, string>[] = [
        { 'x-forwarded-host': 'evil.example/"><script>alert(1)</script>' },
        { 'x-forwarded-host': 'evil.example@api.acme.com' },
        { 'x-forwarded-host': 'a'.repeat(400) },
        { 'x-forwarded-proto': 'javascript' },
        { forwarded: 'host="evil.example/path";proto=gopher' },
      ];
      for (const hostile of hostiles) {
        const response = await fetch(`${served.url}.well-known/agent-card.json`, {
          headers: { 'a2a-version': '1.0', ...hostile },
        });
        const text = await response.text();
        expect(text).not.toMatch(/evil|<script|javascript|gopher|aaaa/);
        expect(urls(JSON.parse(text) as Card)).toEqual([own]);
      }
      // The cached card for one forwarded host is never served for another.
      const other = await card(served.url, '1.0', { 'x-forwarded-host': 'other.acme.com' });
      expect(urls(other.card)).toEqual(['http://other.acme.com']);
      expect(urls((await card(served.url, '1.0')).card)).toEqual([own]);
    } finally {
      await stop(served);
    }
  });
});

describe('a wildcard bind (decision 0149)', () => {
  it('advertises the machine, never localhost or 127.0.0.1, on HTTP and gRPC', async () => {
    const served = await serve([
      ECHO,
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--store',
      'memory',
      '--grpc-port',
      '0',
    ]);
    try {
      const machine = machineHost();
      expect(machine).not.toMatch(/^(localhost|127\.|\[::1\])/);
      const port = new URL(served.url).port;
      expect(served.url).toBe(`http://${machine}:${port}/`);
      // Reached on the loopback address, which the wildcard bind includes.
      const { card: v1 } = await card(`http://127.0.0.1:${port}/`, '1.0');
      for (const url of urls(v1)) {
        expect(url).not.toMatch(/localhost|127\.0\.0\.1/);
        expect(url.replace(/^http:\/\//, '')).toMatch(
          new RegExp(`^${machine.replace(/[.[\]]/g, '\\$&')}:\\d+$`),
        );
      }
    } finally {
      await stop(served);
    }
  });
});
