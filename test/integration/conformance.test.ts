/**
 * The operations of A2A through real sockets, for both versions and all three bindings (JSON-RPC,
 * HTTP+JSON, gRPC), against the echo agent on both stores: send (blocking and not), stream, get
 * with historyLength, list with pagination, cancel, subscribe, and resubscribe after a dropped
 * connection with no lost event.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamResponse } from '../../src/protocol/index.js';
import { allDrivers, ok, taskOf, userText, type Driver } from '../helpers/drivers.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { grpcDriver } from '../helpers/grpc-driver.js';
import { POSTGRES_SKIP_NOTE, POSTGRES_URL } from '../helpers/postgres.js';

// gRPC status codes the suite expects (A2A 1.0 §5.4, the catalog's gRPC column).
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;

function kinds(events: StreamResponse[]): string[] {
  return events.map((e) => Object.keys(e)[0]!);
}

function lastState(events: StreamResponse[]): string | undefined {
  const last = events.at(-1);
  if (last === undefined) return undefined;
  if ('statusUpdate' in last) return last.statusUpdate.status.state;
  if ('task' in last) return last.task.status.state;
  return undefined;
}

// PostgreSQL joins when CONCORD_TEST_POSTGRES_URL is set (helpers/postgres.ts).
describe.skipIf(POSTGRES_URL !== undefined)('conformance on the postgres store', () => {
  it.skip(`runs against PostgreSQL${POSTGRES_SKIP_NOTE}`, () => {});
});

for (const storeKind of [
  'memory',
  'sqlite',
  ...(POSTGRES_URL === undefined ? [] : ['postgres' as const]),
] as const) {
  describe(`conformance on the ${storeKind} store`, () => {
    let server: EchoServer;
    let drivers: Driver[];
    beforeAll(async () => {
      server = await startEcho({ store: storeKind, grpc: true });
      drivers = [
        ...allDrivers(server.url),
        grpcDriver(server.grpc!.target, '1.0'),
        grpcDriver(server.grpc!.target, '0.3'),
      ];
    });
    afterAll(async () => {
      for (const driver of drivers) driver.close?.();
      await server.close();
      expect(server.errors).toEqual([]);
    });

    for (const index of [0, 1, 2, 3, 4, 5]) {
      const label = [
        'JSON-RPC 1.0',
        'HTTP+JSON 1.0',
        'JSON-RPC 0.3',
        'HTTP+JSON 0.3',
        'gRPC 1.0',
        'gRPC 0.3',
      ][index]!;
      describe(label, () => {
        const d = (): Driver => drivers[index]!;

        it('blocking send returns the completed task with its artifact', async () => {
          const task = taskOf(await d().send(userText('hello world')));
          expect(task.status.state).toBe('TASK_STATE_COMPLETED');
          expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
          expect(task.contextId).toMatch(/^[0-9a-f-]{36}$/);
          expect(task.artifacts).toHaveLength(1);
          expect(task.artifacts![0]!.parts[0]!.text).toContain('hello world');
          expect(task.history?.[0]?.parts[0]?.text).toBe('hello world');
        });

        it('keeps a client contextId and echoes data parts as data', async () => {
          const contextId = randomUUID();
          const message = {
            ...userText('x', { contextId }),
            parts: [{ data: { order: 42, items: ['a', 'b'] } }],
          };
          const task = taskOf(await d().send(message));
          expect(task.contextId).toBe(contextId);
          expect(task.artifacts![0]!.parts[0]!.data).toEqual({ order: 42, items: ['a', 'b'] });
        });

        it('non-blocking send returns at once; cancel reaches the running agent', async () => {
          const task = taskOf(await d().send(userText('wait'), { returnImmediately: true }));
          expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
          const canceled = ok(await d().cancelTask(task.id));
          expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
          expect(ok(await d().getTask(task.id)).status.state).toBe('TASK_STATE_CANCELED');
          const again = await d().cancelTask(task.id);
          expect(again.ok).toBe(false);
          if (!again.ok) {
            expect(again.error.code).toBe(-32002);
            expect(again.error.reason).toBe('TASK_NOT_CANCELABLE');
            if (d().binding === 'HTTP+JSON') expect(again.error.httpStatus).toBe(400);
            if (d().binding === 'GRPC') expect(again.error.grpcStatus).toBe(FAILED_PRECONDITION);
          }
        });

        it('streams the task, every chunk in order, then the terminal status, and closes', async () => {
          const run = await d().stream(userText('stream 3'));
          if (d().binding !== 'GRPC') expect(run.httpStatus).toBe(200);
          expect(run.closedByServer).toBe(true);
          const events = run.items.map((i) => i.event);
          expect(kinds(events)[0]).toBe('task');
          const chunks = events.flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate] : []));
          expect(chunks.map((c) => c.artifact.parts[0]!.text)).toEqual([
            'chunk 1 of 3\n',
            'chunk 2 of 3\n',
            'chunk 3 of 3\n',
          ]);
          expect(chunks.map((c) => c.append === true)).toEqual([false, true, true]);
          expect(chunks.map((c) => c.lastChunk === true)).toEqual([false, false, true]);
          expect(new Set(chunks.map((c) => c.artifact.artifactId)).size).toBe(1);
          expect(lastState(events)).toBe('TASK_STATE_COMPLETED');
          // SSE events carry their sequence number; gRPC messages carry no ids (A2A 1.0 §10).
          if (d().binding !== 'GRPC') {
            const ids = run.items.map((i) => Number(i.id));
            expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
          }
          const stored = ok(await d().getTask(chunks[0]!.taskId));
          expect(stored.artifacts![0]!.parts).toHaveLength(3);
        });

        it('input-required: the stream closes, the next message completes the task, history is trimmed per version', async () => {
          const run = await d().stream(userText('ask'));
          expect(run.closedByServer).toBe(true);
          expect(lastState(run.items.map((i) => i.event))).toBe('TASK_STATE_INPUT_REQUIRED');
          const first = run.items[0]!.event;
          if (!('task' in first)) throw new Error('first event must be the task');
          const taskId = first.task.id;
          const done = taskOf(
            await d().send(userText('the answer', { taskId, contextId: first.task.contextId })),
          );
          expect(done.id).toBe(taskId);
          expect(done.status.state).toBe('TASK_STATE_COMPLETED');
          expect(done.artifacts![0]!.parts[0]!.text).toContain('the answer');
          const full = ok(await d().getTask(taskId));
          expect(full.history!.map((m) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT', 'ROLE_USER']);
          expect(ok(await d().getTask(taskId, 1)).history!.map((m) => m.parts[0]!.text)).toEqual([
            'the answer',
          ]);
          const zero = ok(await d().getTask(taskId, 0));
          // 1.0: 0 means no history; 0.3: 0 means unlimited (decision 0005).
          if (d().version === '1.0') expect(zero.history).toBeUndefined();
          else expect(zero.history).toHaveLength(3);
        });

        it('rejects messages to a finished task with the version’s code', async () => {
          const task = taskOf(await d().send(userText('done')));
          const again = await d().send(userText('more', { taskId: task.id }));
          expect(again.ok).toBe(false);
          if (!again.ok) {
            expect(again.error.code).toBe(d().version === '1.0' ? -32004 : -32602);
            if (d().binding === 'HTTP+JSON') expect(again.error.httpStatus).toBe(400);
            if (d().binding === 'GRPC')
              expect(again.error.grpcStatus).toBe(
                d().version === '1.0' ? FAILED_PRECONDITION : INVALID_ARGUMENT,
              );
          }
        });

        it('answers unknown tasks with -32001 (404 on REST)', async () => {
          for (const outcome of [
            await d().getTask('no-such-task'),
            await d().cancelTask('no-such-task'),
            await d().send(userText('x', { taskId: 'no-such-task' })),
          ]) {
            expect(outcome.ok).toBe(false);
            if (!outcome.ok) {
              expect(outcome.error.code).toBe(-32001);
              expect(outcome.error.reason).toBe('TASK_NOT_FOUND');
              if (d().binding === 'HTTP+JSON') expect(outcome.error.httpStatus).toBe(404);
              if (d().binding === 'GRPC') expect(outcome.error.grpcStatus).toBe(NOT_FOUND);
            }
          }
        });

        it('rejects a contextId that does not match the task', async () => {
          const run = await d().send(userText('ask'));
          const task = taskOf(run);
          const wrong = await d().send(userText('x', { taskId: task.id, contextId: randomUUID() }));
          expect(wrong.ok).toBe(false);
          if (!wrong.ok) {
            expect(wrong.error.code).toBe(-32602);
            expect(wrong.error.violations[0]!.field).toMatch(/message\/contextId$/);
          }
        });

        it('resubscribes after a dropped connection and misses nothing', async () => {
          const started = taskOf(await d().send(userText('stream 6'), { returnImmediately: true }));
          const first = await d().subscribe(started.id, { stopAfter: 3 });
          expect(first.items).toHaveLength(3);
          expect(Object.keys(first.items[0]!.event)[0]).toBe('task');
          if (d().binding === 'GRPC') {
            // No event ids on gRPC: re-attaching starts from a fresh Task snapshot (A2A 1.0 §3.1.6)
            // that already holds every chunk produced so far; the rest follow live (decision 0070).
            const rest = await d().subscribe(started.id);
            expect(rest.closedByServer).toBe(true);
            const snapshot = rest.items[0]!.event;
            if (!('task' in snapshot)) throw new Error('a resubscription starts with the task');
            const before = snapshot.task.artifacts?.[0]?.parts.map((p) => p.text) ?? [];
            const after = rest.items.flatMap((i) =>
              'artifactUpdate' in i.event ? [i.event.artifactUpdate.artifact.parts[0]!.text] : [],
            );
            expect([...before, ...after]).toEqual([1, 2, 3, 4, 5, 6].map((i) => `chunk ${i} of 6\n`));
            expect(lastState(rest.items.map((i) => i.event))).toBe('TASK_STATE_COMPLETED');
            return;
          }
          const lastId = first.items.at(-1)!.id!;
          const rest = await d().subscribe(started.id, { lastEventId: lastId });
          expect(rest.closedByServer).toBe(true);
          const ids = [...first.items.slice(1), ...rest.items].map((i) => Number(i.id));
          // Consecutive sequence numbers across the two connections: no gap, no duplicate.
          expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
          expect(lastState(rest.items.map((i) => i.event))).toBe('TASK_STATE_COMPLETED');
          const chunks = [...first.items, ...rest.items].flatMap((i) =>
            'artifactUpdate' in i.event ? [i.event.artifactUpdate] : [],
          );
          const seen = chunks.map((c) => c.artifact.parts[0]!.text);
          const snapshot = first.items[0]!.event;
          const before =
            'task' in snapshot ? (snapshot.task.artifacts?.[0]?.parts.map((p) => p.text) ?? []) : [];
          expect([...before, ...seen]).toEqual([1, 2, 3, 4, 5, 6].map((i) => `chunk ${i} of 6\n`));
        });

        it('subscribing to a finished task: 1.0 errors with -32004, 0.3 returns the task and closes', async () => {
          const task = taskOf(await d().send(userText('finished')));
          const run = await d().subscribe(task.id);
          if (d().version === '1.0') {
            expect(run.error?.code).toBe(-32004);
            if (d().binding === 'GRPC') expect(run.error?.grpcStatus).toBe(FAILED_PRECONDITION);
          } else {
            expect(run.items).toHaveLength(1);
            expect(run.closedByServer).toBe(true);
          }
        });

        it('lists tasks newest first with cursor pagination', async (ctx) => {
          // 0.3 JSON-RPC and 0.3 gRPC have no list method (A2A 0.3 §7, `tasks/list`).
          if (d().name === 'JSON-RPC 0.3' || d().name === 'gRPC 0.3') ctx.skip();
          const contextId = randomUUID();
          const ids: string[] = [];
          for (let i = 0; i < 5; i++)
            ids.push(taskOf(await d().send(userText(`list ${i}`, { contextId }))).id);
          const seen: string[] = [];
          let pageToken: string | undefined;
          let pages = 0;
          do {
            const page = ok(
              await d().listTasks({
                contextId,
                pageSize: 2,
                ...(pageToken === undefined ? {} : { pageToken }),
              }),
            );
            expect(page.totalSize).toBe(5);
            expect(page.pageSize).toBe(2);
            for (const t of page.tasks) expect(t.artifacts).toBeUndefined();
            seen.push(...page.tasks.map((t) => t.id));
            pageToken = page.nextPageToken === '' ? undefined : page.nextPageToken;
            pages++;
          } while (pageToken !== undefined);
          expect(pages).toBe(3);
          expect(seen).toEqual([...ids].reverse());
          const withArtifacts = ok(await d().listTasks({ contextId, pageSize: 1, includeArtifacts: true }));
          expect(withArtifacts.tasks[0]!.artifacts).toHaveLength(1);
          const filtered = ok(await d().listTasks({ contextId, status: 'TASK_STATE_WORKING' }));
          expect(filtered.tasks).toEqual([]);
          expect(filtered.nextPageToken).toBe('');
        });
      });
    }
  });
}
