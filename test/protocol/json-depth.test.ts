/**
 * The nesting walks of decision 0144, below the bindings: the JSON walk (HTTP bindings) names
 * the first object or array past the bound in document order, escapes and shortens keys, and
 * survives inputs far deeper than any stack; the protobuf wire walk (gRPC) gives, for any
 * message, the pointer the JSON walk gives for that message's ProtoJSON form — checked on
 * thousands of generated requests of both versions — and survives 100,000 levels too.
 */
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { pathPastDepth, checkJsonDepth, A2AError } from '../../src/protocol/internal.js';
import { quote } from '../../src/protocol/decode-kit.js';
import {
  GRPC_PROTO_FILES,
  grpcProtoDir,
  jsonToPlain,
  messageToJson,
  wirePathPastDepth,
} from '../../src/protocol/grpc/index.js';
import { grpcSchema } from '../../src/server/grpc/grpc-schema-loader.js';

describe('the JSON walk', () => {
  it('passes a value exactly at the bound and names the first object or array past it', () => {
    expect(pathPastDepth({ a: { b: [1] } }, 3)).toBeUndefined();
    expect(pathPastDepth({ a: { b: [1] } }, 2)).toBe('/a/b');
    expect(pathPastDepth({ a: 1, b: [[], { c: {} }] }, 2)).toBe('/b/0');
    // Document order: the first member past the bound, not the deepest.
    expect(pathPastDepth({ x: { y: {} }, z: { w: { v: {} } } }, 2)).toBe('/x/y');
    expect(pathPastDepth('text', 1)).toBeUndefined();
    expect(pathPastDepth({}, 1)).toBeUndefined();
    expect(pathPastDepth([[]], 1)).toBe('/0');
  });

  it('escapes ~ and / (RFC 6901) and shortens a very long key', () => {
    expect(pathPastDepth({ 'a/b': { '~c': {} } }, 2)).toBe('/a~1b/~0c');
    const key = 'k'.repeat(10_000);
    expect(pathPastDepth({ [key]: {} }, 1)).toBe(`/${'k'.repeat(64)}…`);
  });

  it('reads a __proto__ member as data', () => {
    expect(pathPastDepth(JSON.parse('{"__proto__": {"a": {}}}'), 2)).toBe('/__proto__/a');
  });

  it('walks 1,000,000 levels parsed by JSON.parse without overflowing the stack', () => {
    const text = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    // V8's JSON.parse builds this without recursing (decision 0144 measured it).
    const value: unknown = JSON.parse(text);
    expect(pathPastDepth(value, 32)).toBe('/0'.repeat(32));
  });

  it('throws InvalidParamsError with the bound and the pointer', () => {
    let thrown: unknown;
    try {
      checkJsonDepth({ params: { a: { b: {} } } }, 3);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(A2AError);
    const error = thrown as A2AError;
    expect(error.type).toBe('InvalidParamsError');
    expect(error.message).toBe(
      'Invalid parameters: /params/a/b: is nested 4 levels deep; requests may nest objects and arrays at most 3 levels',
    );
    expect(error.violations).toEqual([
      { field: '/params/a/b', description: expect.stringContaining('at most 3 levels') as string },
    ]);
    expect(error.metadata).toEqual({ maxJsonDepth: '3' });
  });

  it('quote() of a value nested too deeply to stringify answers instead of overflowing', () => {
    const value: unknown = JSON.parse(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`);
    expect(quote(value)).toBe('an object nested too deeply to quote');
  });
});

/** A seeded generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A JSON value up to `depth` levels: objects, arrays and scalars, keys with odd characters. */
function jsonValue(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth <= 0 || roll < 0.25) {
    const scalars = [null, true, 3, 'x', ''];
    return scalars[Math.floor(next() * scalars.length)];
  }
  const size = Math.floor(next() * 3) + (roll < 0.4 ? 0 : 1);
  if (roll < 0.6) return Array.from({ length: size }, () => jsonValue(next, depth - 1));
  const keys = ['a', 'b/c', '~d', 'é', 'long-key-'.repeat(9)];
  const out: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) out[keys[Math.floor(next() * keys.length)]!] = jsonValue(next, depth - 1);
  return out;
}

function jsonObject(next: () => number, depth: number): Record<string, unknown> {
  const value = jsonValue(next, depth);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { v: value };
}

/** A SendMessageRequest's ProtoJSON for `version` with generated values wherever Struct or Value go. */
function request(next: () => number, version: '0.3' | '1.0'): Record<string, unknown> {
  const depth = () => Math.floor(next() * 9);
  const parts = Array.from({ length: Math.floor(next() * 3) + 1 }, () => {
    const part: Record<string, unknown> =
      version === '1.0'
        ? next() < 0.5
          ? { data: jsonValue(next, depth()) }
          : { text: 't' }
        : next() < 0.5
          ? { data: { data: jsonObject(next, depth()) } }
          : { text: 't' };
    if (next() < 0.5) part.metadata = jsonObject(next, depth());
    return part;
  });
  const message: Record<string, unknown> = {
    messageId: 'm',
    role: 'ROLE_USER',
    [version === '1.0' ? 'parts' : 'content']: parts,
    extensions: next() < 0.5 ? ['urn:x'] : [],
  };
  if (next() < 0.5) message.metadata = jsonObject(next, depth());
  const out: Record<string, unknown> = { message };
  if (next() < 0.5) out.metadata = jsonObject(next, depth());
  if (next() < 0.3) out.configuration = { acceptedOutputModes: ['text/plain'] };
  return out;
}

function loadRoot(): protobuf.Root {
  grpcSchema(); // registers descriptor.proto with protobufjs, as the server does
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) =>
    target.startsWith('google/protobuf/') ? target : join(grpcProtoDir, target);
  root.loadSync([...GRPC_PROTO_FILES], { keepCase: true });
  root.resolveAll();
  return root;
}

describe('the protobuf wire walk gives the ProtoJSON walk’s answer', () => {
  const root = loadRoot();
  const types = {
    '1.0': root.lookupType('lf.a2a.v1.SendMessageRequest'),
    '0.3': root.lookupType('a2a.v1.SendMessageRequest'),
  };

  for (const version of ['1.0', '0.3'] as const) {
    it(`on 2,000 generated ${version} SendMessageRequests, every bound from 1 to 12`, () => {
      const type = types[version];
      const next = random(version === '1.0' ? 1 : 2);
      let refused = 0;
      for (let i = 0; i < 2000; i++) {
        const bytes = type.encode(type.fromObject(jsonToPlain(type, request(next, version)))).finish();
        // The document the HTTP+JSON binding would see for the same message.
        const json = messageToJson(type, type.decode(bytes));
        for (let max = 1; max <= 12; max++) {
          const expected = pathPastDepth(json, max);
          if (expected !== undefined) refused++;
          expect(
            wirePathPastDepth(type, bytes, max),
            `case ${i}, bound ${max}: ${JSON.stringify(json)}`,
          ).toBe(expected);
        }
      }
      // The generator does reach past the bounds (the check is not vacuous).
      expect(refused).toBeGreaterThan(2000);
    });
  }

  it('walks 100,000 nested lists without recursing, and gives up on malformed bytes', () => {
    const type = types['1.0'];
    const plain = type.encode(type.fromObject(jsonToPlain(type, { message: { messageId: 'm' } }))).finish();
    // metadata (4): Struct { fields (1): { key (1): "a", value (2): Value [[[...]]] } }
    const wrap = (id: number, bytes: Buffer) => Buffer.concat([tagged(id, bytes.length), bytes]);
    const entry = Buffer.concat([wrap(1, Buffer.from('a')), wrap(2, nestedLists(100_000))]);
    const bytes = Buffer.concat([plain, wrap(4, wrap(1, entry))]);
    expect(wirePathPastDepth(type, bytes, 32)).toBe(`/metadata/a${'/0'.repeat(30)}`);
    expect(wirePathPastDepth(type, bytes.subarray(0, bytes.length - 1), 32)).toBeUndefined();
    expect(wirePathPastDepth(type, Buffer.from([0x0f]), 32)).toBeUndefined();
  });
});

function header(length: number): number {
  return 1 + varint(length).length;
}

function tagged(id: number, length: number): Buffer {
  return Buffer.concat([varint((id << 3) | 2), varint(length)]);
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

/** A Value of `levels` nested ListValues, written outside-in from lengths computed inside-out. */
function nestedLists(levels: number): Buffer {
  const value = new Array<number>(levels).fill(0);
  const list = new Array<number>(levels).fill(0);
  for (let i = levels - 1; i >= 0; i--) {
    list[i] = i === levels - 1 ? 0 : header(value[i + 1]!) + value[i + 1]!;
    value[i] = header(list[i]!) + list[i]!;
  }
  const out = Buffer.alloc(value[0]!);
  let at = 0;
  for (let i = 0; i < levels; i++) {
    at += tagged(6, list[i]!).copy(out, at);
    if (i < levels - 1) at += tagged(1, value[i + 1]!).copy(out, at);
  }
  return out;
}
