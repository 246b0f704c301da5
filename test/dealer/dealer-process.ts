/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON read loosely in assertions */
/** Runs `concord serve examples/dealer` as a child process, as a user would, for the dealer tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { SignJWT } from 'jose';

export const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
/** The HS256 secret the test dealers verify tokens with. */
export const SECRET = 'dealer-test-secret-0123456789abcdef0123456789';
/** The dealer's clock in the tests: just after the seed's examples were written. */
export const NOW = '2026-04-30T12:00:00Z';

/** A running dealer. */
export interface Dealer {
  url: string;
  origin: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

/** Starts the dealer on a free port with `dataDir`; resolves once it listens. */
export function startDealer(dataDir: string, env: Record<string, string> = {}): Promise<Dealer> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', 'examples/dealer', '--port', '0', '--data-dir', dataDir],
    {
      cwd: ROOT,
      env: { ...process.env, DEALER_JWT_SECRET: SECRET, DEALER_NOW: NOW, DEALER_RATE_LIMIT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`dealer did not start: ${out}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = /is serving "[^"]+" at (http:\/\/\S+\/)/.exec(out);
      if (match === null) return;
      clearTimeout(timer);
      const url = match[1]!;
      resolveStart({
        url,
        origin: url.slice(0, -1),
        child,
        output: () => out,
        async stop() {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`dealer exited (${code}) before listening: ${out}`));
    });
  });
}

/** A bearer token the test dealers accept. */
export function token(subject = 'buyer-agent-test', expiresIn = '1h'): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(SECRET));
}

/** An A2A 1.0 HTTP+JSON send of one AAP request part. */
export function aapBody(
  data: unknown,
  mediaType?: string,
  accepted?: string[],
): { message: Record<string, unknown>; configuration?: Record<string, unknown> } {
  return {
    message: {
      messageId: `m-${Math.random().toString(36).slice(2)}`,
      role: 'ROLE_USER',
      parts: [{ data, ...(mediaType === undefined ? {} : { mediaType }) }],
    },
    ...(accepted === undefined ? {} : { configuration: { acceptedOutputModes: accepted } }),
  };
}

/** POSTs JSON and returns status, headers and the parsed body. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: Record<string, any> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Record<string, any>,
  };
}
