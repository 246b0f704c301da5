/**
 * An in-memory OpenTelemetry SDK for the telemetry tests (@opentelemetry/sdk-trace 2.12:
 * `TracerProvider`; a SimpleSpanProcessor takes `{ exporter }` and exports asynchronously): spans
 * to an InMemorySpanExporter, metrics to a reader collected on demand, W3C trace context and
 * baggage propagation, and, when asked for, an AsyncLocalStorage context manager (for the
 * active-context fallbacks; the server tests leave it out, to show parents are right without one).
 * Vitest runs each file in its own worker, so registering globally stays within one file.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';

class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** The registered SDK and how to read what it recorded. */
export interface TestSdk {
  exporter: InMemorySpanExporter;
  /** The spans exported so far, without waiting (for polling predicates). */
  finished(): ReadableSpan[];
  /** The finished spans, after flushing the processor's pending exports. */
  spans(): Promise<ReadableSpan[]>;
  /** The one finished span named `name` (of `kind`, when given). */
  span(name: string, kind?: number): Promise<ReadableSpan>;
  /** The data points of metric `name`, as collected now. */
  points(name: string): Promise<DataPoint<number | Histogram>[]>;
}

/** Registers a tracer provider, a meter provider and the W3C propagators globally. */
export function registerSdk(options: { contextManager?: boolean } = {}): TestSdk {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  if (options.contextManager === true) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  const reader = new OnDemandReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    exporter,
    finished: () => exporter.getFinishedSpans(),
    async spans() {
      await provider.forceFlush();
      return exporter.getFinishedSpans();
    },
    async span(name, kind) {
      await provider.forceFlush();
      const found = exporter
        .getFinishedSpans()
        .filter((s) => s.name === name && (kind === undefined || s.kind === kind));
      if (found.length !== 1) {
        const all = exporter.getFinishedSpans().map((s) => `${s.name}/${s.kind}`);
        throw new Error(`expected one span ${name} (kind ${kind}), found ${found.length}: ${all.join(', ')}`);
      }
      return found[0]!;
    },
    async points(name) {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .filter((metric) => metric.descriptor.name === name)
        .flatMap((metric) => metric.dataPoints as DataPoint<number | Histogram>[]);
    },
  };
}

/** A fresh W3C `traceparent` (sampled) and its trace and span ids. */
export function traceparent(): { header: string; traceId: string; spanId: string } {
  const hex = (bytes: number): string =>
    Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join(
      '',
    );
  const traceId = hex(16);
  const spanId = hex(8);
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

/** Resolves once `check` holds (polling), or throws after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
