/**
 * Raw calls on one interface, for the rules that judge the wire itself: requests are built by
 * hand (or with the protocol codecs for the well-formed ones), sent through `rawExchange`, and
 * the answer is read without the client's decoding so its exact shape can be inspected. Error
 * answers are read in every envelope the versions use (A2A 1.0 §9.5, §11.6): the JSON-RPC error object,
 * the 1.0 REST google.rpc.Status body, and the bare `{code, message}` a2a-js sends on 0.3 REST.
 */
import {
  ERROR_CATALOG,
  v0_3JsonRpcCodec,
  v0_3RestCodec,
  v1_0Codec,
  type SendMessageRequest,
  type WireCodec,
} from '../../protocol/internal.js';
import { JSON_RPC_METHOD_NAMES, type OperationName } from '../../protocol/internal.js';
import type { ProbeTarget } from './probe-targets.js';
import {
  describeAnswer,
  describeRequest,
  jsonOf,
  rawExchange,
  type RawAnswer,
  type RawHttpOptions,
  type RawRequest,
  type ReadControl,
} from './raw-http.js';

/** One request and what came of it. */
export interface Exchange {
  request: RawRequest;
  answer?: RawAnswer;
  /** Set when no answer arrived (connection refused, timeout). */
  failure?: string;
}

/** An A2A error as read off the wire. */
export interface WireError {
  /** JSON-RPC code, or the code of the ErrorInfo reason (REST), when known. */
  code?: number;
  reason?: string;
  httpStatus: number;
  body: unknown;
}

/** How an answer reads: a result (the JSON-RPC `result` or the REST body), an error, or neither. */
export type Reading =
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; error: WireError }
  | { kind: 'other'; problem: string };

/** Settings shared by every probe. */
export interface ProbeSettings {
  http: RawHttpOptions;
  /** Bearer token presented on every call unless a request opts out. */
  token?: string;
}

const CODE_BY_REASON = new Map(Object.values(ERROR_CATALOG).map((e) => [e.reason, e.code]));

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reasonIn(details: unknown): string | undefined {
  if (isObject(details) && typeof details.reason === 'string') return details.reason;
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    if (
      isObject(d) &&
      String(d['@type'] ?? '').endsWith('google.rpc.ErrorInfo') &&
      typeof d.reason === 'string'
    )
      return d.reason;
  }
  return undefined;
}

let nextId = 1;

/** Raw access to one interface. */
export class WireProbe {
  /** The codec of this interface's dialect (A2A 1.0 §5.5). */
  readonly codec: WireCodec;

  constructor(
    readonly target: ProbeTarget,
    private readonly settings: ProbeSettings,
  ) {
    this.codec =
      target.version === '1.0' ? v1_0Codec : target.binding === 'JSONRPC' ? v0_3JsonRpcCodec : v0_3RestCodec;
  }

  /** The headers a well-behaved client sends; `version: null` leaves A2A-Version out. */
  headers(options: { version?: string | null; auth?: boolean; accept?: string; body?: boolean } = {}) {
    const h: Record<string, string> = { accept: options.accept ?? 'application/json, application/a2a+json' };
    if (options.body !== false) {
      h['content-type'] =
        this.target.binding === 'HTTP+JSON' && this.target.version === '1.0'
          ? 'application/a2a+json'
          : 'application/json';
    }
    const version =
      options.version === undefined ? (this.target.version === '1.0' ? '1.0' : null) : options.version;
    if (version !== null) h['a2a-version'] = version;
    if (options.auth !== false && this.settings.token !== undefined)
      h.authorization = `Bearer ${this.settings.token}`;
    return h;
  }

  /** The JSON-RPC method name of an operation in this version. */
  method(operation: OperationName): string | undefined {
    return JSON_RPC_METHOD_NAMES[this.target.version][operation];
  }

  /** A JSON-RPC POST; `body` replaces the envelope when given (malformed input). */
  jsonRpc(method: string, params: unknown, extra: { headers?: Record<string, string>; body?: string } = {}) {
    const envelope: Record<string, unknown> = { jsonrpc: '2.0', id: nextId++, method };
    if (params !== undefined) envelope.params = params;
    const request: RawRequest = {
      method: 'POST',
      url: new URL(this.target.url),
      headers: { ...this.headers(), ...extra.headers },
      body: extra.body ?? JSON.stringify(envelope),
    };
    return { request, id: envelope.id as number };
  }

  /** A REST request to `path` under the interface (0.3: under `/v1`; 1.0: under the tenant). */
  rest(method: RawRequest['method'], path: string, body?: unknown, headers: Record<string, string> = {}) {
    const base = new URL(this.target.url);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    const tenant = this.target.tenant;
    const prefix =
      this.target.version === '0.3' ? 'v1/' : tenant !== undefined ? `${encodeURIComponent(tenant)}/` : '';
    const request: RawRequest = {
      method,
      url: new URL(`./${prefix}${path}`, base),
      headers: { ...this.headers({ body: body !== undefined }), ...headers },
    };
    if (body !== undefined) request.body = typeof body === 'string' ? body : JSON.stringify(body);
    return request;
  }

