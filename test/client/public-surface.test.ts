/**
 * `concord-a2a/client` as a user imports it: by the package name (package.json `exports`), in a
 * separate Node process, against the echo example on a real socket; its TypeScript types resolve
 * through the same entry; and its run-time surface is exactly the deliberate list in
 * src/client/index.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURES = join(ROOT, 'test/client/fixtures');

function node(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

const PUBLIC_VALUES = [
  'A2AClient',
  'A2AClientError',
  'A2ALocalError',
  'AgentContracts',
  'CardCache',
  'ContractRefusedError',
  'ContractReplyError',
  'OAuthError',
  'apiKey',
  'bearer',
  'defaultCardCache',
  'discoverAgents',
  'extensionsInterceptor',
  'headersInterceptor',
  'oauth2ClientCredentials',
  'oauth2DeviceCode',
  'pickCatalogAgent',
  'resolveAgentCard',
].sort();

// Type-checked against the built declarations; written at run time (inside the package, so the
// self-reference resolves) rather than kept as a file the project's own typecheck would include.
const TYPED_USER_PROGRAM = `// The \`types\` condition of \`concord/client\` resolves.
import { A2AClient, A2ALocalError, bearer, type A2AConnectOptions, type TransportInfo } from 'concord-a2a/client';
// @ts-expect-error -- internal helpers are not part of the public surface
import { cardUrlsFor } from 'concord-a2a/client';

const options: A2AConnectOptions = { auth: bearer('t'), prefer: { versions: ['1.0'] }, timeoutMs: 1000 };
export async function transportOf(url: string): Promise<TransportInfo> {
  const client = await A2AClient.connect(url, options);
  return client.transport;
}
export const kinds: A2ALocalError['kind'][] = ['NETWORK', 'SSRF_BLOCKED'];
export const unused = cardUrlsFor;
`;

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho();
});
afterAll(async () => {
  await echo.close();
});

describe('concord-a2a/client', () => {
  it('imports by package name and calls an agent from a user program', async () => {
    const run = await node([join(FIXTURES, 'use-client.mjs'), echo.url]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result.exports).toEqual(PUBLIC_VALUES);
    expect(result.transport).toMatchObject({ protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(result.text).toBe('echo: from a package import');
    expect(result.contract).toEqual({
      data: { _a2a: true, contract: 'Ping', payload: { n: 1 }, correlationId: 'c-1' },
      mediaType: 'application/vnd.concord.contract+json',
    });
    expect(result.notFound).toEqual({ isClientError: true, type: 'TaskNotFoundError', code: -32001 });
  });

  it('resolves its types through the package exports', async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const dir = mkdtempSync(join(FIXTURES, '.typed-'));
    const file = join(dir, 'user-program.mts');
    writeFileSync(file, TYPED_USER_PROGRAM);
    const run = await node([
      tsc,
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      file,
    ]).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});
