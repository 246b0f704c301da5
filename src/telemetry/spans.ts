/**
 * Starting and ending spans through @opentelemetry/api. Without a registered SDK every call here
 * is the API's no-op (decision 0157): a span that records nothing, whose attributes are never
 * computed (callers check `isRecording()` before building any). The OpenTelemetry context is
 * passed explicitly along Concord's own call chain, so parents are right with or without a
 * context manager; a context manager, when one is registered, still sees the agent's execution as
 * the active span (`runWithin`).
 */
import {
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { A2AError } from '../protocol/index.js';
import { ATTR, INSTRUMENTATION_SCOPE } from './conventions.js';

export { SpanKind, type Context, type Span };

let cachedTracer: Tracer | undefined;

/** Concord's tracer: the API's proxy, which follows whichever provider is registered later. */
export function tracer(): Tracer {
  cachedTracer ??= trace.getTracer(INSTRUMENTATION_SCOPE);
  return cachedTracer;
}

/** What an unset global tracer provider delegates to: the API's no-op provider. */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/** The one span handed out while no tracer provider is registered: it records nothing. */
const OFF_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * True once an application registered a tracer provider. The API's global is always its proxy,
 * whose delegate is the no-op provider until then; a provider registered through another copy of
 * the API counts as on (spans are then started and merely cost what that copy's spans cost).
 */
export function tracingOn(): boolean {
  const provider = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  return typeof provider.getDelegate !== 'function' || provider.getDelegate() !== NO_PROVIDER;
}

/**
 * Starts a span under `parent` (the root when undefined, so no stray active span is adopted).
 * Without a tracer provider it returns one shared non-recording span, so an untraced request
 * allocates nothing for its spans (decision 0157, the cost with no SDK).
 */
export function startSpan(
  name: string,
  kind: SpanKind,
  parent: Context | undefined,
  attributes?: Attributes,
): Span {
  if (!tracingOn()) return OFF_SPAN;
  return tracer().startSpan(
    name,
    attributes === undefined ? { kind } : { kind, attributes },
    parent ?? ROOT_CONTEXT,
  );
}

/** The context whose active span is `span`, below `parent` (`parent` itself for the shared off span). */
export function withSpan(parent: Context | undefined, span: Span): Context {
  if (span === OFF_SPAN) return parent ?? ROOT_CONTEXT;
  return trace.setSpan(parent ?? ROOT_CONTEXT, span);
}

/** The trace id of `ctx`'s span, when it has a valid one (for log lines). */
export function traceIdOf(ctx: Context | undefined): string | undefined {
  if (ctx === undefined) return undefined;
  const spanContext = trace.getSpanContext(ctx);
  if (spanContext === undefined || !trace.isSpanContextValid(spanContext)) return undefined;
  return spanContext.traceId;
}

/** The error type a span and a metric name an error by: the A2A type, else the JS error's name. */
export function errorType(error: unknown): string {
  if (error instanceof A2AError) return error.type;
  if (error instanceof Error) return error.name === 'Error' ? 'InternalError' : error.name;
  return 'InternalError';
}

/** True for what the caller got wrong (any A2A error but InternalError). */
export function isCallerFault(error: unknown): boolean {
  return error instanceof A2AError && error.type !== 'InternalError';
}

/**
 * Ends `span` with the outcome of its work. On SERVER spans a caller's fault leaves the status
 * unset (OpenTelemetry's guidance for server spans: a 4xx is not the server's error); internal
 * failures are ERROR with the exception recorded. CLIENT and INTERNAL spans mark every failure.
 */
export function endSpan(span: Span, error?: unknown, kind: SpanKind = SpanKind.INTERNAL): void {
  if (error !== undefined && span.isRecording()) {
    span.setAttribute(ATTR.errorType, errorType(error));
    if (kind !== SpanKind.SERVER || !isCallerFault(error)) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      if (error instanceof Error) span.recordException(error);
    }
  }
  span.end();
}

/** Runs `fn` with `ctx` active for a context manager, if any (user code and libraries see it). */
export function runWithin<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

/** The active context (the root without a context manager). */
export function activeContext(): Context {
  return context.active();
}

/**
 * Runs `fn` in a child span and ends it with `fn`'s outcome, for work that is one promise (a tool
 * call). `attributes` is called only when the span records, so an untraced call builds none.
 */
export async function inSpan<T>(
  name: string,
  parent: Context | undefined,
  attributes: (() => Attributes) | undefined,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  const span = startSpan(name, kind, parent);
  if (attributes !== undefined && span.isRecording()) span.setAttributes(attributes());
  try {
    const result = await fn(span);
    span.end();
    return result;
  } catch (error) {
    endSpan(span, error, kind);
    throw error;
  }
}
