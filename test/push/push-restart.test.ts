/**
 * Push across a crash, as a user runs it: `concord serve` (the agent host, SQLite) as a child
 * process with push on by default and `--push-allow 127.0.0.1`. Acknowledged tasks have their
 * deliveries in the outbox while the receiver is down; the server is killed with SIGKILL,
 * restarted on the same data directory, and the receiver (back up) gets every event in order,
 * signed with the same persisted key. The token and the credentials never appear in the SQLite
 * files. `concord push dead-letters` lists what was given up and `concord push requeue` puts it back.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { v1_0Codec } from '../../src/protocol/internal.js';
import { SECRET_KEY_FILE, SIGNING_KEY_FILE } from '../../src/server/internal.js';
import { openSqliteTaskStore } from '../../src/store/sqlite/index.js';
import { eventually, message, rpc, startPushServer } from './helpers/push-server.js';
import { startReceiver, verifyDelivery, type WebhookReceiver } from './helpers/webhook-receiver.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const HOST = join(import.meta.dirname, 'fixtures/host');
const TOKEN = 'tok-PLAINTEXT-7f3a9c';
const CREDENTIALS = 'c2VjcmV0LXVzZXI6c2VjcmV0LXBhc3N3b3Jk';

const dirs: string[] = [];
const children: ChildProcess[] = [];
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await receiver?.close();
  receiver = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'concord-push-restart-'));
  dirs.push(dir);
  return dir;
}

/** `concord serve <host fixture>` on a free port; resolves with its base URL. */
function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', HOST, '--port', '0', '--data-dir', dataDir, '--push-allow', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return new Promise((started, failed) => {
    let out = '';
    const timer = setTimeout(() => failed(new Error(`concord serve did not start: ${out}`)), 20_000);
    const seen = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = /hosting .* at (http:\/\/\S+\/)/.exec(out);
      if (match !== null && out.includes('push notifications: on (webhooks may reach 127.0.0.1)')) {
        clearTimeout(timer);
        started({ child, url: match[1]! });
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => failed(new Error(`concord serve exited with ${code}: ${out}`)));
  });
}

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    child.on('exit', () => done());
    child.kill('SIGKILL');
  });
}

