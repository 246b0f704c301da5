/**
 * The gRPC driver of the conformance suite (drivers.ts has the HTTP ones): a raw @grpc/grpc-js
 * client over a real socket that encodes canonical requests with the version's service table and
 * reads answers and google.rpc.Status error details back, so the same scenarios run over gRPC.
 * gRPC streams carry no event ids (A2A 1.0 §10), so `StreamedItem.id` is always undefined here.
 */
import { fileURLToPath } from 'node:url';
import {
  credentials,
  loadPackageDefinition,
  Metadata,
  makeGenericClientConstructor,
  type Client,
  type ClientReadableStream,
  type ServiceClientConstructor,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ERROR_CATALOG, type ProtocolVersion } from '../../src/protocol/internal.js';
import {
  decodeErrorStatus,
  STATUS_DETAILS_KEY,
  type GrpcMethod,
  type GrpcOperation,
} from '../../src/protocol/grpc/index.js';
import { v0_3RestCodec } from '../../src/protocol/v0_3/index.js';
import { v1_0Codec } from '../../src/protocol/v1_0/index.js';
import { grpcSchema } from '../../src/server/grpc/grpc-schema-loader.js';
import type { Driver, Outcome, StreamOutcome, StreamedItem, WireError } from './drivers.js';

const CODE_BY_REASON = new Map(Object.values(ERROR_CATALOG).map((e) => [e.reason, e.code]));

/** A raw client of one version's service at `target`. */
export function grpcClient(
  target: string,
  version: ProtocolVersion,
): { client: Client; method(op: GrpcOperation): GrpcMethod } {
  const service = grpcSchema().services[version];
  const bytes = (b: Buffer): Buffer => b;
  const definition = Object.fromEntries(
    service.methods.map((m) => [
      m.name,
      {
        path: m.path,
        requestStream: false,
        responseStream: m.responseStream,
        requestSerialize: bytes,
        requestDeserialize: bytes,
        responseSerialize: bytes,
        responseDeserialize: bytes,
      },
    ]),
  ) as ServiceDefinition;
  const Ctor = makeGenericClientConstructor(definition, service.name);
  const client = new Ctor(target, credentials.createInsecure());
  return {
    client,
    method: (op) => {
      const m = service.method(op);
      if (m === undefined) throw new Error(`${service.name} has no RPC for ${op}`);
      return m;
    },
  };
}

/** Normalises a gRPC error with its google.rpc.Status details. */
export function grpcWireError(error: ServiceError): WireError {
  const blob = error.metadata?.get(STATUS_DETAILS_KEY)[0];
  const status =
    blob instanceof Buffer
      ? decodeErrorStatus(grpcSchema().status, blob)
      : { code: error.code, message: error.details };
  const reason = 'reason' in status ? status.reason : undefined;
  return {
    httpStatus: 0,
    grpcStatus: error.code,
    code: (reason === undefined ? undefined : CODE_BY_REASON.get(reason)) ?? 0,
    reason,
    message: error.details,
    violations: ('violations' in status ? status.violations : undefined) ?? [],
    body: status,
  };
}

/** The gRPC driver for a version; `metadata` is added to every call. */
export function grpcDriver(
  target: string,
  version: ProtocolVersion,
  metadata: Record<string, string> = {},
): Driver {
  const { client, method } = grpcClient(target, version);
  const codec = version === '1.0' ? v1_0Codec : v0_3RestCodec;
  const md = (): Metadata => {
    const m = new Metadata();
    if (version === '1.0') m.set('a2a-version', '1.0');
    for (const [k, v] of Object.entries(metadata)) m.set(k, v);
    return m;
  };
  function unary<T>(op: GrpcOperation, request: unknown): Promise<Outcome<T>> {
    const m = method(op);
    return new Promise((resolve) => {
      client.makeUnaryRequest(
        m.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        m.writeRequest(request),
        md(),
        (error, value) => {
          if (error !== null) resolve({ ok: false, error: grpcWireError(error) });
          else resolve({ ok: true, value: m.readResult(value as Buffer) as T, httpStatus: 0 });
        },
      );
    });
  }
  function stream(op: GrpcOperation, request: unknown, stopAfter?: number): Promise<StreamOutcome> {
    const m = method(op);
    const call: ClientReadableStream<Buffer> = client.makeServerStreamRequest(
      m.path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      m.writeRequest(request),
      md(),
    );
    const items: StreamedItem[] = [];
    return new Promise((resolve) => {
      let stopped = false;
      call.on('data', (bytes: Buffer) => {
        if (stopped) return;
        items.push({ id: undefined, event: m.readResult(bytes) as StreamedItem['event'] });
        if (stopAfter !== undefined && items.length >= stopAfter) {
          stopped = true;
          call.cancel();
          resolve({ httpStatus: 0, items, closedByServer: false });
        }
      });
      call.on('error', (error: ServiceError) => {
        if (stopped) return;
        stopped = true;
        resolve({ httpStatus: 0, items, closedByServer: true, error: grpcWireError(error) });
      });
      call.on('end', () => {
        if (stopped) return;
        stopped = true;
        resolve({ httpStatus: 0, items, closedByServer: true });
      });
    });
  }
  return {
    name: `gRPC ${version}`,
    version,
    binding: 'GRPC',
    codec,
    send: (message, configuration) =>
      unary('sendMessage', { message, ...(configuration === undefined ? {} : { configuration }) }),
    stream: (message, options = {}) => stream('sendStreamingMessage', { message }, options.stopAfter),
    getTask: (id, historyLength) =>
      unary('getTask', historyLength === undefined ? { id } : { id, historyLength }),
    listTasks: (request) => unary('listTasks', request),
    cancelTask: (id) => unary('cancelTask', { id }),
    subscribe: (id, options = {}) => stream('subscribeToTask', { id }, options.stopAfter),
    close: () => client.close(),
  };
}

/**
 * A client of the 0.3 service built by @grpc/proto-loader from the vendored proto, with the proto
 * field names as written (`keepCase`): requests in the form the kits' and SDKs' stubs send.
 */
export function protoLoaderClient03<T>(target: string): Client & T {
  const protos = fileURLToPath(new URL('../../protos', import.meta.url));
  const pkg = loadPackageDefinition(
    loadSync('a2a/v1/a2a.proto', { includeDirs: [protos], keepCase: true, enums: String }),
  );
  const Ctor = (pkg.a2a as Record<string, Record<string, unknown>>).v1!
    .A2AService as ServiceClientConstructor;
  return new Ctor(target, credentials.createInsecure()) as unknown as Client & T;
}
