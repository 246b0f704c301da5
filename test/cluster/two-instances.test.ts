/**
 * The multi-instance promise (decision 0117), as a user runs it: two `concord serve examples/echo` child
 * processes on one PostgreSQL database (a fresh schema per test), talking over the PostgreSQL bus
 * (and over Redis when CONCORD_TEST_REDIS_URL is set). A task started on A streams from B with
 * every event in order; a task running on A is canceled through B; kill -9 of A leaves its
 * running tasks failed with the reason once its heartbeat expired, and every acknowledged task
 * still there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeOnPostgres, freshSchema, POSTGRES_URL } from '../helpers/postgres.js';
import { REDIS_SKIP_NOTE, REDIS_URL } from '../helpers/redis.js';
import {
  cancel,
  chunks,
  eventually,
  getTask,
  sendText,
  stateOf,
  subscribe,
  type StreamEvent,
} from '../helpers/a2a-http.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const ECHO = join(ROOT, 'examples/echo');
/** Heartbeat TTL of the instances: short, so a dead one is noticed within the test. */
const TTL_MS = 1_500;
const dataDir = mkdtempSync(join(tmpdir(), 'concord-two-'));

interface Instance {
  child: ChildProcess;
  url: string;
  output: () => string;
}

let children: ChildProcess[] = [];

/** Starts `concord serve examples/echo` on the schema; resolves once it listens. */
function serve(schema: string, extra: string[] = []): Promise<Instance> {
  const args = [
    CLI,
    'serve',
    ECHO,
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--store',
    'postgres',
    '--database-url',
    POSTGRES_URL!,
    '--database-schema',
    schema,
    '--instance-ttl',
    String(TTL_MS),
    ...extra,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
  children.push(child);
  let out = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start in 20 s: ${out}`)), 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/\S+\/)\n/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolveStart({ child, url: m[1]!, output: () => out });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${out}`));
    });
  });
}

/** Two instances on one fresh schema. */
async function pair(extra: string[] = []): Promise<[Instance, Instance]> {
  const schema = freshSchema();
  // One after the other: the first creates the schema and the push keys the second reuses.
  const a = await serve(schema, extra);
  const b = await serve(schema, extra);
  return [a, b];
}

afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children = [];
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Ids of a stream's events, as numbers. */
const idsOf = (events: StreamEvent[]): number[] => events.map((event) => Number(event.id));

