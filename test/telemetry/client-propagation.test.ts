/**
 * The client's CLIENT spans and trace-context injection (decision 0157), against Concord's echo
 * server on real sockets over JSON-RPC, HTTP+JSON and gRPC: the `traceparent` the server receives
 * names the client's span, which sits under the caller's context (the `trace` option, else the
 * active one) and carries the operation's attributes; failures carry `error.type`; the duration
 * metric is recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { A2AClient, CardCache, type ClientBinding } from '../../src/client/index.js';
import type { Message, StreamResponse } from '../../src/protocol/index.js';
import { ATTR, METRIC } from '../../src/telemetry/index.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import { registerSdk } from './test-sdk.js';

const sdk = registerSdk({ contextManager: true });

function text(value: string): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: value }] };
}

/** What the server's authenticator saw of each A2A call (gRPC metadata is read as headers). */
const seen: { traceparent: string | undefined; baggage: string | undefined }[] = [];
let echo: EchoServer;
beforeAll(async () => {
  echo = await startEcho({
    grpc: true,
    authenticate: (request) => {
      seen.push({ traceparent: request.header('traceparent'), baggage: request.header('baggage') });
      return undefined;
    },
  });
});
afterAll(async () => {
  await echo.close();
});

const tracer = trace.getTracer('test');

describe.each<ClientBinding>(['JSONRPC', 'HTTP+JSON', 'GRPC'])('A2AClient over %s', (binding) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.connect(echo.url, {
      allowPrivateNetworks: true,
      cardCache: new CardCache(),
      prefer: { bindings: [binding], versions: ['1.0'] },
    });
  });
  afterAll(() => client.close());

  it('sends traceparent and baggage naming its CLIENT span, a child of the trace option', async () => {
    sdk.exporter.reset();
    seen.length = 0;
    const parent = tracer.startSpan('caller', {}, ROOT_CONTEXT);
    const ctx = propagation.setBaggage(
      trace.setSpan(ROOT_CONTEXT, parent),
      propagation.createBaggage({ tenant: { value: 'acme' } }),
    );
    const response = await client.sendMessage({ message: text('hello') }, { trace: ctx });
    parent.end();
    const task = 'task' in response ? response.task : undefined;
    expect(task).toBeDefined();

    const span = await sdk.span('SendMessage', SpanKind.CLIENT);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    expect(seen[0]!.baggage).toBe('tenant=acme');

    const port = Number(new URL(echo.url).port);
    expect(span.attributes).toMatchObject({
      [ATTR.method]: 'SendMessage',
      [ATTR.binding]: binding,
      [ATTR.protocolVersion]: '1.0',
      [ATTR.serverAddress]: '127.0.0.1',
      [ATTR.taskId]: task!.id,
      [ATTR.contextId]: task!.contextId,
    });
    // gRPC listens on its own port; HTTP ones on the server's.
    if (binding !== 'GRPC') expect(span.attributes[ATTR.serverPort]).toBe(port);
    else expect(typeof span.attributes[ATTR.serverPort]).toBe('number');
  });

  it('takes the active context when no trace option is given', async () => {
    sdk.exporter.reset();
    seen.length = 0;
    const parent = tracer.startSpan('active', {}, ROOT_CONTEXT);
    const response = await context.with(trace.setSpan(ROOT_CONTEXT, parent), () =>
      client.sendMessage({ message: text('hi') }),
    );
    parent.end();
    expect('task' in response).toBe(true);
    const span = await sdk.span('SendMessage', SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(seen[0]!.traceparent).toContain(span.spanContext().spanId);
  });

  it('covers a stream with one span, ended when the stream ends', async () => {
    sdk.exporter.reset();
    seen.length = 0;
    const events: StreamResponse[] = [];
    const stream = client.sendStreamingMessage({ message: text('stream me') });
    // Nothing is started before the stream is read.
    expect(await sdk.spans()).toHaveLength(0);
    for await (const event of stream) events.push(event);
    const span = await sdk.span('SendStreamingMessage', SpanKind.CLIENT);
    expect(events.length).toBeGreaterThan(0);
    expect(span.attributes[ATTR.taskId]).toEqual(expect.any(String));
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(seen[0]!.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });

  it('marks a failed call with error.type and ERROR status', async () => {
    sdk.exporter.reset();
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toThrow();
    const span = await sdk.span('GetTask', SpanKind.CLIENT);
    expect(span.attributes[ATTR.errorType]).toBe('TaskNotFoundError');
    expect(span.attributes[ATTR.taskId]).toBe('no-such-task');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('a2a.client.request.duration', () => {
  it('records each operation by method, binding and outcome, without ids', async () => {
    const points = await sdk.points(METRIC.clientDuration.name);
    const methods = new Set(points.map((p) => p.attributes[ATTR.method]));
    expect(methods).toEqual(new Set(['SendMessage', 'SendStreamingMessage', 'GetTask']));
    const failed = points.find((p) => p.attributes[ATTR.method] === 'GetTask');
    expect(failed?.attributes[ATTR.errorType]).toBe('TaskNotFoundError');
    for (const point of points) {
      expect(point.attributes[ATTR.taskId]).toBeUndefined();
      expect(point.attributes[ATTR.contextId]).toBeUndefined();
    }
    const bindings = new Set(points.map((p) => p.attributes[ATTR.binding]));
    expect(bindings).toEqual(new Set(['JSONRPC', 'HTTP+JSON', 'GRPC']));
  });
});
