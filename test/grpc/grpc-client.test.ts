/**
 * The client's gRPC transport beyond the operations (test/client/operations.test.ts runs those
 * over gRPC too): a stream that survives the server going away resumes through SubscribeToTask,
 * the network guard applies to gRPC targets, timeouts and aborts cancel the call, credentials and
 * interceptors reach the server as metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A2AClient,
  A2ALocalError,
  bearer,
  CardCache,
  headersInterceptor,
  type CallOutcome,
} from '../../src/client/index.js';
import type { Message, StreamResponse } from '../../src/protocol/index.js';
import { listenGrpc } from '../../src/server/grpc/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echoAgent from '../../examples/echo/agent.mjs';

function text(value: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: value }] };
}

const grpc10 = { bindings: ['GRPC'] as const, versions: ['1.0'] as const };

describe('the gRPC client transport', () => {
  let echo: EchoServer;
  beforeAll(async () => {
    echo = await startEcho({ grpc: true });
  });
  afterAll(async () => {
    await echo.close();
  });

  it('is chosen from the card like the others, and refuses private targets unless allowed', async () => {
    const guarded = await A2AClient.connect(echo.url, {
      allowedHosts: ['127.0.0.1'],
      cardCache: new CardCache(),
      prefer: grpc10,
    });
    expect(guarded.transport).toEqual({
      url: echo.grpc!.target,
      protocolBinding: 'GRPC',
      protocolVersion: '1.0',
    });
    guarded.close();
    const card = (
      await A2AClient.connect(echo.url, { allowPrivateNetworks: true, cardCache: new CardCache() })
    ).card;
    const strict = new A2AClient({ card, prefer: grpc10 });
    const error = await strict.getTask({ id: 'x' }).catch((e: unknown) => e);
    strict.close();
    expect(error).toBeInstanceOf(A2ALocalError);
    expect((error as A2ALocalError).kind).toBe('SSRF_BLOCKED');
  });

  it('times out and aborts: the call is cancelled, the error says which', async () => {
    const client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: grpc10,
    });
    const timedOut = await client
      .sendMessage({ message: text('wait') }, { timeoutMs: 200 })
      .catch((e: unknown) => e);
    expect((timedOut as A2ALocalError).kind).toBe('TIMEOUT');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await client
      .sendMessage({ message: text('wait') }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((aborted as A2ALocalError).kind).toBe('ABORTED');
    const working = await client.listTasks({ status: 'TASK_STATE_WORKING' });
    for (const task of working.tasks) await client.cancelTask({ id: task.id });
    client.close();
  });

  it('resumes a stream after the gRPC listener restarts, through SubscribeToTask, missing nothing', async () => {
    const client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: grpc10,
      resume: { baseDelayMs: 50, maxAttempts: 20 },
    });
    const port = echo.grpc!.port;
    const events: StreamResponse[] = [];
    let restarted: Promise<unknown> | undefined;
    for await (const event of client.sendStreamingMessage({ message: text('stream 30') })) {
      events.push(event);
      if (events.length === 3) {
        // Cut every call, then serve again on the same port.
        restarted = echo.grpc!.close().then(() => listenGrpc(echo.a2a, { port }));
      }
    }
    const again = (await restarted) as Awaited<ReturnType<typeof listenGrpc>>;
    client.close();
    await again.close();
    const last = events.at(-1)!;
    const state =
      'statusUpdate' in last ? last.statusUpdate.status.state : 'task' in last ? last.task.status.state : '';
    expect(state).toBe('TASK_STATE_COMPLETED');
    // After the re-attachment the snapshot holds the chunks produced meanwhile (decision 0070).
    const snapshots = events.filter(
      (e): e is { task: NonNullable<Extract<StreamResponse, { task: unknown }>['task']> } => 'task' in e,
    );
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    const resumedAt = events.indexOf(snapshots.at(-1)!);
    const texts = [
      ...(snapshots.at(-1)!.task.artifacts?.[0]?.parts.map((p) => p.text) ?? []),
      ...events
        .slice(resumedAt + 1)
        .flatMap((e) => ('artifactUpdate' in e ? [e.artifactUpdate.artifact.parts[0]!.text] : [])),
    ];
    expect(texts).toEqual(Array.from({ length: 30 }, (_, i) => `chunk ${i + 1} of 30\n`));
  });
});

describe('credentials and interceptors over gRPC', () => {
  it('presents the selected credentials and interceptor headers as metadata', async () => {
    const seen: (string | undefined)[] = [];
    const echo = await startEcho({
      grpc: true,
      agentCard: {
        ...(echoAgent as { agentCard: object }).agentCard,
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      } as never,
      authenticate: (request) => {
        seen.push(request.header('x-trace'));
        return request.header('authorization') === 'Bearer s3cret' ? { name: 'alice' } : undefined;
      },
    });
    const outcomes: CallOutcome[] = [];
    const client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: grpc10,
      auth: bearer('s3cret'),
      interceptors: [headersInterceptor({ 'x-trace': 't-1' }), { after: (_c, o) => void outcomes.push(o) }],
    });
    const response = await client.sendMessage({ message: text('hi') });
    expect('task' in response && response.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(seen.at(-1)).toBe('t-1');
    expect(outcomes.at(-1)).toMatchObject({ grpcStatus: 0 });
    const anonymous = new A2AClient({ card: client.card, prefer: grpc10, allowPrivateNetworks: true });
    const refused = await anonymous.sendMessage({ message: text('hi') }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ type: 'UnauthenticatedError', grpcStatus: 16 });
    anonymous.close();
    client.close();
    await echo.close();
  });
});
