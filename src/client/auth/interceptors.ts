/**
 * Client interceptors (decision 0019): code that runs before every HTTP request the client
 * makes (card fetch, token fetch excluded: it carries a secret of its own) and after its answer.
 * `before` may change headers and the URL (tracing headers, `A2A-Extensions`, custom auth);
 * `after` observes the outcome (metrics, logging: the library itself never logs, DESIGN.md).
 */

import type { OperationName } from '../../protocol/internal.js';

/** What a request is for: an operation by the spec's name, or the card fetch. */
export type CallPurpose =
  | 'getAgentCard'
  | OperationName
  /** The agent's published contracts document (`/contracts`, decision 0018). */
  | 'getContracts';

/** An outgoing request; `before` interceptors may change `url` and `headers`. */
export interface OutgoingCall {
  readonly purpose: CallPurpose;
  method: string;
  url: URL;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The JSON body text, when there is one (read-only: it is already encoded). */
  readonly body: string | undefined;
  /** 1 for the first attempt, 2+ for retries and stream resumptions. */
  readonly attempt: number;
}

/** How a request ended, as `after` interceptors see it. */
export interface CallOutcome {
  /** The HTTP status, when an answer arrived (gRPC calls have none; see `grpcStatus`). */
  status?: number;
  /** The gRPC status code of a gRPC call (0 for OK). */
  grpcStatus?: number;
  /** Response headers (lower-case names; gRPC: the response metadata), when an answer arrived. */
  headers?: Record<string, string>;
  /** Milliseconds from send to the answer's headers (or to the failure). */
  durationMs: number;
  /** The failure, when the request did not get an answer. */
  error?: unknown;
}

/**
 * A before/after pair, and an observer of answer bodies; each may be omitted. Errors thrown by
 * `before` and `after` fail the call.
 */
export interface ClientInterceptor {
  before?(call: OutgoingCall): void | Promise<void>;
  after?(call: OutgoingCall, outcome: CallOutcome): void | Promise<void>;
  /**
   * Sees the answer's body as the client reads it, after `after`: a unary answer whole, a
   * stream's text as it arrives. gRPC carries protobuf, so there each message comes as its
   * ProtoJSON, and `call.body` holds the request's ProtoJSON while an interceptor has `received`.
   * For logging a wire exchange (`concord --debug`); the body is what the agent sent, credentials
   * echoed in it included.
   */
  received?(call: OutgoingCall, body: string): void;
}

/**
 * A request the client made to an OAuth 2.0 authorization server for a credential, and how it
 * ended (`onAuthServerExchange`): a token request (client credentials, device code, refresh), a
 * device authorization request, or a server metadata / OpenID Connect discovery document. These
 * requests pass no interceptor (they carry a secret of their own). The exchange holds the secrets
 * as they went and came: the client secret (in `form`, or base64 in an `authorization: Basic`
 * header), refresh tokens and device codes sent, tokens received. An observer that writes it
 * anywhere must redact them.
 */
export interface AuthServerExchange {
  /** `POST` for a token or device authorization request, `GET` for a metadata document. */
  method: string;
  url: URL;
  /** The request's headers (lower-case names). */
  headers: Record<string, string>;
  /** The form posted; `grant_type` names the grant (none in a device authorization request). */
  form?: URLSearchParams;
  /** The answer's HTTP status, when one came. */
  status?: number;
  /** The answer's body, whole, when one came. */
  body?: string;
  /** Milliseconds from sending to the end of the answer (or to the failure). */
  durationMs: number;
  /** The failure, when no answer could be read. */
  error?: unknown;
}

/** An interceptor that sets fixed headers on every request (e.g. `traceparent`, a user agent). */
export function headersInterceptor(
  headers: Record<string, string> | ((call: OutgoingCall) => Record<string, string>),
): ClientInterceptor {
  return {
    before(call) {
      const values = typeof headers === 'function' ? headers(call) : headers;
      for (const [name, value] of Object.entries(values)) call.headers[name.toLowerCase()] = value;
    },
  };
}

/**
 * Activates extensions by URI on every A2A request: the `A2A-Extensions` header (A2A 1.0 §3.2.6,
 * A2A 1.0 §3.2.6), comma-separated, merged with any value already set.
 */
export function extensionsInterceptor(uris: readonly string[]): ClientInterceptor {
  return {
    before(call) {
      if (call.purpose === 'getAgentCard' || uris.length === 0) return;
      const existing = call.headers['a2a-extensions'];
      const all = existing === undefined ? [...uris] : [...existing.split(',').map((s) => s.trim()), ...uris];
      call.headers['a2a-extensions'] = [...new Set(all.filter((s) => s !== ''))].join(', ');
    },
  };
}
