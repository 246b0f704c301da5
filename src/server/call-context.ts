/**
 * What the transport knows about a call, handed to the transport-neutral handler. Identity lives
 * at the transport layer, never in the A2A payload (A2A 1.0 §7.3).
 */
import type { ProtocolVersion } from '../protocol/index.js';
import type { Context } from '../telemetry/index.js';

/** An authenticated caller. */
export interface CallerIdentity {
  /** Stable principal name; tasks are owned by it (A2A 1.0 §13.1). */
  name: string;
  scopes?: string[];
}

/** Per-call facts from the binding. */
export interface CallContext {
  /** The negotiated protocol version (A2A 1.0 §3.6). */
  version: ProtocolVersion;
  /** The binding the call came in on, when a binding made the call (error paths name its fields). */
  binding?: 'JSONRPC' | 'HTTP+JSON' | 'GRPC' | undefined;
  /** Tenant from the REST path prefix or the request body (A2A 1.0 §4.4.6 `tenant`); `''` for none. */
  tenant: string;
  /** The caller, when an authenticator accepted credentials. */
  user?: CallerIdentity | undefined;
  /** Extension URIs the client requested and the agent supports (A2A 1.0 §3.2.6). */
  activatedExtensions: string[];
  /** Aborted when the client goes away. */
  signal?: AbortSignal | undefined;
  /** The peer's IP address when the transport knows it (per-client limits key on it). */
  readonly remoteAddress?: string | undefined;
  /**
   * The `Idempotency-Key` the client sent with the call (HTTP header, gRPC metadata), if any;
   * without it, a send's messageId is its idempotency key (decision 0091).
   */
  readonly idempotencyKey?: string | undefined;
  /**
   * The OpenTelemetry context of the call: the operation's SERVER span, under the caller's trace
   * context (`traceparent`) when it sent one (decision 0157). Work the call causes (the agent's
   * execution, store commits, sends to other agents) is traced below it.
   */
  trace?: Context | undefined;
}
