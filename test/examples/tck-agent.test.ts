/**
 * examples/tck, the conformance kits' system under test, over real sockets on JSON-RPC, HTTP+JSON
 * and gRPC: the behaviours the a2a-tck 1.0 kit picks by messageId prefix, and the open
 * (input-required) tasks the 0.3 kit's follow-ups, cancels and history reads need.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, Part, StreamResponse, Task } from '../../src/protocol/index.js';
import { createA2AServer } from '../../src/server/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
import { jsonRpcDriver, ok, restDriver, taskOf, type Driver } from '../helpers/drivers.js';
import { grpcDriver } from '../helpers/grpc-driver.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as tck from '../../examples/tck/agent.mjs';

// The agent reads its waits on every message; short ones keep this file fast.
process.env.TCK_DELAY_MS = '300';
process.env.TCK_RESUBSCRIBE_MS = '300';

let running: RunningServer;
let grpc: RunningGrpcServer;

beforeAll(async () => {
  const server = createA2AServer({
    agentCard: tck.agentCard,
    executor: tck.executor,
    store: createMemoryTaskStore(),
  });
  grpc = await listenGrpc(server, { shutdownGraceMs: 200 });
  running = await listen(server, { port: 0 });
});
afterAll(async () => {
  await grpc.close();
  await running.close();
});

/** A kit-style id: the prefix, a session suffix and the transport, as the 1.0 kit builds them. */
const kitId = (prefix: string, driver: Driver): string =>
  `${prefix}-${crypto.randomUUID().slice(0, 8)}-${driver.binding.toLowerCase()}`;

const userMessage = (messageId: string, extra: Partial<Message> = {}): Message => ({
  messageId,
  role: 'ROLE_USER',
  parts: [{ text: 'TCK' }],
  ...extra,
});

const statusText = (task: Task): string | undefined => task.status.message?.parts[0]?.text;

async function eachDriver(version: '1.0' | '0.3', check: (driver: Driver) => Promise<void>): Promise<void> {
  const drivers = [
    jsonRpcDriver(running.url, version),
    restDriver(running.url, version),
    grpcDriver(grpc.target, version),
  ];
  for (const driver of drivers) {
    try {
      await check(driver);
    } finally {
      driver.close?.();
    }
  }
}

