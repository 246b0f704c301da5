/**
 * The client's HTTP pipeline: every request to an agent goes through here, so each one gets the
 * same treatment: the network policy (SSRF guard, pinned DNS), `before` interceptors, the
 * selected credentials, the timeout and AbortSignal, redirects and the client's keep-alive pool
 * (decision 0137), then `after` interceptors.
 */
import type { NetworkPolicy } from './address-guard.js';
import type { SelectedCredential } from '../auth/auth.js';
import type { SecureContext } from 'node:tls';
import { ConnectionPool } from './connection-pool.js';
import { trustingContext } from './trusted-roots.js';
import { Deadline } from './deadline.js';
import type {
  AuthServerExchange,
  CallOutcome,
  CallPurpose,
  ClientInterceptor,
  OutgoingCall,
} from '../auth/interceptors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, sendHttp, type HttpAnswer } from './pinned-http.js';
import { sendFollowingRedirects } from './redirects.js';
import { injectContext, type Context } from '../../telemetry/index.js';

/** Settings of the pipeline. */
export interface HttpPipelineOptions {
  network: NetworkPolicy;
  interceptors: readonly ClientInterceptor[];
  /** The credentials to present on A2A calls (not on the card fetch). */
  credentials: () => readonly SelectedCredential[];
  /** Default per-request timeout in ms (until the headers for streams, the whole body otherwise). */
  timeoutMs: number;
  /** Default idle timeout of streams in ms (nothing received for that long: dropped); 0 turns it off. */
  streamIdleTimeoutMs?: number;
  /** Largest answer read into memory (HTTP body, gRPC message); default DEFAULT_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
  /** TLS certificates are not verified (HTTPS and gRPC over TLS); default false. */
  insecureTls?: boolean;
  /** The client certificate and key (PEM) presented for mutual TLS. */
  clientCertificate?: { cert: string; key: string };
  /** Roots (PEM) trusted besides node's default ones, for HTTPS and gRPC over TLS. */
  trustedCertificates?: string | readonly string[];
  /**
   * Sees each request to an OAuth 2.0 authorization server (`postForm`, `getDocument`) and its
   * answer; secrets included, as they went and came.
   */
  onAuthServerExchange?: (exchange: AuthServerExchange) => void;
}

/** The TLS options a client or a card resolver was given, those set only (`HttpPipelineOptions`). */
export function tlsOptionsOf(options: {
  insecureTls?: boolean | undefined;
  clientCertificate?: { cert: string; key: string } | undefined;
  trustedCertificates?: string | readonly string[] | undefined;
}): Pick<HttpPipelineOptions, 'insecureTls' | 'clientCertificate' | 'trustedCertificates'> {
  return Object.assign(
    {},
    options.insecureTls === true ? { insecureTls: true } : {},
    options.clientCertificate === undefined ? {} : { clientCertificate: options.clientCertificate },
    options.trustedCertificates === undefined ? {} : { trustedCertificates: options.trustedCertificates },
  );
}

/** Default stream idle timeout: four of Concord's 15 s heartbeats (decision 0137). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;

const NO_HEADERS: ReadonlySet<string> = new Set();

const MAX_INT32 = 2 ** 31 - 1;

/** A request as the caller builds it. */
export interface RequestSpec {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** Per-call control. */
export interface CallControl {
  signal?: AbortSignal;
  timeoutMs?: number;
  attempt?: number;
  /** Present credentials (default true; the public card fetch does not). */
  authenticate?: boolean;
  /**
   * Present these rather than those selected from the card: a request made before any card is
   * known, such as the AI Catalog fetch (catalog-resolver.ts), which gets every credential given.
   */
  credentials?: readonly SelectedCredential[];
  /**
   * The `Idempotency-Key` field value of a send (HTTP header; gRPC metadata `idempotency-key`),
   * the same on every retry of that send (decision 0137).
   */
  idempotencyKey?: string;
  /** The OpenTelemetry context of the call's CLIENT span, propagated in its headers (decision 0157). */
  trace?: Context;
}

/** An opened answer and the deadline that still governs its body. */
export interface OpenedAnswer {
  answer: HttpAnswer;
  deadline: Deadline;
}

/** A fully read answer. */
export interface ReadAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  url: string;
}

