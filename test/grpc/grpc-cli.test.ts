/**
 * `concord serve --grpc-port` as a user runs it (the built CLI as a child process): a code agent
 * and a one-agent host answer over gRPC and list it on their cards; a host exposing several
 * agents is refused before anything listens, saying why.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A2AClient, CardCache } from '../../src/client/index.js';
import { concord, ROOT, startConcord } from '../cli/cli-process.js';

async function servedOverGrpc(args: string[], cardPath: string): Promise<{ text: string; grpc: string[] }> {
  const cli = startConcord(['serve', ...args, '--port', '0', '--grpc-port', '0', '--store', 'memory']);
  try {
    const stdout = await cli.until((s) => /gRPC: \S+/.test(s) && s.includes('http://'));
    const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout)![1]!;
    const target = /gRPC: (\S+)/.exec(stdout)![1]!;
    const card = (await (await fetch(`${url}${cardPath}`, { headers: { 'a2a-version': '1.0' } })).json()) as {
      supportedInterfaces: { url: string; protocolBinding: string }[];
    };
    const client = await A2AClient.connect(`${url}${cardPath.replace('.well-known/agent-card.json', '')}`, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: ['GRPC'] },
    });
    expect(client.transport.url).toBe(target);
    const answer = await client.sendMessage({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'Ada' }] },
    });
    client.close();
    const text = 'task' in answer ? JSON.stringify(answer.task) : JSON.stringify(answer.message);
    return {
      text,
      grpc: card.supportedInterfaces.filter((i) => i.protocolBinding === 'GRPC').map((i) => i.url),
    };
  } finally {
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  }
}

describe('concord serve --grpc-port', () => {
  it('serves a code agent over gRPC beside HTTP', async () => {
    const { text, grpc } = await servedOverGrpc([join(ROOT, 'examples/echo')], '.well-known/agent-card.json');
    expect(text).toContain('Ada');
    expect(grpc).toHaveLength(2);
  });

  it("serves a host's one exposed agent over gRPC, listed on its card", async () => {
    const { text, grpc } = await servedOverGrpc(
      [join(ROOT, 'examples/agents/greeter.md')],
      'agents/greeter/.well-known/agent-card.json',
    );
    expect(text).toContain('Ada');
    expect(grpc).toHaveLength(2);
  });

  it('refuses a host with several exposed agents before listening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'concord-grpc-host-'));
    try {
      cpSync(join(ROOT, 'examples/agents/greeter.mjs'), join(dir, 'greeter.mjs'));
      const greeter = readFileSync(join(ROOT, 'examples/agents/greeter.md'), 'utf8');
      writeFileSync(join(dir, 'greeter.md'), greeter);
      writeFileSync(join(dir, 'welcomer.md'), greeter.replace('name: greeter', 'name: welcomer'));
      const run = await concord(['serve', dir, '--port', '0', '--grpc-port', '0', '--store', 'memory']);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(
        '--grpc-port serves one agent, and this host exposes 2 (greeter, welcomer)',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects a bad --grpc-port value', async () => {
    const run = await concord(['serve', join(ROOT, 'examples/echo'), '--grpc-port', 'seven']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('--grpc-port: expected 0-65535, got seven');
  });
});
