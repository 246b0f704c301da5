/**
 * The test OTLP receiver (test/helpers/otlp-receiver.ts) against the real exporter: spans made by
 * the OpenTelemetry SDK and sent by `@opentelemetry/exporter-trace-otlp-http` (OTLP/JSON) over a
 * real socket come back with their ids, parent links, kinds, attributes, status and resource
 * exactly; the same spans as OTLP/protobuf (the transformer's own serializer) decode the same.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import {
  decodeTraceJson,
  idToHex,
  KIND,
  startOtlpReceiver,
  type OtlpReceiver,
} from '../helpers/otlp-receiver.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

/** A SERVER span with a CLIENT child and an INTERNAL grandchild, exported as they end. */
async function makeSpans(provider: TracerProvider): Promise<void> {
  const tracer = provider.getTracer('otlp-receiver-test');
  const server = tracer.startSpan('SendMessage', {
    kind: SpanKind.SERVER,
    attributes: { 'a2a.method.name': 'SendMessage', 'a2a.protocol.binding': 'JSONRPC', 'concord.n': 3 },
  });
  const client = tracer.startSpan(
    'SendMessage',
    { kind: SpanKind.CLIENT, attributes: { 'concord.flag': true, 'concord.list': ['a', 'b'] } },
    trace.setSpan(ROOT_CONTEXT, server),
  );
  const inner = tracer.startSpan('invoke_agent researcher', {}, trace.setSpan(ROOT_CONTEXT, client));
  inner.setStatus({ code: SpanStatusCode.ERROR, message: 'refused' });
  inner.end();
  client.end();
  server.end();
  await provider.forceFlush();
}

describe('the test OTLP receiver', () => {
  it('decodes what the OTLP/HTTP exporter sends: ids, parents, kinds, attributes, status, resource', async () => {
    receiver.clear();
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'receiver-test' }),
      spanProcessors: [
        new SimpleSpanProcessor({ exporter: memory }),
        new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }) }),
      ],
    });
    await makeSpans(provider);
    const sent = memory.getFinishedSpans();
    const spans = await receiver.waitFor((s) => s.length === 3);
    await provider.shutdown();

    expect(
      receiver.requests.every((r) => r.path === '/v1/traces' && r.contentType === 'application/json'),
    ).toBe(true);
    const byName = (kind: number) => spans.find((s) => s.kind === kind)!;
    const [server, client, inner] = [byName(KIND.server), byName(KIND.client), byName(KIND.internal)];
    const original = (name: string, kind: SpanKind): ReadableSpan =>
      sent.find((s) => s.name === name && s.kind === kind)!;
    const sServer = original('SendMessage', SpanKind.SERVER);
    const sClient = original('SendMessage', SpanKind.CLIENT);
    const sInner = original('invoke_agent researcher', SpanKind.INTERNAL);

    expect(server).toMatchObject({
      traceId: sServer.spanContext().traceId,
      spanId: sServer.spanContext().spanId,
      parentSpanId: '',
      name: 'SendMessage',
      attributes: { 'a2a.method.name': 'SendMessage', 'a2a.protocol.binding': 'JSONRPC', 'concord.n': 3 },
      serviceName: 'receiver-test',
      scope: 'otlp-receiver-test',
    });
    expect(client).toMatchObject({
      traceId: sServer.spanContext().traceId,
      spanId: sClient.spanContext().spanId,
      parentSpanId: sServer.spanContext().spanId,
      attributes: { 'concord.flag': true, 'concord.list': ['a', 'b'] },
    });
    expect(inner).toMatchObject({
      traceId: sServer.spanContext().traceId,
      spanId: sInner.spanContext().spanId,
      parentSpanId: sClient.spanContext().spanId,
      name: 'invoke_agent researcher',
      status: { code: 2, message: 'refused' },
    });
    expect(server.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(server.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('decodes the same spans sent as OTLP/protobuf, gzip-compressed or not', async () => {
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'receiver-proto' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
    });
    await makeSpans(provider);
    const body = ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!;
    for (const gzip of [false, true]) {
      receiver.clear();
      const response = await fetch(`${receiver.url}/v1/traces`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-protobuf',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body: gzip ? gzipSync(body) : Buffer.from(body),
      });
      expect(response.status).toBe(200);
      const spans = await receiver.waitFor((s) => s.length === 3);
      for (const sent of memory.getFinishedSpans()) {
        const got = spans.find((s) => s.spanId === sent.spanContext().spanId)!;
        expect(got).toMatchObject({
          traceId: sent.spanContext().traceId,
          parentSpanId: sent.parentSpanContext?.spanId ?? '',
          name: sent.name,
          kind: sent.kind + 1,
          serviceName: 'receiver-proto',
        });
      }
      expect(spans.find((s) => s.kind === KIND.server)!.attributes).toEqual({
        'a2a.method.name': 'SendMessage',
        'a2a.protocol.binding': 'JSONRPC',
        'concord.n': 3,
      });
      expect(spans.find((s) => s.kind === KIND.internal)!.status).toEqual({ code: 2, message: 'refused' });
    }
    await provider.shutdown();
  });

  it('reads base64 ids (proto3 JSON) as well as hex, answers {} and refuses other paths and types', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const spanId = 'b7ad6b7169203331';
    const b64 = (h: string) => Buffer.from(h, 'hex').toString('base64');
    expect(idToHex(b64(traceId), 16)).toBe(traceId);
    expect(idToHex(spanId.toUpperCase(), 8)).toBe(spanId);
    const [span] = decodeTraceJson({
      resourceSpans: [
        {
          scopeSpans: [{ spans: [{ traceId: b64(traceId), spanId: b64(spanId), name: 'x', kind: 3 }] }],
        },
      ],
    });
    expect(span).toMatchObject({ traceId, spanId, parentSpanId: '', kind: 3 });

    const ok = await fetch(`${receiver.url}/v1/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'a2a.server.requests' }] }] }],
      }),
    });
    expect([ok.status, await ok.text()]).toEqual([200, '{}']);
    expect(receiver.metricNames).toContain('a2a.server.requests');
    expect((await fetch(`${receiver.url}/v1/logs`, { method: 'POST', body: '{}' })).status).toBe(404);
    const text = await fetch(`${receiver.url}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(text.status).toBe(415);
  });
});
