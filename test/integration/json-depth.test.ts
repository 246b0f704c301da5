/**
 * The nesting bound (decision 0144) on every binding and version, over real sockets:
 * a request nested exactly `maxJsonDepth` levels is served, one level more is refused with
 * -32602 / HTTP 400 / gRPC INVALID_ARGUMENT naming the bound and the JSON Pointer of the first
 * object or array past it — in a part's data, in the message's metadata, in the request's
 * metadata, in a member no codec reads — and none of it is an internal error. Requests nested
 * thousands of levels (which used to overflow the stack in the store commit, -32603) get the same
 * answer at the same pointer, gRPC included. The bound is an option; gRPC refuses one it could
 * not carry back out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, SendMessageRequest } from '../../src/protocol/index.js';
import { createA2AServer } from '../../src/server/index.js';
import { listenGrpc } from '../../src/server/grpc/index.js';
import { grpcSchema } from '../../src/server/grpc/grpc-schema-loader.js';
import type { WireError } from '../helpers/drivers.js';
import { startEcho, type EchoServer } from '../helpers/echo-server.js';
import {
  grpcSendBytes,
  locateNested,
  nested,
  WIRE_ROUTES,
  wireDocument,
  wireSend,
  type WireRoute,
  type WireTargets,
} from '../helpers/wire-sends.js';

const MAX = 32;

/** Where a test puts the nested value of a request. */
type Place = (value: Record<string, unknown>) => SendMessageRequest;

const message = (extra: Partial<Message> = {}): Message => ({
  messageId: `m-${Math.random()}`,
  role: 'ROLE_USER',
  parts: [{ text: 'hello' }],
  ...extra,
});

const PLACES: Record<string, Place> = {
  'a data part': (value) => ({ message: message({ parts: [{ text: 'hi' }, { data: value }] }) }),
  'the message metadata': (value) => ({ message: message({ metadata: value }) }),
  'the request metadata': (value) => ({ message: message(), metadata: value }),
};

/**
 * The request with the value at `place` sized so that the wire document of `route` nests exactly
 * `depth` levels, the document, and the pointer of its object at level `max + 1` (if any).
 */
function sized(route: WireRoute, place: Place, depth: number, max: number) {
  const probe = locateNested(wireDocument(route, place(nested(1))))!;
  const levels = depth - probe.level + 1;
  const request = place(nested(levels));
  const past = `${probe.path}/deep${'/d'.repeat(Math.max(max - probe.level, 0))}`;
  return { request, past };
}

function expectRefused(error: WireError, route: WireRoute, path: string, max: number): void {
  expect(error.code, route.name).toBe(-32602);
  if (route.binding === 'GRPC') expect(error.grpcStatus).toBe(3);
  else expect(error.httpStatus).toBe(route.binding === 'JSONRPC' ? 200 : 400);
  expect(error.violations[0]?.field, route.name).toBe(path);
  expect(error.message).toContain(`${path}: is nested ${max + 1} levels deep`);
  expect(error.message).toContain(`at most ${max} levels`);
  // The bound also travels as ErrorInfo metadata (the 0.3 JSON-RPC data's `metadata`).
  expect(JSON.stringify(error.body)).toContain(`"maxJsonDepth":"${max}"`);
}

let server: EchoServer;
let targets: WireTargets;
beforeAll(async () => {
  server = await startEcho({ grpc: true });
  targets = { url: server.url, grpcTarget: server.grpc!.target };
});
afterAll(async () => {
  await server.close();
});

describe(`requests nested up to ${MAX} levels are served, deeper ones refused where they pass it`, () => {
  for (const route of WIRE_ROUTES) {
    for (const [where, place] of Object.entries(PLACES)) {
      it(`${route.name}: ${where}`, async () => {
        const under = sized(route, place, MAX, MAX);
        const served = await wireSend(targets, route, under.request);
        expect(served.ok, JSON.stringify(served)).toBe(true);

        const over = sized(route, place, MAX + 1, MAX);
        const refused = await wireSend(targets, route, over.request);
        expect(refused.ok).toBe(false);
        if (refused.ok) return;
        expectRefused(refused.error, route, over.past, MAX);
        expect(server.errors).toEqual([]);
      });
    }
  }

  it('a member no codec reads counts too (JSON-RPC and HTTP+JSON)', async () => {
    for (const route of WIRE_ROUTES.filter((r) => r.binding !== 'GRPC')) {
      const document = wireDocument(route, { message: message() }) as Record<string, unknown>;
      document.unread = nested(MAX);
      const response = await post(route, JSON.stringify(document));
      const past = `/unread/deep${'/d'.repeat(MAX - 2)}`;
      expect(response.status, route.name).toBe(route.binding === 'JSONRPC' ? 200 : 400);
      expect(JSON.stringify(response.body)).toContain(`"field":"${past}"`);
    }
  });
});

async function post(route: WireRoute, body: string): Promise<{ status: number; body: unknown }> {
  const path =
    route.binding === 'JSONRPC' ? '' : route.version === '1.0' ? './message:send' : './v1/message:send';
  const response = await fetch(new URL(path, server.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(route.version === '1.0' ? { 'a2a-version': '1.0' } : {}),
    },
    body,
  });
  return { status: response.status, body: await response.json() };
}

