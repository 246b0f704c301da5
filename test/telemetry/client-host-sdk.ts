/**
 * An in-memory OpenTelemetry SDK (@opentelemetry/sdk-trace 2.12: `TracerProvider`, a
 * SimpleSpanProcessor takes `{ exporter }` and exports asynchronously) for the client and host telemetry tests: spans to an
 * InMemorySpanExporter, metrics to a reader collected on demand, W3C trace context and baggage
 * propagation, and an AsyncLocalStorage context manager (for the active-context fallbacks).
 * Each vitest file runs in its own worker, so registering globally stays in the file.
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

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The registered SDK and what it recorded. */
export interface TestSdk {
  exporter: InMemorySpanExporter;
  /** The finished spans (exports are asynchronous in 2.x: flushed first). */
  spans(): Promise<ReadableSpan[]>;
  /** The one finished span named `name` (of `kind`, when given). */
  span(name: string, kind?: number): Promise<ReadableSpan>;
  /** The data points of one metric, collected now. */
  points(metric: string): Promise<DataPoint<number | Histogram>[]>;
}

/** Registers the SDK globally for this test file. */
export function registerSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const reader = new TestReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    exporter,
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
    async points(metric) {
      const { resourceMetrics } = await reader.collect();
      for (const scope of resourceMetrics.scopeMetrics)
        for (const m of scope.metrics)
          if (m.descriptor.name === metric) return m.dataPoints as DataPoint<number | Histogram>[];
      return [];
    },
  };
}
