/**
 * The shapes shared by every transport (HTTP in transport.ts, gRPC in grpc-binding.ts): which
 * interface a client talks to, and what a streamed event and a stream's control carry.
 */
import type { ProtocolVersion, StreamResponse } from '../../protocol/index.js';
import type { CallControl } from '../http/client-http.js';

/** The bindings this client speaks (A2A 1.0 §9-§11: all three standard ones). */
export type ClientBinding = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';

/** The interface a client talks to. */
export interface TransportInfo {
  url: string;
  protocolBinding: ClientBinding;
  protocolVersion: ProtocolVersion;
  /** Copied into every 1.0 request when set. */
  tenant?: string;
}

/** One SSE event: its id (for `Last-Event-ID`) and the canonical item. */
export interface StreamedEvent {
  id?: string;
  event: StreamResponse;
}

/** Per-stream control: `lastEventId` resumes after that event (A2A 1.0 §3.1.6). */
export interface StreamControl extends CallControl {
  lastEventId?: string;
  /** Nothing received for this long (ms) drops the stream (HTTP; decision 0137); 0 turns it off. */
  idleTimeoutMs?: number;
}