describe('requests nested thousands of levels: the same refusal, no stack overflow, no -32603', () => {
  it('JSON-RPC: 5,000 levels in a data part and in role (formerly -32603); the id is echoed', async () => {
    const inner = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    const data = `{"jsonrpc":"2.0","id":"x1","method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":${inner(5000)}}]}}}`;
    const role = `{"jsonrpc":"2.0","id":"x2","method":"SendMessage","params":{"message":{"messageId":"m","role":${inner(5000)},"parts":[{"text":"hi"}]}}}`;
    const v10 = WIRE_ROUTES.find((r) => r.name === 'JSONRPC 1.0')!;
    for (const [body, id, at] of [
      [data, 'x1', `/params/message/parts/0/data${'/a'.repeat(MAX - 5)}`],
      [role, 'x2', `/params/message/role${'/a'.repeat(MAX - 3)}`],
    ] as const) {
      const { status, body: answer } = await post(v10, body);
      expect(status).toBe(200);
      const error = (answer as { id: unknown; error: { code: number; message: string } }).error;
      expect((answer as { id: unknown }).id).toBe(id);
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(`${at}: is nested 33 levels deep`);
    }
    expect(server.errors).toEqual([]);
  });

  it('HTTP+JSON: 100,000 nested arrays in the request metadata', async () => {
    const body = `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]},"metadata":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const v10 = WIRE_ROUTES.find((r) => r.name === 'HTTP+JSON 1.0')!;
    const { status, body: answer } = await post(v10, body);
    expect(status).toBe(400);
    expect(JSON.stringify(answer)).toContain(`"field":"/metadata/a${'/0'.repeat(MAX - 2)}"`);
    expect(server.errors).toEqual([]);
  });

  it('gRPC 1.0 and 0.3: 100,000 nested lists in the request metadata, refused at the HTTP+JSON pointer', async () => {
    const list = nestedListValue(100_000);
    for (const version of ['1.0', '0.3'] as const) {
      const send = grpcSchema().services[version].method('sendMessage')!;
      const plain = send.writeRequest({ message: message() });
      // SendMessageRequest.metadata is field 4 in 1.0 and 3 in 0.3; a Struct {a: <list>}.
      const entry = concat(field(1, Buffer.from('a')), field(2, list));
      const struct = field(1, entry);
      const bytes = Buffer.concat([plain, field(version === '1.0' ? 4 : 3, struct)]);
      const outcome = await grpcSendBytes(targets.grpcTarget, version, bytes);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.error.grpcStatus).toBe(3);
      expect(outcome.error.violations[0]?.field).toBe(`/metadata/a${'/0'.repeat(MAX - 2)}`);
    }
    expect(server.errors).toEqual([]);
  });
});

/** A length-delimited field `id` holding `bytes` (protobuf wire format). */
function field(id: number, bytes: Buffer): Buffer {
  return Buffer.concat([varint((id << 3) | 2), varint(bytes.length), bytes]);
}

function concat(...parts: Buffer[]): Buffer {
  return Buffer.concat(parts);
}

function varint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/**
 * A google.protobuf.Value holding `levels` nested ListValues (`[[[...]]]`), written outside-in
 * from precomputed lengths: wrapping inside-out would copy the buffer once per level.
 */
function nestedListValue(levels: number): Buffer {
  // value[i]: length of the Value at depth i (0 outermost); list[i]: of its ListValue.
  const value = new Array<number>(levels + 1).fill(0);
  const list = new Array<number>(levels).fill(0);
  for (let i = levels - 1; i >= 0; i--) {
    const inner = i === levels - 1 ? 0 : value[i + 1]!;
    // ListValue { values (1): Value }, empty for the innermost list.
    list[i] = i === levels - 1 ? 0 : 1 + varint(inner).length + inner;
    value[i] = 1 + varint(list[i]!).length + list[i]!;
  }
  const out = Buffer.alloc(value[0]!);
  let at = 0;
  const write = (bytes: Buffer) => {
    bytes.copy(out, at);
    at += bytes.length;
  };
  for (let i = 0; i < levels; i++) {
    write(Buffer.from([(6 << 3) | 2])); // Value.list_value
    write(varint(list[i]!));
    if (i < levels - 1) {
      write(Buffer.from([(1 << 3) | 2])); // ListValue.values
      write(varint(value[i + 1]!));
    }
  }
  return out;
}

describe('the bound is an option', () => {
  it('maxJsonDepth: 8 serves 8 levels and refuses 9, naming 8, on HTTP+JSON and gRPC', async () => {
    const small = await startEcho({ grpc: true, maxJsonDepth: 8 });
    try {
      const at = { url: small.url, grpcTarget: small.grpc!.target };
      for (const route of WIRE_ROUTES.filter((r) => r.version === '1.0')) {
        const place = PLACES['the message metadata']!;
        expect((await wireSend(at, route, sized(route, place, 8, 8).request)).ok, route.name).toBe(true);
        const over = sized(route, place, 9, 8);
        const refused = await wireSend(at, route, over.request);
        expect(refused.ok).toBe(false);
        if (!refused.ok) expectRefused(refused.error, route, over.past, 8);
      }
    } finally {
      await small.close();
    }
  });

  it('refuses a bound that is not an integer from 1 to 1000', () => {
    for (const maxJsonDepth of [0, -1, 1.5, 1001, Number.NaN]) {
      expect(() => createA2AServer({ ...echoOptions(), maxJsonDepth }), String(maxJsonDepth)).toThrow(
        /maxJsonDepth: expected an integer from 1 to 1000/,
      );
    }
  });

  it('listenGrpc refuses a server whose bound gRPC cannot carry back out (over 40)', async () => {
    const deepServer = createA2AServer({ ...echoOptions(), maxJsonDepth: 41 });
    await expect(listenGrpc(deepServer)).rejects.toThrow(
      /maxJsonDepth 41 is deeper than gRPC can carry back out; use at most 40/,
    );
    await deepServer.close();
  });
});

function echoOptions() {
  return {
    agentCard: {
      name: 'n',
      description: 'd',
      version: '1',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    },
    executor: { execute: () => undefined },
  };
}
