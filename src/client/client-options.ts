/**
 * Options of `A2AClient` (docs/decisions/0019-client.md). Everything has a safe default: the
 * SSRF guard is on, idempotent calls are retried twice, streams resume, requests time out after
 * 30 s (streams: until their first byte).
 */
import type { VerifyCardOptions } from '../card/index.js';
import type { AgentCard } from '../protocol/index.js';
import type { A2AReadWarning } from './answer-reading.js';
import type { NetworkPolicy } from './address-guard.js';
import type { Credential } from './auth.js';
import type { CardCache } from './card-cache.js';
import type { GrpcClientOptions } from './grpc-target.js';
import type { ClientInterceptor } from './interceptors.js';
import type { TransportPreference } from './interface-selection.js';
import type { ResumeOptions } from './resumable-stream.js';
import type { RetryOptions } from './retry.js';
import type { TransportInfo } from './transport.js';

/** Options shared by `A2AClient.connect` and `new A2AClient`. */
export interface A2AClientCommonOptions extends NetworkPolicy {
  /** Which interface to prefer (digest §9.4). */
  prefer?: TransportPreference;
  /** Use exactly this interface instead of choosing from the card. */
  transport?: TransportInfo;
  /** Per-request timeout in ms (default 30 000); streams: until the stream starts. */
  timeoutMs?: number;
  /** Retries of idempotent calls (getTask, listTasks, push-config reads, card fetches). */
  retry?: RetryOptions;
  /** Stream resumption after dropped connections. */
  resume?: ResumeOptions;
  /** Credentials; the ones matching the card's security requirements are presented. */
  auth?: Credential | readonly Credential[];
  /** Before/after hooks on every request. */
  interceptors?: readonly ClientInterceptor[];
  /** Extension URIs to activate on every call (`A2A-Extensions`, A2A 1.0 §3.2.6). */
  extensions?: readonly string[];
  /** Settings of gRPC interfaces (channel credentials). */
  grpc?: GrpcClientOptions;
  /**
   * How answers are read (decision 0136). `liberal` (default) keeps unknown enum values as they
   * came, skips a list item it cannot read and keeps the rest, each with a warning; `strict` makes
   * any off-spec answer a BAD_RESPONSE (what `concord check` uses to judge a server).
   */
  reading?: 'liberal' | 'strict';
  /** Receives each warning of liberal reading (what was odd, at which JSON Pointer of which answer). */
  onWarning?: (warning: A2AReadWarning) => void;
}

/** Options of `A2AClient.connect`. */
export interface A2AConnectOptions extends A2AClientCommonOptions {
  /** Card cache (default: one per process); `false` always fetches. */
  cardCache?: CardCache | false;
  /** Verify the card's signatures with these keys; unsigned or badly signed cards are refused. */
  verify?: VerifyCardOptions;
  signal?: AbortSignal;
}

/** Options of `new A2AClient`. */
export interface A2AClientOptions extends A2AClientCommonOptions {
  card: AgentCard;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** Per-stream options. */
export interface StreamOptions extends CallOptions {
  /** Overrides the client's `resume` settings for this stream. */
  resume?: ResumeOptions;
}

/** Options of `subscribeToTask`. */
export interface SubscribeOptions extends StreamOptions {
  /** Resume after this event id (`Last-Event-ID`). */
  lastEventId?: string;
}
