/**
 * Registering an SDK with the OpenTelemetry API globally, for an application that owns its process
 * (`concord serve --otlp`, `--metrics`; decision 0157). Only this layer imports the API, so the
 * CLI hands its SDK objects here. The API keeps one global of each kind per major version: an SDK
 * built against another API version registers without complaint and every span stays a no-op, so
 * `registerTelemetry` checks that a span it starts records and says so when it does not.
 */
import {
  context,
  diag,
  metrics,
  propagation,
  trace,
  type ContextManager,
  type MeterProvider,
  type TextMapPropagator,
  type TracerProvider,
} from '@opentelemetry/api';
import { INSTRUMENTATION_SCOPE, SPAN } from './conventions.js';

/** What an application registers; any member may be left out. */
export interface TelemetryRegistration {
  tracerProvider?: TracerProvider | undefined;
  meterProvider?: MeterProvider | undefined;
  propagator?: TextMapPropagator | undefined;
  contextManager?: ContextManager | undefined;
}

/** The outcome of `registerTelemetry`. */
export interface RegisteredTelemetry {
  /**
   * False when a tracer provider was given but a span started through the API does not record:
   * the API did not take the provider (another version of @opentelemetry/api, or a global
   * registered earlier), so no span will be exported.
   */
  readonly tracesRecording: boolean;
  /** Withdraws every global this call set (for tests and a clean stop). */
  unregister(): void;
}

/** Sets the given providers, propagator and context manager as the API's globals. */
export function registerTelemetry(registration: TelemetryRegistration): RegisteredTelemetry {
  const { tracerProvider, meterProvider, propagator, contextManager } = registration;
  if (contextManager !== undefined) {
    contextManager.enable();
    context.setGlobalContextManager(contextManager);
  }
  if (propagator !== undefined) propagation.setGlobalPropagator(propagator);
  if (meterProvider !== undefined) metrics.setGlobalMeterProvider(meterProvider);
  let tracesRecording = true;
  if (tracerProvider !== undefined) {
    trace.setGlobalTracerProvider(tracerProvider);
    // The API's no-op tracer answers with the invalid span context; an SDK's span has real ids
    // even when its sampler drops it, so the check holds under any sampler. The probe is never
    // ended, so no processor exports it.
    const probe = trace.getTracer(INSTRUMENTATION_SCOPE).startSpan(SPAN.selfCheck);
    tracesRecording = trace.isSpanContextValid(probe.spanContext());
  }
  return {
    tracesRecording,
    unregister() {
      if (tracerProvider !== undefined) trace.disable();
      if (meterProvider !== undefined) metrics.disable();
      if (propagator !== undefined) propagation.disable();
      if (contextManager !== undefined) context.disable();
      diag.disable();
    },
  };
}
