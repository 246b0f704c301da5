// Interface URLs a user sets without restating the card's list (decision 0138): the public URL
// of the HTTP listener and of the gRPC listener, through the public API (`listen`, `startHost`)
// and `concord serve` flags; a gRPC target given as a URL is listed as such for 0.3 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost } from '../../src/host/index.js';
import { listen } from '../../src/server/adapters/node.js';
import { createA2AServer } from '../../src/server/index.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

const CLI = join(import.meta.dirname, '../../dist/cli/main.js');
type Card = {
  url?: string;
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  additionalInterfaces?: { url: string; transport: string }[];
};

async function cardAt(base: string, version: '1.0' | '0.3'): Promise<Card> {
  const response = await fetch(`${base}.well-known/agent-card.json`, { headers: { 'a2a-version': version } });
  return (await response.json()) as Card;
}

const listed = (card: Card) =>
  card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion} ${i.url}`);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'concord-public-'));
  cpSync(join(import.meta.dirname, 'fixtures/host/echo-handler.mjs'), join(dir, 'echo-handler.mjs'));
  writeFileSync(
    join(dir, 'solo.md'),
    '---\nname: solo\nexposed: true\ndescription: The only agent here.\nhandler: ./echo-handler.mjs\n---\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('public URLs', () => {
  it('a host lists its public HTTP URL and its gRPC URL: the URL for 0.3, host:port for 1.0', async () => {
    const host = await startHost(dir, {
      port: 0,
      store: 'memory',
      grpcPort: 0,
      publicUrl: 'https://agents.example.com/a2a',
      grpcPublicUrl: 'https://grpc.example.com',
    });
    try {
      const root = await cardAt(host.url, '1.0');
      expect(listed(root)).toEqual([
        'JSONRPC 1.0 https://agents.example.com/a2a',
        'HTTP+JSON 1.0 https://agents.example.com/a2a',
        'GRPC 1.0 grpc.example.com:443',
        'JSONRPC 0.3 https://agents.example.com/a2a',
        'HTTP+JSON 0.3 https://agents.example.com/a2a',
        'GRPC 0.3 https://grpc.example.com',
      ]);
      const mounted = await cardAt(`${host.url}agents/solo/`, '0.3');
      expect(mounted.url).toBe('https://agents.example.com/a2a/agents/solo');
      expect(mounted.additionalInterfaces).toContainEqual({
        url: 'https://grpc.example.com',
        transport: 'GRPC',
      });
    } finally {
      await host.close();
    }
  });

  it('without a public gRPC URL both versions list the bound host:port, what the SDKs’ gRPC clients dial', async () => {
    const host = await startHost(dir, { port: 0, store: 'memory', grpcPort: 0 });
    try {
      const grpc = (await cardAt(host.url, '1.0')).supportedInterfaces.filter(
        (i) => i.protocolBinding === 'GRPC',
      );
      expect(grpc.map((i) => i.url)).toEqual([host.grpcTarget, host.grpcTarget]);
      expect(host.grpcTarget).toMatch(/^127\.0\.0\.1:\d+$/);
    } finally {
      await host.close();
    }
  });

  it('listen refuses a public URL that is not an http(s) base, before it binds', async () => {
    const server = createA2AServer({ agentCard: echo.agentCard, executor: echo.executor });
    await expect(listen(server, { port: 0, publicUrl: 'ftp://x.example/' })).rejects.toThrow(/publicUrl/);
    await expect(listen(server, { port: 0, publicUrl: 'https://x.example/?a=1' })).rejects.toThrow(/query/);
    const running = await listen(server, { port: 0, publicUrl: 'https://x.example/base' });
    try {
      expect((await cardAt(running.url, '1.0')).supportedInterfaces[0]!.url).toBe('https://x.example/base');
    } finally {
      await running.close();
    }
  });
});

function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((started, failed) => {
    const timer = setTimeout(() => failed(new Error(`did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /hosting \d+ agent\(s\) at (http:\/\/\S+\/)/.exec(out);
      if (m !== null && out.includes('task stores:')) {
        clearTimeout(timer);
        started({ child, url: m[1]! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => failed(new Error(`exited with ${code}: ${out}`)));
  });
}

describe('concord serve --public-url / --grpc-public-url', () => {
  it('sets the listed URLs without restating the interface list', async () => {
    const { child, url } = await serve([
      dir,
      '--port',
      '0',
      '--store',
      'memory',
      '--grpc-port',
      '0',
      '--public-url',
      'https://dealer.example.com/',
      '--grpc-public-url',
      'grpc.dealer.example.com:8443',
    ]);
    try {
      expect(listed(await cardAt(url, '1.0'))).toEqual([
        'JSONRPC 1.0 https://dealer.example.com',
        'HTTP+JSON 1.0 https://dealer.example.com',
        'GRPC 1.0 grpc.dealer.example.com:8443',
        'JSONRPC 0.3 https://dealer.example.com',
        'HTTP+JSON 0.3 https://dealer.example.com',
        'GRPC 0.3 grpc.dealer.example.com:8443',
      ]);
    } finally {
      await new Promise<void>((done) => {
        child.on('exit', () => done());
        child.kill('SIGTERM');
      });
    }
  });
});
