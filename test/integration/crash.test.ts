/**
 * The durability promise: every task acknowledged to a client before `kill -9` of the server is
 * there, in the acknowledged state, after a restart on the same SQLite file, and on the same
 * PostgreSQL schema (when CONCORD_TEST_POSTGRES_URL is set). Real child process, real socket, real
 * file or database; the server is killed while requests are still in flight. On SQLite the
 * restarted server fails the tasks that were working, whose executors died (decision 0119,
 * test/integration/restart-recovery.test.ts); that is the one change allowed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const dataDir = mkdtempSync(join(tmpdir(), 'concord-crash-'));

function startServerWith(storeArgs: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', join(ROOT, 'examples/echo'), '--port', '0', '--data-dir', dataDir, ...storeArgs],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolveStart, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/[^\s]+\/)/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolveStart({ child, url: m[1]! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

async function send(
  url: string,
  text: string,
  returnImmediately: boolean,
): Promise<{ id: string; state: string }> {
  const response = await fetch(`${url}message:send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
      configuration: { returnImmediately },
    }),
  });
  const body = (await response.json()) as { task: { id: string; status: { state: string } } };
  return { id: body.task.id, state: body.task.status.state };
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// The PostgreSQL schema is made by the first server; the helper drops it when the file ends.
const stores: { name: string; skip: boolean; recovers: boolean; args: () => string[] }[] = [
  { name: 'SQLite', skip: false, recovers: true, args: () => [] },
  {
    name: `PostgreSQL${POSTGRES_SKIP_NOTE}`,
    skip: POSTGRES_URL === undefined,
    recovers: false,
    args: (() => {
      let schema: string | undefined;
      return () => [
        '--store',
        'postgres',
        '--database-url',
        POSTGRES_URL!,
        '--database-schema',
        (schema ??= freshSchema()),
      ];
    })(),
  },
];

for (const store of stores)
  describe.skipIf(!existsSync(CLI) || store.skip)(
    `crash safety on ${store.name} (needs \`npm run build\`)`,
    () => {
      const startServer = (): ReturnType<typeof startServerWith> => startServerWith(store.args());
      it('keeps every acknowledged task across kill -9', async () => {
        const first = await startServer();
        const acknowledged = new Map<string, string>();
        let stop = false;
        const errors: unknown[] = [];
        const worker = async (n: number): Promise<void> => {
          for (let i = 0; !stop; i++) {
            try {
              // Mostly completed tasks; every fifth one stays working (acknowledged on creation).
              const wait = (n + i) % 5 === 0;
              const ack = await send(first.url, wait ? 'wait' : `crash test ${n}.${i}`, wait);
              acknowledged.set(ack.id, ack.state);
            } catch (error) {
              if (!stop) errors.push(error);
              return; // the server died under this request: it was never acknowledged
            }
          }
        };
        let alive = 16;
        const workers = Array.from({ length: 16 }, (_, n) =>
          worker(n).finally(() => {
            alive--;
          }),
        );
        const deadline = Date.now() + 30_000;
        while (acknowledged.size < 400 && alive > 0 && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        expect(alive, `workers died early: ${String(errors[0])}`).toBe(16);
        // Listen for the exit before killing: it may fire while the workers are still unwinding.
        const exited = new Promise((r) => first.child.once('exit', r));
        first.child.kill('SIGKILL');
        stop = true;
        await Promise.all(workers);
        await exited;

        const second = await startServer();
        try {
          const missing: string[] = [];
          const wrongState: string[] = [];
          for (const [id, state] of acknowledged) {
            const response = await fetch(`${second.url}tasks/${id}`, { headers: { 'a2a-version': '1.0' } });
            if (response.status !== 200) {
              missing.push(id);
              continue;
            }
            const task = (await response.json()) as { status: { state: string } };
            const now = task.status.state;
            const recovered = store.recovers && state === 'TASK_STATE_WORKING' && now === 'TASK_STATE_FAILED';
            if (now !== state && !recovered) wrongState.push(`${id}: ${state} -> ${now}`);
          }
          expect(acknowledged.size).toBeGreaterThanOrEqual(400);
          expect(missing).toEqual([]);
          expect(wrongState).toEqual([]);
        } finally {
          const exited2 = new Promise((r) => second.child.once('exit', r));
          second.child.kill('SIGTERM');
          await exited2;
        }
      }, 60_000);

      it('stops cleanly on SIGTERM', async () => {
        const server = await startServer();
        const code = await new Promise<number | null>((r) => {
          server.child.once('exit', (c) => r(c));
          server.child.kill('SIGTERM');
        });
        expect(code).toBe(0);
      });
    },
  );
