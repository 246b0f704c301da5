/**
 * Options of `A2AClient` (docs/decisions/0019-client.md, 0137). Everything has a safe default: the
 * SSRF guard is on, idempotent calls and sends (with their Idempotency-Key) are retried twice,
 * streams resume, also after 60 s of silence, requests time out after 30 s (streams: until their
 * first byte).
 */
import type { VerifyCardOptions } from '../card/index.js';
import type { AgentCard } from '../protocol/index.js';
import type { A2AReadWarning } from './transports/answer-reading.js';
import type { NetworkPolicy } from './http/address-guard.js';
import type { Credential } from './auth/auth.js';
import type { CardCache } from './card/card-cache.js';
import type { GrpcClientOptions } from './transports/grpc-target.js';
import type { AuthServerExchange, ClientInterceptor } from './auth/interceptors.js';
import type { TransportPreference } from './card/interface-selection.js';
import type { ResumeOptions } from './transports/resumable-stream.js';
import type { RetryOptions } from './http/retry.js';
import type { TransportInfo } from './transports/transport.js';
import type { Context } from '../telemetry/index.js';

/** Options shared by `A2AClient.connect` and `new A2AClient`. */
export interface A2AClientCommonOptions extends NetworkPolicy {
  /** Which interface to prefer (A2A 1.0 §8.3.2). */
  prefer?: TransportPreference;
  /** Use exactly this interface instead of choosing from the card. */
  transport?: TransportInfo;
  /** Per-request timeout in ms (default 30 000); streams: until the stream starts. */
  timeoutMs?: number | undefined;
  /**
   * Retries of idempotent calls (getTask, listTasks, push-config reads, card fetches) and of sends,
   * which carry an Idempotency-Key (decision 0137).
   */
  retry?: RetryOptions;
  /** Stream resumption after dropped connections. */
  resume?: ResumeOptions;
  /**
   * A stream that receives nothing (no event, no heartbeat) for this long in ms is treated as
   * dropped and resumed (default 60 000, four of Concord's heartbeats; 0 turns it off). HTTP only.
   */
  streamIdleTimeoutMs?: number;
  /**
   * Largest answer the client reads into memory, in bytes (default 16 MiB): a unary HTTP body (a
   * task, a list page, a card) or one gRPC message. A longer answer fails with a BAD_RESPONSE
   * A2ALocalError naming the limit; the bound guards against a server that sends without end, so
   * raise it for agents whose tasks carry large artifacts (a GetTask answer holds them all).
   * Events of an HTTP stream are read as they arrive and are not bounded by it.
   */
  maxResponseBytes?: number;
  /**
   * Do not verify agents' TLS certificates (HTTPS, and gRPC over TLS without `grpc.credentials`):
   * anyone on the path can then read and change the traffic, credentials included. For
   * development against self-signed certificates only; off by default, and never turned on by
   * anything else (`concord --insecure` sets it for one command; decision 0169).
   */
  insecureTls?: boolean;
  /**
   * A client certificate and its private key (PEM) for agents that ask for mutual TLS (A2A 1.0's
   * `mutualTlsSecurityScheme`): presented on HTTPS and on gRPC over TLS without `grpc.credentials`.
   */
  clientCertificate?: { cert: string; key: string } | undefined;
  /**
   * Root certificates (PEM; a text may hold several) trusted besides node's default ones, for
   * agents and authorization servers whose certificates chain to a private CA: HTTPS (the card
   * fetch, the calls, token endpoints) and gRPC over TLS without `grpc.credentials`. They are
   * added to the defaults (the bundled store and `NODE_EXTRA_CA_CERTS`), never in place of them,
   * and only for this client; verification stays on. A text with no certificate, or one that
   * does not parse, is a TypeError when the client is made (`concord --ca-cert <file>`).
   */
  trustedCertificates?: string | readonly string[] | undefined;
  /**
   * Sees each request made to an OAuth 2.0 authorization server for a credential (token and
   * device authorization endpoints, metadata documents) and its answer, which pass no
   * interceptor. The exchange carries the secrets as they went and came: redact before writing
   * it anywhere (`concord --debug` does).
   */
  onAuthServerExchange?: ((exchange: AuthServerExchange) => void) | undefined;
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
  /**
   * Verify the card's signatures under these trust anchors (decision 0166); a card none of whose
   * signatures verifies under one is refused. `resolvedCard.verification.anchor` names the anchor.
   */
  verify?: VerifyCardOptions;
  signal?: AbortSignal;
  /**
   * The agent to talk to at an origin that serves several: its identifier, id or name in the
   * origin's AI Catalog (`/.well-known/ai-catalog.json`, decision 0167), fetched with `auth`'s
   * credentials. Without it the card at the URL is used, as before.
   */
  agent?: string;
}

/** Options of `new A2AClient`. */
export interface A2AClientOptions extends A2AClientCommonOptions {
  card: AgentCard;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number | undefined;
  /**
   * The OpenTelemetry context the call's CLIENT span is made under (decision 0157); default the
   * active context. The span's `traceparent`, `tracestate` and `baggage` go with the request.
   */
  trace?: Context | undefined;
}

/** Per-stream options. */
export interface StreamOptions extends CallOptions {
  /** Overrides the client's `resume` settings for this stream. */
  resume?: ResumeOptions;
  /** Overrides the client's `streamIdleTimeoutMs` for this stream. */
  idleTimeoutMs?: number;
}

/** What a send adds (decision 0137). */
interface IdempotentSend {
  /**
   * The send's `Idempotency-Key`: by default a fresh UUID per send, the same on every automatic
   * retry of it; give your own to dedupe across processes (a resend after a crash). `false` sends
   * none, and the send is then never retried.
   */
  idempotencyKey?: string | false;
}

/** Per-call options of `sendMessage`. */
export interface SendOptions extends CallOptions, IdempotentSend {}

/** Per-stream options of `sendStreamingMessage`. */
export interface SendStreamOptions extends StreamOptions, IdempotentSend {}

/** Options of `subscribeToTask`. */
export interface SubscribeOptions extends StreamOptions {
  /** Resume after this event id (`Last-Event-ID`). */
  lastEventId?: string;
}