  /** SendMessage / SendStreamingMessage encoded for this interface. */
  sendRequest(request: SendMessageRequest, stream = false): { request: RawRequest; id?: number } {
    const withTenant =
      this.target.version === '1.0' && this.target.tenant !== undefined
        ? { ...request, tenant: this.target.tenant }
        : request;
    const params = this.codec.encodeSendMessageRequest(withTenant);
    const accept = stream ? 'text/event-stream' : undefined;
    if (this.target.binding === 'JSONRPC') {
      const call = this.jsonRpc(this.method(stream ? 'sendStreamingMessage' : 'sendMessage')!, params);
      if (accept !== undefined) call.request.headers!.accept = accept;
      return call;
    }
    const raw = this.rest('POST', stream ? 'message:stream' : 'message:send', params);
    if (accept !== undefined) raw.headers!.accept = accept;
    return { request: raw };
  }

  /** GetTask encoded for this interface. */
  getRequest(id: string, historyLength?: number): RawRequest {
    if (this.target.binding === 'JSONRPC') {
      const params: Record<string, unknown> = { id };
      if (historyLength !== undefined) params.historyLength = historyLength;
      if (this.target.version === '1.0' && this.target.tenant !== undefined)
        params.tenant = this.target.tenant;
      return this.jsonRpc(this.method('getTask')!, params).request;
    }
    const query = historyLength === undefined ? '' : `?historyLength=${historyLength}`;
    return this.rest('GET', `tasks/${encodeURIComponent(id)}${query}`);
  }

  /** ListTasks (1.0) with query values as given (REST query / JSON-RPC params). */
  listRequest(query: Record<string, string | number | boolean>): RawRequest {
    if (this.target.binding === 'JSONRPC') {
      const params: Record<string, unknown> = { ...query };
      if (this.target.tenant !== undefined) params.tenant = this.target.tenant;
      return this.jsonRpc(this.method('listTasks')!, params).request;
    }
    const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return this.rest('GET', `tasks${q === '' ? '' : `?${q}`}`);
  }

  /** Sends a request; never throws (a missing answer is `failure`). */
  async exchange(
    request: RawRequest,
    onText?: (chunk: string, control: ReadControl) => void,
  ): Promise<Exchange> {
    try {
      return { request, answer: await rawExchange(request, this.settings.http, onText) };
    } catch (error) {
      return { request, failure: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Reads an answer as a result, an A2A error, or neither (with why). */
  read(exchange: Exchange): Reading {
    const answer = exchange.answer;
    if (answer === undefined)
      return { kind: 'other', problem: `no answer: ${exchange.failure ?? 'unknown'}` };
    const json = jsonOf(answer);
    if (json === undefined)
      return { kind: 'other', problem: `the body is not JSON: ${describeAnswer(answer)}` };
    if (this.target.binding === 'JSONRPC') {
      if (!isObject(json)) return { kind: 'other', problem: 'the body is not a JSON-RPC response object' };
      if (isObject(json.error) && typeof json.error.code === 'number') {
        const error: WireError = { code: json.error.code, httpStatus: answer.status, body: json };
        const reason = reasonIn(json.error.data);
        if (reason !== undefined) error.reason = reason;
        return { kind: 'error', error };
      }
      if ('result' in json && answer.status >= 200 && answer.status < 300)
        return { kind: 'result', value: json.result };
      return { kind: 'other', problem: `neither a JSON-RPC result nor error: ${describeAnswer(answer)}` };
    }
    if (answer.status >= 200 && answer.status < 300) return { kind: 'result', value: json };
    const error: WireError = { httpStatus: answer.status, body: json };
    if (isObject(json) && isObject(json.error)) {
      const reason = reasonIn(json.error.details);
      if (reason !== undefined) {
        error.reason = reason;
        const code = CODE_BY_REASON.get(reason);
        if (code !== undefined) error.code = code;
      }
    } else if (isObject(json) && typeof json.code === 'number') {
      error.code = json.code;
      const reason = reasonIn(json.data);
      if (reason !== undefined) error.reason = reason;
    }
    return { kind: 'error', error };
  }

  /** `sent` and `received` of an exchange, for evidence. */
  static evidence(exchange: Exchange): { sent: string; received: string } {
    return {
      sent: describeRequest(exchange.request),
      received:
        exchange.answer === undefined
          ? `no answer: ${exchange.failure ?? ''}`
          : describeAnswer(exchange.answer),
    };
  }
}