describe.skipIf(!existsSync(CLI))(
  'push across a restart (concord serve, SQLite; needs `npm run build`)',
  () => {
    it('delivers every acknowledged event after kill -9 and a restart, in order, signed with the same key', async () => {
      receiver = await startReceiver();
      const hook = receiver.url('/after-crash');
      await receiver.down();
      const dataDir = tempDir();
      const first = await serve(dataDir);
      const agentUrl = `${first.url}agents/streamer/`;
      const taskIds: string[] = [];
      for (let i = 0; i < 2; i++) {
        const { body } = await rpc(agentUrl, 'SendMessage', {
          message: message(`job ${i}`),
          configuration: {
            taskPushNotificationConfig: {
              url: hook,
              token: TOKEN,
              authentication: { scheme: 'Basic', credentials: CREDENTIALS },
            },
          },
        });
        const task = (body.result as { task: { id: string; status: { state: string } } }).task;
        expect(task.status.state).toBe('TASK_STATE_COMPLETED');
        taskIds.push(task.id);
      }
      const jwksBefore = await (await fetch(`${first.url}.well-known/jwks.json`)).json();
      const file = join(dataDir, 'streamer.db');

      // Acknowledged, not delivered: the deliveries wait in the outbox.
      const db = new Database(file, { readonly: true });
      const pending = db.prepare('SELECT count(*) AS n FROM push_outbox').get() as { n: number };
      const sealed = db.prepare('SELECT sealed_secrets AS s FROM push_configs').all() as { s: string }[];
      db.close();
      expect(pending.n).toBeGreaterThan(0);
      expect(sealed).toHaveLength(2);
      for (const row of sealed) expect(row.s).toMatch(/^v1\./);

      await killed(first.child);

      // Secrets at rest: neither the token nor the credentials in any of the SQLite files (WAL included).
      const files = readdirSync(dataDir).filter((name) => name.startsWith('streamer.db'));
      expect(files).toContain('streamer.db');
      for (const name of files) {
        const bytes = readFileSync(join(dataDir, name));
        expect(bytes.includes(TOKEN), name).toBe(false);
        expect(bytes.includes(CREDENTIALS), name).toBe(false);
        expect(bytes.includes(Buffer.from(TOKEN, 'utf16le')), name).toBe(false);
      }
      // The keys were made on first start, readable by their owner only.
      for (const key of [SECRET_KEY_FILE, SIGNING_KEY_FILE]) {
        expect(statSync(join(dataDir, key)).mode & 0o077, key).toBe(0);
      }

      await receiver.up();
      const second = await serve(dataDir);
      const store = openSqliteTaskStore({ path: file });
      let logs: { taskId: string; seqs: number[]; events: unknown[] }[];
      try {
        logs = [];
        for (const taskId of taskIds) {
          const log = await store.readEvents(taskId, 0, { tenant: '', owner: '' });
          logs.push({ taskId, seqs: log.map((r) => r.seq), events: log.map((r) => r.event) });
        }
      } finally {
        await store.close();
      }
      const total = logs.reduce((n, l) => n + l.seqs.length, 0);
      const delivered = await receiver.waitFor(total, 30_000);
      const jwks = (await (await fetch(`${second.url}.well-known/jwks.json`)).json()) as { keys: unknown[] };
      expect(jwks).toEqual(jwksBefore);
      for (const log of logs) {
        const mine = delivered.filter((d) => d.headers['x-a2a-task-id'] === log.taskId);
        expect(mine.map((d) => Number(d.headers['x-a2a-event-id']))).toEqual(log.seqs);
        expect(mine.map((d) => v1_0Codec.decodeStreamResponse(d.json, ''))).toEqual(log.events);
        for (const d of mine) {
          expect(d.headers.authorization).toBe(`Basic ${CREDENTIALS}`);
          expect(d.headers['x-a2a-notification-token']).toBe(TOKEN);
          await verifyDelivery(d, jwks, { issuer: `${second.url}agents/streamer/`, audience: hook });
        }
      }
      expect(delivered).toHaveLength(total);
      await killed(second.child);
    }, 90_000);

    it('lists dead letters with `concord push dead-letters` and requeues one with `concord push requeue`', async () => {
      receiver = await startReceiver();
      receiver.fallback = 500;
      const dataDir = tempDir();
      const file = join(dataDir, 'tasks.db');
      let server = await startPushServer({ file, push: { retry: { maxAttempts: 2, initialDelayMs: 20 } } });
      const { body } = await rpc(server.url, 'SendMessage', {
        message: message('hello'),
        configuration: {
          taskPushNotificationConfig: { url: receiver.url('/dead'), id: 'cfg-dead', token: TOKEN },
        },
      });
      const taskId = (body.result as { task: { id: string } }).task.id;
      // Each event is given up on its own (decision 0145): wait until the outbox is empty, so every
      // event of the task is a dead letter before the server stops, not only the first.
      const page = await eventually(async () => {
        const letters = await server.push.listDeadLetters();
        const pending = await server.push.nextDueAt();
        return letters.deadLetters.length > 0 && pending === undefined ? letters : undefined;
      });
      await server.close();
      const id = page.deadLetters[0]!.id;
      const others = page.deadLetters.slice(1).map((letter) => letter.id);

      const listed = await runCli(['push', 'dead-letters', '--data-dir', dataDir]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(`#${id}`);
      expect(listed.stdout).toContain(`task ${taskId}, config cfg-dead`);
      expect(listed.stdout).toContain(
        'after 2 attempt(s): gave up after 2 attempts: the receiver answered HTTP 500',
      );
      expect(listed.stdout).not.toContain(TOKEN);
      const json = await runCli(['push', 'dead-letters', '--data-dir', dataDir, '--json']);
      const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
      expect(rows[0]).toMatchObject({
        id,
        taskId,
        configId: 'cfg-dead',
        url: receiver.url('/dead'),
        attempts: 2,
      });
      expect(rows[0]).not.toHaveProperty('events');

      const requeued = await runCli(['push', 'requeue', String(id), '--data-dir', dataDir]);
      expect(requeued.code).toBe(0);
      expect(requeued.stdout).toContain(`#${id} is back in the outbox`);
      const again = await runCli(['push', 'requeue', String(id), '--data-dir', dataDir]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`no dead letter #${id}`);
      for (const other of others) {
        expect((await runCli(['push', 'requeue', String(other), '--data-dir', dataDir])).code).toBe(0);
      }
      expect((await runCli(['push', 'dead-letters', '--data-dir', dataDir])).stdout).toContain(
        'No dead letters',
      );

      // Back in the outbox: a server on the same file delivers it to the receiver, now answering.
      receiver.fallback = 200;
      const before = receiver.received.length;
      server = await startPushServer({ file });
      try {
        await eventually(() => (receiver!.received.length > before ? true : undefined));
        expect(receiver.received.at(-1)).toMatchObject({ path: '/dead', answered: 200 });
      } finally {
        await server.close();
      }
    }, 60_000);
  },
);
