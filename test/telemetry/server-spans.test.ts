/**
 * The server's spans, metrics and access entries with an SDK registered (decisions 0157-0158),
 * over real sockets: a SERVER span per operation on JSON-RPC, HTTP+JSON and gRPC in both versions,
 * under the caller's `traceparent`; a caller's error leaves the status unset; the agent's
 * `invoke_agent` span is the operation's child; a stream's span ends when its client goes away or
 * the server shuts down; the request counter is exact; `onAccess` gets one entry per request.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { listenGrpc, type RunningGrpcServer } from '../../src/server/grpc/index.js';
import {
  createA2AServer,
  type A2AServer,
  type AccessEntry,
  type AgentExecutor,
} from '../../src/server/index.js';
import { createMemoryTaskStore } from '../../src/store/index.js';
import { ATTR, METRIC, METRIC_ATTR } from '../../src/telemetry/index.js';
import { allDrivers, ok, taskOf, userText, type Driver } from '../helpers/drivers.js';
import { grpcDriver } from '../helpers/grpc-driver.js';
import { registerSdk, traceparent, until } from './test-sdk.js';
// @ts-expect-error -- plain JS example module without type declarations
import * as echo from '../../examples/echo/agent.mjs';

const sdk = registerSdk();

function named(name: string, traceId: string): ReadableSpan[] {
  return sdk.finished().filter((s) => s.name === name && s.spanContext().traceId === traceId);
}

describe('server telemetry with an SDK registered', () => {
  let a2a: A2AServer;
  let running: RunningServer;
  let grpc: RunningGrpcServer;
  const access: AccessEntry[] = [];
  const grpcAccess: AccessEntry[] = [];

  beforeAll(async () => {
    a2a = createA2AServer({
      agentCard: echo.agentCard,
      executor: echo.executor as AgentExecutor,
      store: createMemoryTaskStore(),
    });
    grpc = await listenGrpc(a2a, { shutdownGraceMs: 200, onAccess: (entry) => grpcAccess.push(entry) });
    running = await listen(a2a, { port: 0, onAccess: (entry) => access.push(entry) });
  });
  afterAll(async () => {
    await grpc.close();
    await running.close();
  });
  beforeEach(() => {
    sdk.exporter.reset();
  });

  const NAMES = ['JSON-RPC 1.0', 'HTTP+JSON 1.0', 'JSON-RPC 0.3', 'HTTP+JSON 0.3', 'gRPC 1.0', 'gRPC 0.3'];

  /** The driver `name`, sending `traceparent` with every call. */
  function driver(name: string, header: string): Driver {
    if (name.startsWith('gRPC')) {
      return grpcDriver(grpc.target, name.endsWith('1.0') ? '1.0' : '0.3', { traceparent: header });
    }
    return allDrivers(running.url, { traceparent: header }).find((d) => d.name === name)!;
  }

  it('traces each operation as a SERVER span named as A2A 1.0 names it, below the caller', async () => {
    for (const name of NAMES) {
      const parent = traceparent();
      const d = driver(name, parent.header);
      const task = taskOf(await d.send(userText('hello')));
      ok(await d.getTask(task.id));
      d.close?.();
      const expected = {
        JSONRPC: 'jsonrpc',
        'HTTP+JSON': 'http',
        GRPC: 'grpc',
      } as const;
      await until(() => named('GetTask', parent.traceId).length === 1);
      for (const name of ['SendMessage', 'GetTask']) {
        const [span] = named(name, parent.traceId);
        expect(span, `${d.name} ${name}`).toBeDefined();
        expect(span!.kind).toBe(SpanKind.SERVER);
        expect(span!.parentSpanContext?.spanId).toBe(parent.spanId);
        expect(span!.attributes[ATTR.method]).toBe(name);
        expect(span!.attributes[ATTR.protocolVersion]).toBe(d.version);
        expect(span!.attributes[ATTR.binding]).toBe(d.binding);
        expect(span!.attributes[ATTR.rpcSystem]).toBe(expected[d.binding]);
        expect(span!.attributes[ATTR.taskId]).toBe(task.id);
        expect(span!.attributes[ATTR.agentName]).toBe('Echo Agent');
        expect(span!.attributes[ATTR.taskState]).toBe('TASK_STATE_COMPLETED');
        expect(span!.status.code).toBe(SpanStatusCode.UNSET);
      }
      const [send] = named('SendMessage', parent.traceId);
      expect(send!.attributes[ATTR.contextId]).toBe(task.contextId);
      // The agent's work is the operation's child.
      const [invoke] = named('invoke_agent Echo Agent', parent.traceId);
      expect(invoke!.parentSpanContext?.spanId).toBe(send!.spanContext().spanId);
      expect(invoke!.attributes[ATTR.genAiOperation]).toBe('invoke_agent');
      expect(invoke!.attributes[ATTR.taskId]).toBe(task.id);
      // Its commits are below it.
      const commits = named('concord.store.commit', parent.traceId);
      expect(commits.length).toBeGreaterThan(0);
      for (const commit of commits)
        expect(commit.parentSpanContext?.spanId).toBe(invoke!.spanContext().spanId);
    }
  });

  it("sets error.type and leaves the status unset on a caller's error (TaskNotFound)", async () => {
    for (const name of NAMES) {
      const parent = traceparent();
      const d = driver(name, parent.header);
      const outcome = await d.getTask('no-such-task');
      expect(outcome.ok).toBe(false);
      d.close?.();
      await until(() => named('GetTask', parent.traceId).length === 1);
      const [span] = named('GetTask', parent.traceId);
      expect(span!.attributes[ATTR.errorType], name).toBe('TaskNotFoundError');
      expect(span!.status.code).toBe(SpanStatusCode.UNSET);
      expect(span!.attributes[ATTR.taskId]).toBe('no-such-task');
    }
  });

  it('names a request refused before its method is read `A2A request`', async () => {
    const parent = traceparent();
    const response = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', traceparent: parent.header },
      body: '{not json',
    });
    expect(response.status).toBe(200);
    await until(() => named('A2A request', parent.traceId).length === 1);
    const [span] = named('A2A request', parent.traceId);
    expect(span!.attributes[ATTR.errorType]).toBe('JSONParseError');
    expect(span!.attributes[ATTR.binding]).toBe('JSONRPC');
  });

  it('ends a stream span when its client goes away, with the events it carried', async () => {
    for (const name of ['JSON-RPC 1.0', 'HTTP+JSON 1.0', 'gRPC 1.0']) {
      const parent = traceparent();
      const d = driver(name, parent.header);
      const outcome = await d.stream(userText('stream 20'), { stopAfter: 2 });
      expect(outcome.items.length).toBe(2);
      await until(() => named('SendStreamingMessage', parent.traceId).length === 1);
      const [span] = named('SendStreamingMessage', parent.traceId);
      expect(span!.attributes[ATTR.streamEnd], name).toBe('disconnected');
      expect(span!.attributes[ATTR.streamEvents]).toBeGreaterThanOrEqual(2);
      const taskId = span!.attributes[ATTR.taskId] as string;
      d.close?.();
      // The task goes on without its client; cancel it so the echo agent stops.
      await a2a.handler.cancelTask({ id: taskId }, { version: '1.0', tenant: '', activatedExtensions: [] });
    }
  });

  it('ends a stream span that completes, and the open-stream gauge returns to zero', async () => {
    const parent = traceparent();
    const d = allDrivers(running.url, { traceparent: parent.header })[0]!;
    const outcome = await d.stream(userText('stream 2'));
    expect(outcome.closedByServer).toBe(true);
    await until(() => named('SendStreamingMessage', parent.traceId).length === 1);
    const [span] = named('SendStreamingMessage', parent.traceId);
    expect(span!.attributes[ATTR.streamEnd]).toBe('completed');
    expect(span!.attributes[ATTR.taskState]).toBe('TASK_STATE_COMPLETED');
    const points = await sdk.points(METRIC.activeStreams.name);
    const open = points.reduce((sum, point) => sum + (point.value as number), 0);
    expect(open).toBe(0);
  });

  it('counts requests exactly, by operation, binding, version and outcome', async () => {
    const before = await requestCount('GetTask', 'HTTP+JSON', '1.0', 'TaskNotFoundError');
    const rest = allDrivers(running.url)[1]!;
    for (let i = 0; i < 7; i++) expect((await rest.getTask(`missing-${i}`)).ok).toBe(false);
    expect(await requestCount('GetTask', 'HTTP+JSON', '1.0', 'TaskNotFoundError')).toBe(before + 7);
    const okBefore = await requestCount('SendMessage', 'JSONRPC', '0.3', 'ok');
    const rpc03 = allDrivers(running.url)[2]!;
    for (let i = 0; i < 3; i++) ok(await rpc03.send(userText('hi')));
    expect(await requestCount('SendMessage', 'JSONRPC', '0.3', 'ok')).toBe(okBefore + 3);
    const durations = await sdk.points(METRIC.requestDuration.name);
    expect(durations.length).toBeGreaterThan(0);
    const transitions = await sdk.points(METRIC.taskTransitions.name);
    expect(transitions.some((p) => p.attributes[ATTR.taskState] === 'TASK_STATE_COMPLETED')).toBe(true);
    // No ids in metric attributes (bounded cardinality).
    for (const point of durations) expect(point.attributes[ATTR.taskId]).toBeUndefined();
  });

  async function requestCount(method: string, binding: string, version: string, outcome: string) {
    const points = await sdk.points(METRIC.requests.name);
    const point = points.find(
      (p) =>
        p.attributes[ATTR.method] === method &&
        p.attributes[ATTR.binding] === binding &&
        p.attributes[ATTR.protocolVersion] === version &&
        p.attributes[METRIC_ATTR.outcome] === outcome,
    );
    return (point?.value as number | undefined) ?? 0;
  }

  it('hands onAccess one entry per request, with what the binding learnt', async () => {
    access.length = 0;
    grpcAccess.length = 0;
    const parent = traceparent();
    const [rpc] = allDrivers(running.url, { traceparent: parent.header });
    const task = taskOf(await rpc!.send(userText('hello')));
    expect((await rpc!.getTask('missing')).ok).toBe(false);
    await fetch(`${running.url}nowhere?x=1`);
    await until(() => access.length === 3);
    const [sent, missing, nowhere] = access;
    expect(sent).toMatchObject({
      method: 'POST',
      target: '/',
      status: 200,
      binding: 'JSONRPC',
      version: '1.0',
      operation: 'SendMessage',
      taskId: task.id,
      traceId: parent.traceId,
    });
    expect(sent!.durationMs).toBeGreaterThanOrEqual(0);
    expect(sent!.remoteAddress).toMatch(/127\.0\.0\.1/);
    expect(missing).toMatchObject({
      operation: 'GetTask',
      errorType: 'TaskNotFoundError',
      taskId: 'missing',
    });
    expect(nowhere).toMatchObject({ method: 'GET', target: '/nowhere', status: 404 });
    expect(nowhere!.operation).toBeUndefined();

    // A stream's entry comes when it ends.
    const rest = allDrivers(running.url)[1]!;
    await rest.stream(userText('stream 2'));
    await until(() => access.length === 4);
    expect(access[3]).toMatchObject({ operation: 'SendStreamingMessage', status: 200, binding: 'HTTP+JSON' });

    const g = grpcDriver(grpc.target, '1.0');
    expect((await g.getTask('missing')).ok).toBe(false);
    g.close?.();
    await until(() => grpcAccess.length === 1);
    expect(grpcAccess[0]).toMatchObject({
      method: 'GRPC',
      target: '/lf.a2a.v1.A2AService/GetTask',
      status: 5,
      binding: 'GRPC',
      operation: 'GetTask',
      errorType: 'TaskNotFoundError',
    });
  });
});

describe('shutdown', () => {
  it('ends open SSE streams; their spans record the shutdown and the gauge returns to zero', async () => {
    const a2a = createA2AServer({
      agentCard: echo.agentCard,
      executor: echo.executor as AgentExecutor,
      store: createMemoryTaskStore(),
    });
    const running = await listen(a2a, { port: 0, shutdownGraceMs: 500 });
    const parent = traceparent();
    const d = allDrivers(running.url, { traceparent: parent.header })[0]!;
    const streaming = d.stream(userText('wait'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await running.close();
    const outcome = await streaming;
    expect(outcome.closedByServer).toBe(true);
    await until(() => named('SendStreamingMessage', parent.traceId).length === 1);
    const [span] = named('SendStreamingMessage', parent.traceId);
    expect(span!.attributes[ATTR.streamEnd]).toBe('shutdown');
    const points = await sdk.points(METRIC.activeStreams.name);
    expect(points.reduce((sum, point) => sum + (point.value as number), 0)).toBe(0);
  });
});