describe('the 1.0 kit: behaviour by messageId prefix', () => {
  it('tck-input-required stops at input-required; a tck-complete-task follow-up completes it', async () => {
    await eachDriver('1.0', async (driver) => {
      const first = taskOf(await driver.send(userMessage(kitId('tck-input-required', driver))));
      expect(first.status.state, driver.name).toBe('TASK_STATE_INPUT_REQUIRED');
      const next = taskOf(
        await driver.send(userMessage(kitId('tck-complete-task', driver), { taskId: first.id })),
      );
      expect(next.id).toBe(first.id);
      expect(next.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(statusText(next)).toBe('Hello from TCK');
    });
  });

  it('tck-auth-required stops at auth-required, and GetTask says so', async () => {
    await eachDriver('1.0', async (driver) => {
      const task = taskOf(await driver.send(userMessage(kitId('tck-auth-required', driver))));
      expect(task.status.state, driver.name).toBe('TASK_STATE_AUTH_REQUIRED');
      expect(ok(await driver.getTask(task.id)).status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    });
  });

  it('tck-delayed-complete answers returnImmediately before it ends, and a blocking send at the end', async () => {
    await eachDriver('1.0', async (driver) => {
      const early = taskOf(
        await driver.send(userMessage(kitId('tck-delayed-complete', driver)), { returnImmediately: true }),
      );
      expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'], driver.name).toContain(early.status.state);
      const blocking = taskOf(await driver.send(userMessage(kitId('tck-delayed-complete', driver))));
      expect(blocking.status.state, driver.name).toBe('TASK_STATE_COMPLETED');
      expect(statusText(blocking)).toBe('Done after delay');
      expect(ok(await driver.getTask(early.id)).status.state).toBe('TASK_STATE_COMPLETED');
    });
  });

  it('tck-message-response answers with a Message, no task', async () => {
    await eachDriver('1.0', async (driver) => {
      const answer = ok(await driver.send(userMessage(kitId('tck-message-response', driver))));
      expect('message' in answer, driver.name).toBe(true);
      if ('message' in answer) {
        expect(answer.message.role).toBe('ROLE_AGENT');
        expect(answer.message.parts).toEqual([{ text: 'Direct message response' }]);
      }
    });
  });

  it('the artifact, reject, stream and unhandled prefixes produce what the kit reads', async () => {
    const file: Part = { raw: 'dGNr', mediaType: 'text/plain', filename: 'output.txt' };
    const cases: [string, string, Part | undefined, string | undefined][] = [
      ['tck-artifact-text', 'TASK_STATE_COMPLETED', { text: 'Generated text content' }, undefined],
      [
        'tck-artifact-file-url',
        'TASK_STATE_COMPLETED',
        { url: 'https://example.com/output.txt', mediaType: 'text/plain', filename: 'output.txt' },
        undefined,
      ],
      ['tck-artifact-file', 'TASK_STATE_COMPLETED', file, undefined],
      ['tck-artifact-data', 'TASK_STATE_COMPLETED', { data: { key: 'value', count: 42 } }, undefined],
      ['tck-stream-001', 'TASK_STATE_COMPLETED', { text: 'Stream hello from TCK' }, undefined],
      ['tck-stream-002', 'TASK_STATE_COMPLETED', undefined, undefined],
      ['tck-stream-003', 'TASK_STATE_COMPLETED', { text: 'Stream task lifecycle' }, undefined],
      ['tck-stream-ordering-001', 'TASK_STATE_COMPLETED', { text: 'Ordered output' }, undefined],
      ['tck-stream-artifact-text', 'TASK_STATE_COMPLETED', { text: 'Streamed text content' }, undefined],
      ['tck-stream-artifact-file', 'TASK_STATE_COMPLETED', file, undefined],
      ['tck-reject-task', 'TASK_STATE_REJECTED', undefined, 'rejected'],
      ['tck-transport-test-001', 'TASK_STATE_COMPLETED', undefined, 'Unhandled messageId prefix: '],
    ];
    await eachDriver('1.0', async (driver) => {
      for (const [prefix, state, part, text] of cases) {
        const messageId = kitId(prefix, driver);
        const task = taskOf(await driver.send(userMessage(messageId)));
        const where = `${driver.name} ${prefix}`;
        expect(task.status.state, where).toBe(state);
        if (part === undefined) expect(task.artifacts, where).toBeUndefined();
        else expect(task.artifacts?.[0]?.parts, where).toEqual([JSON.parse(JSON.stringify(part))]);
        if (text !== undefined) {
          expect(statusText(task), where).toBe(text.endsWith(': ') ? `${text}${messageId}` : text);
        }
      }
    });
  });

  it('tck-stream-artifact-chunked streams two chunks of one artifact, then completes', async () => {
    await eachDriver('1.0', async (driver) => {
      const outcome = await driver.stream(userMessage(kitId('tck-stream-artifact-chunked', driver)));
      expect(outcome.error, driver.name).toBeUndefined();
      expect(outcome.closedByServer).toBe(true);
      const events: StreamResponse[] = outcome.items.map((item) => item.event);
      expect(Object.keys(events[0]!), driver.name).toEqual(['task']);
      const chunks = events.flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate] : []));
      expect(chunks.map((c) => c.artifact.parts)).toEqual([[{ text: 'chunk-1 ' }], [{ text: 'chunk-2' }]]);
      expect(chunks[1]!.artifact.artifactId).toBe(chunks[0]!.artifact.artifactId);
      // false is the wire's default, so either spelling of it may arrive.
      expect([chunks[0]!.append ?? false, chunks[0]!.lastChunk ?? false]).toEqual([false, false]);
      expect([chunks[1]!.append, chunks[1]!.lastChunk]).toEqual([true, true]);
      const states = events.flatMap((e) => ('statusUpdate' in e ? [e.statusUpdate.status.state] : []));
      expect(states).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    });
  });
});

describe('the 0.3 kit: ordinary messages keep the task open', () => {
  it('answers input-required, takes follow-ups, limits history and cancels', async () => {
    await eachDriver('0.3', async (driver) => {
      const first = taskOf(await driver.send(userMessage(`text-message-id-${crypto.randomUUID()}`)));
      expect(first.status.state, driver.name).toBe('TASK_STATE_INPUT_REQUIRED');
      for (let i = 0; i < 3; i++) {
        const next = taskOf(
          await driver.send(userMessage(`continuation-${crypto.randomUUID()}`, { taskId: first.id })),
        );
        expect([next.id, next.status.state], driver.name).toEqual([first.id, 'TASK_STATE_INPUT_REQUIRED']);
      }
      const limited = ok(await driver.getTask(first.id, 2));
      expect(limited.history?.length ?? 0, driver.name).toBeLessThanOrEqual(2);
      const canceled = ok(await driver.cancelTask(first.id));
      expect(canceled.status.state, driver.name).toBe('TASK_STATE_CANCELED');
    });
  });

  it('test-resubscribe-message-id works long enough to resubscribe, then completes', async () => {
    await eachDriver('0.3', async (driver) => {
      const opened = await driver.stream(userMessage(`test-resubscribe-message-id-${crypto.randomUUID()}`), {
        stopAfter: 1,
      });
      const first = opened.items[0]!.event;
      const taskId = 'task' in first ? first.task.id : undefined;
      expect(taskId, driver.name).toBeDefined();
      const resubscribed = await driver.subscribe(taskId!);
      expect(resubscribed.error, driver.name).toBeUndefined();
      expect(resubscribed.items.length, driver.name).toBeGreaterThan(0);
      const last = resubscribed.items.at(-1)!.event;
      expect('statusUpdate' in last && last.statusUpdate.status.state, driver.name).toBe(
        'TASK_STATE_COMPLETED',
      );
    });
  });
});
