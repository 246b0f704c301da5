/**
 * An in-memory OpenTelemetry SDK for the server telemetry tests: spans kept by an
 * InMemorySpanExporter, metrics read on demand, W3C trace context and baggage propagation.
 * Vitest runs each file in its own worker, so registering globally stays within one file.
 */
import { metrics, propagation, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  TracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';

class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** The registered SDK and how to read what it recorded. */
export interface TestSdk {
  exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  /** The data points of metric `name`, as collected now. */
  points(name: string): Promise<DataPoint<number | Histogram>[]>;
}

/** Registers a tracer provider, a meter provider and the W3C propagators globally. */
export function registerSdk(): TestSdk {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }),
  );
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  const reader = new OnDemandReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    exporter,
    spans: () => exporter.getFinishedSpans(),
    async points(name) {
      const { resourceMetrics } = await reader.collect();
      const found = resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .filter((metric) => metric.descriptor.name === name);
      return found.flatMap((metric) => metric.dataPoints as DataPoint<number | Histogram>[]);
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
