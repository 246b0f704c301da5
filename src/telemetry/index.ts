/**
 * Telemetry (decision 0157): Concord's spans, metrics and trace-context propagation through the
 * OpenTelemetry API only. The API is a no-op until an application registers an SDK (`concord
 * serve --otlp`, `--metrics`), so a library user who wants none pays almost nothing.
 */
export {
  ATTR,
  DURATION_BUCKETS,
  IN_PROCESS_BINDING,
  INSTRUMENTATION_SCOPE,
  METRIC,
  METRIC_ATTR,
  SPAN,
} from './conventions.js';
export {
  activeContext,
  endSpan,
  errorType,
  inSpan,
  isCallerFault,
  runWithin,
  SpanKind,
  startSpan,
  traceIdOf,
  tracer,
  tracingOn,
  withSpan,
  type Context,
  type Span,
} from './spans.js';
export { contextHeaders, extractContext, injectContext, type HeaderLookup } from './propagation.js';
export { instruments, metricsOn, type Attributes, type Instruments } from './instruments.js';
export { registerTelemetry, type RegisteredTelemetry, type TelemetryRegistration } from './registration.js';