/** The stream test, run on each bus. */
async function streamsAcross(extra: string[]): Promise<void> {
  const [a, b] = await pair(extra);
  const task = await sendText(a.url, 'stream 5');
  const live = await subscribe(b.url, task.id);
  expect(live.status).toBe(200);
  expect(live.closedByServer).toBe(true);
  // B subscribed while A's agent was still at work: the chunks arrived live, from A.
  expect(stateOf(live.events[0]!)).toBe('TASK_STATE_WORKING');
  expect(stateOf(live.events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
  const ids = idsOf(live.events);
  expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
  // The whole log, read back on B, is what A committed: five chunks in order, ids 1..n.
  const log = await subscribe(b.url, task.id, { lastEventId: '0' });
  expect(idsOf(log.events)).toEqual(log.events.map((_, i) => i + 1));
  expect(chunks(log.events)).toEqual([1, 2, 3, 4, 5].map((i) => `chunk ${i} of 5\n`));
  expect(live.events.slice(1)).toEqual(log.events.slice(ids[0]!));
}

describeOnPostgres('two concord serve instances on one PostgreSQL database', () => {
  describe.skipIf(!existsSync(CLI))('(needs `npm run build`)', () => {
    it('streams from B, in order with event ids, a task started on A (PostgreSQL bus)', async () => {
      await streamsAcross([]);
    });

    it('resumes on B with Last-Event-ID a stream that was cut on A', async () => {
      const [a, b] = await pair();
      const task = await sendText(a.url, 'stream 5');
      const first = await subscribe(a.url, task.id, { stopAfter: 3 });
      const rest = await subscribe(b.url, task.id, { lastEventId: first.events.at(-1)!.id! });
      const ids = idsOf([...first.events, ...rest.events]);
      expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
      expect(stateOf(rest.events.at(-1)!)).toBe('TASK_STATE_COMPLETED');
      expect((await getTask(a.url, task.id)).task.artifacts?.[0]?.parts).toHaveLength(5);
    });

    it('cancels through B a task whose agent runs on A; both report it canceled', async () => {
      const [a, b] = await pair();
      const task = await sendText(a.url, 'wait');
      expect(task.status.state).toBe('TASK_STATE_WORKING');
      const watching = subscribe(a.url, task.id);
      const started = Date.now();
      const canceled = await cancel(b.url, task.id);
      expect(canceled.status).toBe(200);
      expect((canceled.body as { status: { state: string } }).status.state).toBe('TASK_STATE_CANCELED');
      // Well inside B's own fallback (5 s): A's agent got the request and A committed the cancel.
      expect(Date.now() - started).toBeLessThan(4_000);
      expect((await getTask(a.url, task.id)).task.status.state).toBe('TASK_STATE_CANCELED');
      expect((await getTask(b.url, task.id)).task.status.state).toBe('TASK_STATE_CANCELED');
      const stream = await watching;
      expect(stateOf(stream.events.at(-1)!)).toBe('TASK_STATE_CANCELED');
      // A second cancel, on either instance, is refused: the task is terminal.
      const again = await cancel(a.url, task.id);
      expect(again.status).toBe(400);
      expect(JSON.stringify(again.body)).toContain('TASK_NOT_CANCELABLE');
    });

    it('after kill -9 of A, B fails its running tasks with the reason and keeps every acknowledged task', async () => {
      const [a, b] = await pair();
      const done = await sendText(a.url, 'hello', false);
      const asking = await sendText(a.url, 'ask', false);
      const waiting = await sendText(a.url, 'wait');
      const streaming = await sendText(a.url, 'stream 200');
      const watching = subscribe(b.url, streaming.id, { timeoutMs: 20_000 });
      await new Promise((r) => setTimeout(r, 300));
      a.child.kill('SIGKILL');
      const killedAt = Date.now();
      const failed = await eventually(
        () => getTask(b.url, waiting.id),
        (read) => read.task.status.state === 'TASK_STATE_FAILED',
        15_000,
      );
      // Not before A's heartbeat could have expired.
      expect(Date.now() - killedAt).toBeGreaterThanOrEqual(TTL_MS - 600);
      expect(failed.task.status.message?.parts[0]?.text).toMatch(
        /^The Concord instance running this task \(.+\) stopped before the task finished\.$/,
      );
      const stream = await watching;
      expect(stateOf(stream.events.at(-1)!)).toBe('TASK_STATE_FAILED');
      const streamIds = idsOf(stream.events);
      expect(streamIds).toEqual(streamIds.map((_, i) => streamIds[0]! + i));
      expect(chunks(stream.events).length).toBeGreaterThan(0);
      expect((await getTask(b.url, streaming.id)).task.status.state).toBe('TASK_STATE_FAILED');
      expect((await getTask(b.url, done.id)).task.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await getTask(b.url, asking.id)).task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      // B carries on: the task waiting for input completes there.
      const reply = await fetch(`${b.url}message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify({
          message: {
            messageId: crypto.randomUUID(),
            role: 'ROLE_USER',
            taskId: asking.id,
            parts: [{ text: 'later' }],
          },
        }),
      });
      expect(((await reply.json()) as { task: { status: { state: string } } }).task.status.state).toBe(
        'TASK_STATE_COMPLETED',
      );
    });

    describe.skipIf(REDIS_URL === undefined)(`with the Redis bus${REDIS_SKIP_NOTE}`, () => {
      it('streams from B, in order with event ids, a task started on A (Redis bus)', async () => {
        await streamsAcross(['--bus', 'redis', '--redis-url', REDIS_URL!]);
      });

      it('cancels through B a task whose agent runs on A (Redis bus)', async () => {
        const [a, b] = await pair(['--bus', 'redis', '--redis-url', REDIS_URL!]);
        const task = await sendText(a.url, 'wait');
        const started = Date.now();
        const canceled = await cancel(b.url, task.id);
        expect((canceled.body as { status: { state: string } }).status.state).toBe('TASK_STATE_CANCELED');
        expect(Date.now() - started).toBeLessThan(4_000);
        expect((await getTask(a.url, task.id)).task.status.state).toBe('TASK_STATE_CANCELED');
      });
    });
  });
});
