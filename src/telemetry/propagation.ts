/**
 * W3C trace context (`traceparent`, `tracestate`) and baggage across every hop (decision 0157):
 * extracted from HTTP headers and gRPC metadata as the request arrives, injected by Concord's
 * client on every binding, into push deliveries and into agent-to-agent sends. The propagators are
 * whatever the application registered with the OpenTelemetry API (`concord serve` registers
 * W3C trace context and baggage); with none registered, both directions do nothing.
 */
import { propagation, ROOT_CONTEXT, type Context, type TextMapGetter } from '@opentelemetry/api';

/** Reads a header by lower-case name (HttpRequest.header, gRPC metadata). */
export type HeaderLookup = (name: string) => string | undefined;

const LOOKUP_GETTER: TextMapGetter<HeaderLookup> = {
  get: (lookup, key) => lookup(key.toLowerCase()),
  // The W3C propagators ask for their fields by name; nothing needs to enumerate.
  keys: () => [],
};

/** The caller's trace context, read from the request's headers (the root when it sent none). */
export function extractContext(lookup: HeaderLookup): Context {
  return propagation.extract(ROOT_CONTEXT, lookup, LOOKUP_GETTER);
}

/** The trace context headers to send for `ctx` (empty when nothing is to be propagated). */
export function contextHeaders(ctx: Context | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (ctx !== undefined) propagation.inject(ctx, headers);
  return headers;
}

/** Sets the trace context headers for `ctx` on `headers` (lower-case names, as W3C spells them). */
export function injectContext(ctx: Context | undefined, headers: Record<string, string>): void {
  if (ctx !== undefined) propagation.inject(ctx, headers);
}
