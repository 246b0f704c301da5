/**
 * An OTLP/HTTP receiver on a real socket, for tests that check what Concord's exporters send
 * (decision 0157): `POST /v1/traces` and `POST /v1/metrics`, answered `200 {}` (an
 * ExportTraceServiceResponse with no partialSuccess, OTLP 1.x "Full Success").
 *
 * Bodies: OTLP/JSON (`application/json`, what the JS OTLP/HTTP exporters send) and OTLP/protobuf
 * (`application/x-protobuf`) for traces, either gzip-compressed or not. In OTLP/JSON, trace and
 * span ids are hex strings (the OTLP spec's JSON mapping, and @opentelemetry/otlp-transformer's
 * JSON_ENCODER leaves them hex); some producers write the proto3 JSON default, base64, so both are
 * read. The protobuf decoder below reads only the fields a trace test needs (the transformer ships
 * a writer, no descriptors); metrics are read from JSON only (their names).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** An attribute value as OTLP carries it, made plain. */
export type PlainValue = string | number | boolean | null | PlainValue[] | { [key: string]: PlainValue };

/** One span as received, flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** The OTLP span kind: 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER (0 unspecified). */
  kind: number;
  attributes: Record<string, PlainValue>;
  /** OTLP status: code 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  resource: Record<string, PlainValue>;
  /** `service.name` of the resource, '' when absent. */
  serviceName: string;
  scope: string;
}

