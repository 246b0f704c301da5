/**
 * Test clients for the four (binding x version) combinations. Each encodes canonical requests in
 * its wire dialect, talks real HTTP, and decodes answers back, so one conformance suite can run
 * against every combination. Wire errors are normalised to code, reason, HTTP status and field
 * violations, whatever envelope carried them.
 */
import {
  ERROR_CATALOG,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type ProtocolVersion,
  type SendMessageConfiguration,
  type SendMessageResponse,
  type StreamResponse,
  type Task,
  type WireCodec,
} from '../../src/protocol/internal.js';
import { v0_3JsonRpcCodec, v0_3RestCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { readSse } from './sse-client.js';

/** A protocol error as the client saw it. */
export interface WireError {
  /** The HTTP status (0 over gRPC). */
  httpStatus: number;
  /** The gRPC status code, over gRPC. */
  grpcStatus?: number;
  code: number;
  reason: string | undefined;
  message: string;
  violations: { field: string; description: string }[];
  body: unknown;
}

/** Success or a protocol error. */
export type Outcome<T> = { ok: true; value: T; httpStatus: number } | { ok: false; error: WireError };

/** One streamed item, decoded. */
export interface StreamedItem {
  id: string | undefined;
  event: StreamResponse;
}

/** A finished stream read. */
export interface StreamOutcome {
  httpStatus: number;
  items: StreamedItem[];
  closedByServer: boolean;
  error?: WireError;
}

/** The client surface the suite uses. */
export interface Driver {
  name: string;
  version: ProtocolVersion;
  binding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
  codec: WireCodec;
  send(message: Message, configuration?: SendMessageConfiguration): Promise<Outcome<SendMessageResponse>>;
  stream(message: Message, options?: { stopAfter?: number }): Promise<StreamOutcome>;
  getTask(id: string, historyLength?: number): Promise<Outcome<Task>>;
  listTasks(request: ListTasksRequest): Promise<Outcome<ListTasksResponse>>;
  cancelTask(id: string): Promise<Outcome<Task>>;
  subscribe(id: string, options?: { lastEventId?: string; stopAfter?: number }): Promise<StreamOutcome>;
  /** Releases the driver's connection (gRPC channels). */
  close?(): void;
}

const CODE_BY_REASON = new Map(Object.values(ERROR_CATALOG).map((e) => [e.reason, e.code]));

function fromDetails(details: unknown): { reason?: string; violations: WireError['violations'] } {
  let reason: string | undefined;
  let violations: WireError['violations'] = [];
  if (Array.isArray(details)) {
    for (const d of details as Record<string, unknown>[]) {
      if (String(d['@type']).endsWith('ErrorInfo')) reason = d.reason as string;
      if (String(d['@type']).endsWith('BadRequest'))
        violations = d.fieldViolations as WireError['violations'];
    }
  }
  return reason === undefined ? { violations } : { reason, violations };
}

/** Normalises a JSON-RPC error object. */
export function jsonRpcWireError(httpStatus: number, body: Record<string, unknown>): WireError {
  const error = body.error as { code: number; message: string; data?: unknown };
  if (Array.isArray(error.data)) {
    const { reason, violations } = fromDetails(error.data);
    return { httpStatus, code: error.code, reason, message: error.message, violations, body };
  }
  const data = (error.data ?? {}) as { reason?: string; violations?: WireError['violations'] };
  return {
    httpStatus,
    code: error.code,
    reason: data.reason,
    message: error.message,
    violations: data.violations ?? [],
    body,
  };
}

/** Normalises a REST error body: §11.6 on 1.0, the bare JSON-RPC error object on 0.3. */
export function restWireError(httpStatus: number, body: Record<string, unknown>): WireError {
  if (typeof body.code === 'number') return jsonRpcWireError(httpStatus, { error: body });
  const error = (body.error ?? {}) as { message?: string; details?: unknown };
  const { reason, violations } = fromDetails(error.details);
  return {
    httpStatus,
    code: (reason === undefined ? undefined : CODE_BY_REASON.get(reason)) ?? 0,
    reason,
    message: error.message ?? '',
    violations,
    body,
  };
}

let nextId = 1;

/** The JSON-RPC driver for a version. */
export function jsonRpcDriver(
  baseUrl: string,
  version: ProtocolVersion,
  fixed: Record<string, string> = {},
): Driver {
  const codec = version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec;
  const names =
    version === '1.0'
      ? {
          send: 'SendMessage',
          stream: 'SendStreamingMessage',
          get: 'GetTask',
          list: 'ListTasks',
          cancel: 'CancelTask',
          sub: 'SubscribeToTask',
        }
      : {
          send: 'message/send',
          stream: 'message/stream',
          get: 'tasks/get',
          list: 'tasks/list',
          cancel: 'tasks/cancel',
          sub: 'tasks/resubscribe',
        };
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    'content-type': 'application/json',
    ...(version === '1.0' ? { 'a2a-version': '1.0' } : {}),
    ...fixed,
    ...extra,
  });
  async function call<T>(method: string, params: unknown, decode: (v: unknown) => T): Promise<Outcome<T>> {
    const response = await fetch(baseUrl, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    if ('error' in body) return { ok: false, error: jsonRpcWireError(response.status, body) };
    return { ok: true, value: decode(body.result), httpStatus: response.status };
  }
  async function streamCall(
    method: string,
    params: unknown,
    extra: Record<string, string>,
    stopAfter?: number,
  ): Promise<StreamOutcome> {
    const read = await readSse(
      baseUrl,
      {
        method: 'POST',
        headers: headers(extra),
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      },
      stopAfter === undefined ? {} : { stopAfter },
    );
    if (read.events.length === 0 && read.raw.startsWith('{')) {
      return {
        httpStatus: read.status,
        items: [],
        closedByServer: true,
        error: jsonRpcWireError(read.status, JSON.parse(read.raw) as Record<string, unknown>),
      };
    }
    const items: StreamedItem[] = [];
    let error: WireError | undefined;
    for (const e of read.events) {
      const body = JSON.parse(e.data) as Record<string, unknown>;
      if ('error' in body) error = jsonRpcWireError(read.status, body);
      else items.push({ id: e.id, event: codec.decodeStreamResponse(body.result, '/result') });
    }
    return {
      httpStatus: read.status,
      items,
      closedByServer: read.closedByServer,
      ...(error === undefined ? {} : { error }),
    };
  }
  return {
    name: `JSON-RPC ${version}`,
    version,
    binding: 'JSONRPC',
    codec,
    send: (message, configuration) =>
      call(
        names.send,
        codec.encodeSendMessageRequest({
          message,
          ...(configuration === undefined ? {} : { configuration }),
        }),
        (v) => codec.decodeSendMessageResponse(v, '/result'),
      ),
    stream: (message, options = {}) =>
      streamCall(names.stream, codec.encodeSendMessageRequest({ message }), {}, options.stopAfter),
    getTask: (id, historyLength) =>
      call(
        names.get,
        codec.encodeGetTaskRequest(historyLength === undefined ? { id } : { id, historyLength }),
        (v) => codec.decodeTask(v, '/result'),
      ),
    listTasks: (request) =>
      call(names.list, codec.encodeListTasksRequest(request), (v) =>
        codec.decodeListTasksResponse(v, '/result'),
      ),
    cancelTask: (id) =>
      call(names.cancel, codec.encodeCancelTaskRequest({ id }), (v) => codec.decodeTask(v, '/result')),
    subscribe: (id, options = {}) =>
      streamCall(
        names.sub,
        codec.encodeSubscribeToTaskRequest({ id }),
        options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId },
        options.stopAfter,
      ),
  };
}