/** Runs requests through interceptors, credentials, the guard and the deadline. */
export class HttpPipeline {
  private readonly pool: ConnectionPool;
  /** The TLS context holding the client's `trustedCertificates`, when it has some. */
  readonly secureContext: SecureContext | undefined;

  constructor(private readonly options: HttpPipelineOptions) {
    this.secureContext =
      options.trustedCertificates === undefined
        ? undefined
        : trustingContext(options.trustedCertificates, options.clientCertificate);
    this.pool = new ConnectionPool(
      options.insecureTls === true,
      options.clientCertificate,
      this.secureContext,
    );
    const max = options.maxResponseBytes;
    // gRPC channel options are 32-bit integers; a bound above 2 GiB would not be one anyway.
    if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > MAX_INT32)) {
      throw new RangeError(`maxResponseBytes must be an integer from 1 to ${MAX_INT32}, got ${String(max)}`);
    }
  }

  /** The network policy in force. */
  get network(): NetworkPolicy {
    return this.options.network;
  }

  /** Sends a request and resolves at the headers; the caller must read or close the body and dispose the deadline. */
  async open(purpose: CallPurpose, spec: RequestSpec, control: CallControl = {}): Promise<OpenedAnswer> {
    const deadline = new Deadline(control.signal, control.timeoutMs ?? this.options.timeoutMs);
    const call: OutgoingCall = {
      purpose,
      method: spec.method,
      url: new URL(spec.url),
      headers: { ...spec.headers },
      body: spec.body,
      attempt: control.attempt ?? 1,
    };
    const started = performance.now();
    try {
      const credentialHeaders = await this.prepare(call, control, deadline.signal);
      const request = { method: call.method, url: call.url, headers: call.headers };
      const answer = await sendFollowingRedirects(
        call.body === undefined ? request : Object.assign({}, request, { body: call.body }),
        this.options.network,
        deadline,
        this.pool,
        credentialHeaders,
      );
      await this.after(call, {
        status: answer.status,
        headers: answer.headers,
        durationMs: performance.now() - started,
      });
      if (this.wantsBodies) answer.onBody = (text) => this.received(call, text);
      return { answer, deadline };
    } catch (error) {
      deadline.dispose();
      await this.after(call, { durationMs: performance.now() - started, error });
      throw error;
    }
  }

  /** Sends a request and reads the whole body within the deadline. */
  async read(purpose: CallPurpose, spec: RequestSpec, control: CallControl = {}): Promise<ReadAnswer> {
    const { answer, deadline } = await this.open(purpose, spec, control);
    try {
      const text = await answer.text(this.maxResponseBytes);
      return { status: answer.status, headers: answer.headers, text, url: answer.url.href };
    } finally {
      deadline.dispose();
    }
  }

  /**
   * POSTs a form without interceptors or credentials (token endpoints: the secret is in the form,
   * so a redirect is not followed: it would carry the secret elsewhere).
   */
  async postForm(
    url: URL,
    form: URLSearchParams,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<{ status: number; text: string }> {
    const sent = Object.assign({}, headers, { 'content-type': 'application/x-www-form-urlencoded' });
    return this.toAuthServer({ method: 'POST', url, headers: sent, body: form.toString() }, signal, form);
  }

  /**
   * GETs a public JSON document (OAuth 2.0 server metadata, OpenID Connect discovery) without
   * interceptors or credentials, and without following a redirect.
   */
  async getDocument(url: URL, signal?: AbortSignal): Promise<{ status: number; text: string }> {
    return this.toAuthServer({ method: 'GET', url, headers: { accept: 'application/json' } }, signal);
  }

  /**
   * A request to an authorization server, read whole within the client's timeout, and shown to
   * `onAuthServerExchange` (with copies: the observer cannot change what was sent).
   */
  private async toAuthServer(
    spec: RequestSpec,
    signal: AbortSignal | undefined,
    form?: URLSearchParams,
  ): Promise<{ status: number; text: string }> {
    const deadline = new Deadline(signal, this.options.timeoutMs);
    const started = performance.now();
    const observe = this.options.onAuthServerExchange;
    const exchange = (outcome: Partial<AuthServerExchange>): void =>
      observe?.(
        Object.assign(
          {
            method: spec.method,
            url: new URL(spec.url),
            headers: { ...spec.headers },
            durationMs: performance.now() - started,
          },
          form === undefined ? {} : { form: new URLSearchParams(form) },
          outcome,
        ),
      );
    let read: { status: number; text: string };
    try {
      const answer = await sendHttp(spec, this.options.network, deadline, this.pool);
      read = { status: answer.status, text: await answer.text(this.maxResponseBytes) };
    } catch (error) {
      exchange({ error });
      throw error;
    } finally {
      deadline.dispose();
    }
    exchange({ status: read.status, body: read.text });
    return read;
  }

  /**
   * Sets the call's trace context and the send's `Idempotency-Key`, runs the `before`
   * interceptors and presents the selected credentials on `call`: every request goes through
   * here, HTTP ones from `open` and gRPC ones (headers become metadata). Resolves the names of the headers the credentials set (dropped on a
   * redirect to another origin).
   */
  async prepare(call: OutgoingCall, control: CallControl, signal: AbortSignal): Promise<ReadonlySet<string>> {
    // W3C trace context and baggage, lower-case as gRPC metadata needs (nothing without an SDK).
    injectContext(control.trace, call.headers);
    if (control.idempotencyKey !== undefined) call.headers['idempotency-key'] = control.idempotencyKey;
    for (const interceptor of this.options.interceptors) await interceptor.before?.(call);
    if (control.authenticate === false) return NO_HEADERS;
    const credentials = control.credentials ?? this.options.credentials();
    if (credentials.length === 0) return NO_HEADERS;
    const before = { ...call.headers };
    await this.present(call, credentials, signal);
    const set = new Set<string>();
    for (const [name, value] of Object.entries(call.headers)) if (before[name] !== value) set.add(name);
    return set;
  }

  /** Presents `credentials` on `call`: each adds itself, obtaining a token first if it must. */
  async present(
    call: OutgoingCall,
    credentials: readonly SelectedCredential[],
    signal: AbortSignal,
  ): Promise<void> {
    for (const selected of credentials) {
      await selected.credential.apply(call, {
        scheme: selected.scheme,
        scopes: selected.scopes,
        schemeName: selected.schemeName,
        card: selected.card,
        postForm: (url, form, headers, postSignal) => this.postForm(url, form, headers, postSignal),
        getDocument: (url, getSignal) => this.getDocument(url, getSignal),
        signal,
      });
    }
  }

  /** The credentials selected from the card for A2A calls. */
  selectedCredentials(): readonly SelectedCredential[] {
    return this.options.credentials();
  }

  /** True when an interceptor observes answer bodies (`received`). */
  get wantsBodies(): boolean {
    return this.options.interceptors.some((interceptor) => interceptor.received !== undefined);
  }

  /** Hands a piece of an answer's body to the interceptors that observe bodies. */
  received(call: OutgoingCall, body: string): void {
    for (const interceptor of this.options.interceptors) interceptor.received?.(call, body);
  }

  /** The client certificate presented for mutual TLS, if any. */
  get clientCertificate(): { cert: string; key: string } | undefined {
    return this.options.clientCertificate;
  }

  /** True when TLS certificates are not verified (the client's `insecureTls`). */
  get insecureTls(): boolean {
    return this.options.insecureTls === true;
  }

  /** Runs the `after` interceptors with how a call ended. */
  async after(call: OutgoingCall, outcome: CallOutcome): Promise<void> {
    for (const interceptor of this.options.interceptors) await interceptor.after?.(call, outcome);
  }

  /** The default per-request timeout in ms. */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** The default idle timeout of streams in ms. */
  get streamIdleTimeoutMs(): number {
    return this.options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  }

  /** The largest answer read into memory, in bytes (an HTTP body, a gRPC message). */
  get maxResponseBytes(): number {
    return this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** Closes the kept-alive connections; later requests each open their own. */
  close(): void {
    this.pool.close();
  }
}