/** OTLP span kinds (opentelemetry-proto trace.proto `SpanKind`). */
export const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** A running receiver. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>` (no trailing slash): exporters post to `${url}/v1/traces`. */
  url: string;
  spans: ReceivedSpan[];
  /** Names of the metrics received, in order, repeated per export. */
  metricNames: string[];
  /** Every request's path and content type, to see what arrived. */
  requests: { path: string; contentType: string }[];
  /** Resolves with the spans once `predicate` holds for them; rejects after `timeoutMs`, listing them. */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Forgets the spans and metrics received so far. */
  clear(): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 and a free port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metricNames: string[] = [];
  const requests: { path: string; contentType: string }[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    void readBody(request).then(
      (body) => {
        const path = (request.url ?? '').split('?')[0] ?? '';
        const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
        requests.push({ path, contentType });
        try {
          if (request.method !== 'POST' || (path !== '/v1/traces' && path !== '/v1/metrics')) {
            response.writeHead(404).end();
            return;
          }
          const protobuf = contentType === 'application/x-protobuf';
          if (!protobuf && contentType !== 'application/json') {
            response.writeHead(415).end();
            return;
          }
          if (path === '/v1/traces') {
            spans.push(
              ...(protobuf ? decodeTraceProtobuf(body) : decodeTraceJson(JSON.parse(body.toString()))),
            );
          } else if (!protobuf) {
            metricNames.push(...metricNamesOf(JSON.parse(body.toString())));
          }
          for (const wake of [...waiters]) wake();
          if (protobuf) {
            // An empty ExportTraceServiceResponse is zero bytes.
            response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
          } else {
            response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
          }
        } catch (error) {
          response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
        }
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metricNames,
    requests,
    waitFor(predicate, timeoutMs = 5_000) {
      if (predicate(spans)) return Promise.resolve(spans);
      return new Promise((resolve, reject) => {
        const wake = (): void => {
          if (!predicate(spans)) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(
              `OTLP receiver: condition not met within ${timeoutMs} ms; ${spans.length} span(s) received:\n` +
                describeSpans(spans),
            ),
          );
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    clear() {
      spans.length = 0;
      metricNames.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One line per span, for failure messages. */
export function describeSpans(spans: readonly ReceivedSpan[]): string {
  return spans
    .map(
      (s) =>
        `  ${s.serviceName || '?'} ${s.name} kind=${s.kind} trace=${s.traceId} span=${s.spanId} parent=${s.parentSpanId || '-'} ` +
        JSON.stringify(s.attributes),
    )
    .join('\n');
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

/** A trace or span id as hex, from OTLP/JSON's hex or proto3 JSON's base64. */
export function idToHex(id: unknown, bytes: 16 | 8): string {
  if (typeof id !== 'string' || id === '') return '';
  if (id.length === bytes * 2 && /^[0-9a-fA-F]+$/.test(id)) return id.toLowerCase();
  const decoded = Buffer.from(id, 'base64');
  if (decoded.length !== bytes) throw new Error(`not a ${bytes}-byte id in hex or base64: ${id}`);
  return decoded.toString('hex');
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function plainOf(value: unknown): PlainValue {
  const v = (value ?? {}) as Json;
  if ('stringValue' in v) return v.stringValue as string;
  if ('boolValue' in v) return v.boolValue as boolean;
  // int64 is a string in OTLP/JSON (proto3 JSON), a number from some producers.
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('bytesValue' in v) return v.bytesValue as string;
  if ('arrayValue' in v) return list((v.arrayValue as Json).values).map(plainOf);
  if ('kvlistValue' in v) return attributesOf((v.kvlistValue as Json).values);
  return null;
}

function attributesOf(value: unknown): Record<string, PlainValue> {
  const out: Record<string, PlainValue> = {};
  for (const kv of list(value)) out[kv.key as string] = plainOf(kv.value);
  return out;
}

/** Spans of an ExportTraceServiceRequest in OTLP/JSON. */
export function decodeTraceJson(body: unknown): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of list((body as Json).resourceSpans)) {
    const resource = attributesOf((rs.resource as Json | undefined)?.attributes);
    for (const ss of list(rs.scopeSpans)) {
      const scope = ((ss.scope as Json | undefined)?.name as string | undefined) ?? '';
      for (const span of list(ss.spans)) {
        const status = (span.status ?? {}) as Json;
        out.push({
          traceId: idToHex(span.traceId, 16),
          spanId: idToHex(span.spanId, 8),
          parentSpanId: idToHex(span.parentSpanId, 8),
          name: span.name as string,
          kind: Number(span.kind ?? 0),
          attributes: attributesOf(span.attributes),
          status: {
            code: Number(status.code ?? 0),
            ...(typeof status.message === 'string' ? { message: status.message } : {}),
          },
          resource,
          serviceName: typeof resource['service.name'] === 'string' ? resource['service.name'] : '',
          scope,
        });
      }
    }
  }
  return out;
}

function metricNamesOf(body: unknown): string[] {
  const out: string[] = [];
  for (const rm of list((body as Json).resourceMetrics))
    for (const sm of list(rm.scopeMetrics)) for (const m of list(sm.metrics)) out.push(m.name as string);
  return out;
}

// --- OTLP/protobuf, only what ReceivedSpan needs (opentelemetry-proto trace.proto, common.proto) ---

/** Field number → values (varints as numbers, length-delimited as byte slices, fixed as raw). */
type Fields = Map<number, (number | Uint8Array)[]>;

function readFields(buf: Uint8Array): Fields {
  const fields: Fields = new Map();
  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (pos >= buf.length) throw new Error('truncated varint');
      const b = buf[pos++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) return result;
    }
  };
  while (pos < buf.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    let value: number | Uint8Array;
    if (wire === 0) value = varint();
    else if (wire === 1) value = buf.subarray(pos, (pos += 8));
    else if (wire === 2) {
      const length = varint();
      value = buf.subarray(pos, (pos += length));
    } else if (wire === 5) value = buf.subarray(pos, (pos += 4));
    else throw new Error(`unsupported wire type ${wire}`);
    const values = fields.get(field);
    if (values === undefined) fields.set(field, [value]);
    else values.push(value);
  }
  return fields;
}

const bytesOf = (fields: Fields, n: number): Uint8Array[] => (fields.get(n) ?? []) as Uint8Array[];
const first = (fields: Fields, n: number): number | Uint8Array | undefined => fields.get(n)?.[0];
const text = (value: number | Uint8Array | undefined): string =>
  value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : '';
const hex = (value: number | Uint8Array | undefined): string =>
  value instanceof Uint8Array ? Buffer.from(value).toString('hex') : '';

function protoValue(buf: Uint8Array): PlainValue {
  const f = readFields(buf);
  // AnyValue: 1 string, 2 bool, 3 int, 4 double, 5 array, 6 kvlist, 7 bytes.
  if (f.has(1)) return text(first(f, 1));
  if (f.has(2)) return first(f, 2) === 1;
  if (f.has(3)) return first(f, 3) as number;
  if (f.has(4)) return Buffer.from(first(f, 4) as Uint8Array).readDoubleLE(0);
  if (f.has(5)) return bytesOf(readFields(first(f, 5) as Uint8Array), 1).map(protoValue);
  if (f.has(6)) return protoAttributes(bytesOf(readFields(first(f, 6) as Uint8Array), 1));
  if (f.has(7)) return Buffer.from(first(f, 7) as Uint8Array).toString('base64');
  return null;
}

function protoAttributes(keyValues: Uint8Array[]): Record<string, PlainValue> {
  const out: Record<string, PlainValue> = {};
  for (const kv of keyValues) {
    const f = readFields(kv);
    const value = first(f, 2);
    out[text(first(f, 1))] = value instanceof Uint8Array ? protoValue(value) : null;
  }
  return out;
}

/** Spans of an ExportTraceServiceRequest in OTLP/protobuf. */
export function decodeTraceProtobuf(body: Uint8Array): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rsBytes of bytesOf(readFields(body), 1)) {
    const rs = readFields(rsBytes);
    const resourceBytes = first(rs, 1);
    const resource =
      resourceBytes instanceof Uint8Array ? protoAttributes(bytesOf(readFields(resourceBytes), 1)) : {};
    for (const ssBytes of bytesOf(rs, 2)) {
      const ss = readFields(ssBytes);
      const scopeBytes = first(ss, 1);
      const scope = scopeBytes instanceof Uint8Array ? text(first(readFields(scopeBytes), 1)) : '';
      for (const spanBytes of bytesOf(ss, 2)) {
        // Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes, 15 status.
        const span = readFields(spanBytes);
        const statusBytes = first(span, 15);
        const status = statusBytes instanceof Uint8Array ? readFields(statusBytes) : new Map();
        const message = text(first(status, 2));
        out.push({
          traceId: hex(first(span, 1)),
          spanId: hex(first(span, 2)),
          parentSpanId: hex(first(span, 4)),
          name: text(first(span, 5)),
          kind: (first(span, 6) as number | undefined) ?? 0,
          attributes: protoAttributes(bytesOf(span, 9)),
          status: {
            code: (first(status, 3) as number | undefined) ?? 0,
            ...(message === '' ? {} : { message }),
          },
          resource,
          serviceName: typeof resource['service.name'] === 'string' ? resource['service.name'] : '',
          scope,
        });
      }
    }
  }
  return out;
}
