/**
 * registerTelemetry (decisions 0157-0158): the SDK objects `concord serve` builds become the API's
 * globals, Concord's tracer then records, W3C trace context is injected into outgoing headers, and
 * the self-check reports a provider whose spans do not record (what API version skew looks like).
 */
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { INVALID_SPAN_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import {
  contextHeaders,
  endSpan,
  registerTelemetry,
  SpanKind,
  startSpan,
  withSpan,
} from '../../src/telemetry/index.js';

describe('registerTelemetry', () => {
  it('registers the providers, the propagator and the context manager, and says spans record', () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const registered = registerTelemetry({
      tracerProvider,
      propagator: new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
      }),
      contextManager: new AsyncLocalStorageContextManager(),
    });
    try {
      expect(registered.tracesRecording).toBe(true);
      const span = startSpan('SendMessage', SpanKind.CLIENT, undefined);
      expect(span.isRecording()).toBe(true);
      const headers = contextHeaders(withSpan(undefined, span));
      expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      endSpan(span);
      // Only the span ended here is exported: the self-check's probe never ends.
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['SendMessage']);
    } finally {
      registered.unregister();
    }
  });

  it('reports a tracer provider whose spans do not record', () => {
    // What a provider built against another API major looks like through this API: no-op spans.
    const noop = {
      getTracer: () => ({
        startSpan: () => trace.wrapSpanContext(INVALID_SPAN_CONTEXT),
        startActiveSpan: () => undefined,
      }),
    };
    const registered = registerTelemetry({ tracerProvider: noop as never });
    try {
      expect(registered.tracesRecording).toBe(false);
    } finally {
      registered.unregister();
    }
  });
});