/** The HTTP+JSON driver for a version. */
export function restDriver(
  baseUrl: string,
  version: ProtocolVersion,
  fixed: Record<string, string> = {},
): Driver {
  const codec = version === '1.0' ? v1_0Codec : v0_3RestCodec;
  const prefix = version === '1.0' ? baseUrl : `${baseUrl}v1/`;
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    'content-type': 'application/json',
    ...(version === '1.0' ? { 'a2a-version': '1.0' } : {}),
    ...fixed,
    ...extra,
  });
  async function call<T>(
    method: string,
    path: string,
    body: unknown,
    decode: (v: unknown) => T,
  ): Promise<Outcome<T>> {
    const response = await fetch(`${prefix}${path}`, {
      method,
      headers: headers(),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) return { ok: false, error: restWireError(response.status, json) };
    return { ok: true, value: decode(json), httpStatus: response.status };
  }
  async function streamCall(
    method: string,
    path: string,
    body: unknown,
    extra: Record<string, string>,
    stopAfter?: number,
  ): Promise<StreamOutcome> {
    const read = await readSse(
      `${prefix}${path}`,
      { method, headers: headers(extra), ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
      stopAfter === undefined ? {} : { stopAfter },
    );
    if (read.events.length === 0 && read.raw.startsWith('{')) {
      return {
        httpStatus: read.status,
        items: [],
        closedByServer: true,
        error: restWireError(read.status, JSON.parse(read.raw) as Record<string, unknown>),
      };
    }
    const items: StreamedItem[] = [];
    let error: WireError | undefined;
    for (const e of read.events) {
      const json = JSON.parse(e.data) as Record<string, unknown>;
      if (e.event === 'error') error = restWireError(read.status, json);
      else items.push({ id: e.id, event: codec.decodeStreamResponse(json, '') });
    }
    return {
      httpStatus: read.status,
      items,
      closedByServer: read.closedByServer,
      ...(error === undefined ? {} : { error }),
    };
  }
  const listQuery = (r: ListTasksRequest): string => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(r)) if (v !== undefined) q.set(k, String(v));
    const s = q.toString();
    return s === '' ? '' : `?${s}`;
  };
  return {
    name: `HTTP+JSON ${version}`,
    version,
    binding: 'HTTP+JSON',
    codec,
    send: (message, configuration) =>
      call(
        'POST',
        'message:send',
        codec.encodeSendMessageRequest({
          message,
          ...(configuration === undefined ? {} : { configuration }),
        }),
        (v) => codec.decodeSendMessageResponse(v, ''),
      ),
    stream: (message, options = {}) =>
      streamCall(
        'POST',
        'message:stream',
        codec.encodeSendMessageRequest({ message }),
        {},
        options.stopAfter,
      ),
    getTask: (id, historyLength) =>
      call(
        'GET',
        `tasks/${encodeURIComponent(id)}${historyLength === undefined ? '' : `?historyLength=${historyLength}`}`,
        undefined,
        (v) => codec.decodeTask(v, ''),
      ),
    listTasks: (request) =>
      call('GET', `tasks${listQuery(request)}`, undefined, (v) => codec.decodeListTasksResponse(v, '')),
    cancelTask: (id) =>
      call('POST', `tasks/${encodeURIComponent(id)}:cancel`, {}, (v) => codec.decodeTask(v, '')),
    subscribe: (id, options = {}) =>
      streamCall(
        version === '1.0' ? 'POST' : 'GET',
        `tasks/${encodeURIComponent(id)}:subscribe`,
        undefined,
        options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId },
        options.stopAfter,
      ),
  };
}

/**
 * All four HTTP drivers against one server (the gRPC ones are in grpc-driver.ts); `fixed` headers
 * go with every request (e.g. an `Idempotency-Key`).
 */
export function allDrivers(baseUrl: string, fixed: Record<string, string> = {}): Driver[] {
  return [
    jsonRpcDriver(baseUrl, '1.0', fixed),
    restDriver(baseUrl, '1.0', fixed),
    jsonRpcDriver(baseUrl, '0.3', fixed),
    restDriver(baseUrl, '0.3', fixed),
  ];
}

/** A user message with text. */
export function userText(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** The state of a send result that must be a task. */
export function taskOf(outcome: Outcome<SendMessageResponse>): Task {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error.body)}`);
  if (!('task' in outcome.value)) throw new Error(`expected a task, got ${JSON.stringify(outcome.value)}`);
  return outcome.value.task;
}

/** The value of a successful outcome. */
export function ok<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.error.body)}`);
  return outcome.value;
}
