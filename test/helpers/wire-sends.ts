/**
 * One canonical SendMessageRequest sent over each of the six bindings (JSON-RPC, HTTP+JSON, gRPC
 * x 0.3, 1.0) as that binding's wire carries it, with the wire document it became: tests that
 * judge where in a request something is (a JSON Pointer) compute it from that document. Errors
 * come back normalised (drivers.ts WireError), whatever envelope carried them.
 */
import { Metadata } from '@grpc/grpc-js';
import type {
  ProtocolVersion,
  SendMessageRequest,
  SendMessageResponse,
  WireCodec,
} from '../../src/protocol/internal.js';
import { v0_3JsonRpcCodec, v0_3RestCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { jsonRpcWireError, restWireError, type WireError } from './drivers.js';
import { grpcSchema } from '../../src/server/grpc/grpc-schema-loader.js';
import { grpcClient, grpcWireError } from './grpc-driver.js';

/** A binding and version. */
export interface WireRoute {
  name: string;
  binding: 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
  version: ProtocolVersion;
}

/** All six, JSON-RPC first. */
export const WIRE_ROUTES: readonly WireRoute[] = (['JSONRPC', 'HTTP+JSON', 'GRPC'] as const).flatMap(
  (binding) =>
    (['0.3', '1.0'] as const).map((version) => ({ name: `${binding} ${version}`, binding, version })),
);

/** What a send gave: the answer or the error, and the document the request was on the wire. */
export type WireSend = { document: unknown } & (
  { ok: true; value: SendMessageResponse } | { ok: false; error: WireError }
);

/** Where the servers under test listen. */
export interface WireTargets {
  url: string;
  grpcTarget: string;
}

function codecOf(route: WireRoute): WireCodec {
  if (route.version === '1.0') return v1_0Codec;
  return route.binding === 'JSONRPC' ? v0_3JsonRpcCodec : v0_3RestCodec;
}

/**
 * The document `request` is on `route`'s wire: the JSON-RPC body, the HTTP+JSON body, or the
 * ProtoJSON form of the gRPC message (the version's ProtoJSON codec, which the gRPC binding
 * shares with HTTP+JSON).
 */
export function wireDocument(route: WireRoute, request: SendMessageRequest): unknown {
  const params = codecOf(route).encodeSendMessageRequest(request);
  if (route.binding !== 'JSONRPC') return params;
  return {
    jsonrpc: '2.0',
    id: 7,
    method: route.version === '1.0' ? 'SendMessage' : 'message/send',
    params,
  };
}

/** Sends `request` over `route`. */
export async function wireSend(
  targets: WireTargets,
  route: WireRoute,
  request: SendMessageRequest,
): Promise<WireSend> {
  const document = wireDocument(route, request);
  if (route.binding === 'GRPC') return { document, ...(await grpcSend(targets.grpcTarget, route, request)) };
  const codec = codecOf(route);
  const path =
    route.binding === 'JSONRPC' ? '' : route.version === '1.0' ? './message:send' : './v1/message:send';
  const response = await fetch(new URL(path, targets.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(route.version === '1.0' ? { 'a2a-version': '1.0' } : {}),
    },
    body: JSON.stringify(document),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (route.binding === 'JSONRPC') {
    if ('error' in body) return { document, ok: false, error: jsonRpcWireError(response.status, body) };
    return { document, ok: true, value: codec.decodeSendMessageResponse(body.result, '/result') };
  }
  if (response.status !== 200) return { document, ok: false, error: restWireError(response.status, body) };
  return { document, ok: true, value: codec.decodeSendMessageResponse(body, '') };
}

function grpcSend(
  target: string,
  route: WireRoute,
  request: SendMessageRequest,
): Promise<{ ok: true; value: SendMessageResponse } | { ok: false; error: WireError }> {
  const send = grpcSchema().services[route.version].method('sendMessage')!;
  return grpcSendBytes(target, route.version, send.writeRequest(request));
}

/** Sends raw SendMessage request bytes to the version's gRPC service. */
export function grpcSendBytes(
  target: string,
  version: ProtocolVersion,
  bytes: Buffer,
): Promise<{ ok: true; value: SendMessageResponse } | { ok: false; error: WireError }> {
  const { client, method } = grpcClient(target, version);
  const send = method('sendMessage');
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      send.path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      new Metadata(),
      (error, value) => {
        client.close();
        if (error !== null) resolve({ ok: false, error: grpcWireError(error) });
        else resolve({ ok: true, value: send.readResult(value as Buffer) as SendMessageResponse });
      },
    );
  });
}

/** `{deep: {d: {d: ... 1}}}`: `levels` objects, the outermost keyed `deep` where it sits. */
export function nested(levels: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let i = 1; i < levels; i++) value = { d: value };
  return { deep: value };
}

/** The pointer and level (the document being level 1) of the first object with a `deep` member. */
export function locateNested(
  document: unknown,
  path = '',
  level = 1,
): { path: string; level: number } | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  if (!Array.isArray(document) && Object.hasOwn(document, 'deep')) return { path, level };
  for (const [key, item] of Object.entries(document)) {
    const found = locateNested(item, `${path}/${key}`, level + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
