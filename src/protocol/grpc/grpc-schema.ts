/**
 * The gRPC binding's wire, both versions (A2A 1.0 §10): for every RPC of `lf.a2a.v1.A2AService`
 * (1.0) and `a2a.v1.A2AService` (0.3), bytes to canonical values and back, through the message
 * descriptors (message-json.ts) and the version's ProtoJSON codec (its service table). Built once
 * from the loaded proto root; servers use the request decoders and result encoders, clients the
 * other two.
 */
import type { Root, Type } from 'protobufjs';
import type { ProtocolVersion } from '../codec.js';
import { A2AError } from '../errors.js';
import { v0_3GrpcService } from '../v0_3/grpc-service.js';
import { v1_0GrpcService } from '../v1_0/grpc-service.js';
import { nestedTooDeep } from '../json-depth.js';
import { jsonToPlain, messageToJson } from './message-json.js';
import { wirePathPastDepth } from './wire-depth.js';
import type { GrpcMethodSpec, GrpcOperation, GrpcServiceSpec } from './service-spec.js';
import type { StatusTypes } from './status-details.js';

/** One RPC with its wire conversions. */
export interface GrpcMethod extends GrpcMethodSpec {
  /** `/package.Service/Method`, the HTTP/2 path of the call. */
  readonly path: string;
  /**
   * Server: request bytes to the canonical request; malformed bytes or bad fields throw A2AError,
   * and so does a message whose ProtoJSON nests deeper than `maxDepth` (decision 0144), checked
   * on the bytes before they are decoded.
   */
  readRequest(bytes: Uint8Array, maxDepth?: number): unknown;
  /** Client: the canonical request to bytes. */
  writeRequest(request: unknown): Buffer;
  /** Server: a canonical result (or stream event) to bytes. */
  writeResult(result: unknown): Buffer;
  /** Client: result bytes to the canonical result (A2AError when the peer's message is malformed). */
  readResult(bytes: Uint8Array): unknown;
}

/** One version's service, ready to serve or call. */
export interface GrpcService {
  readonly version: ProtocolVersion;
  readonly name: string;
  readonly protoFile: string;
  readonly methods: readonly GrpcMethod[];
  /** The RPC carrying an operation, if the version has one (0.3 has no ListTasks). */
  method(operation: GrpcOperation): GrpcMethod | undefined;
}

/** Both services and the google.rpc types for error details. */
export interface GrpcSchema {
  readonly services: Readonly<Record<ProtocolVersion, GrpcService>>;
  readonly status: StatusTypes;
}

/** The service tables, newest first. */
export const GRPC_SERVICE_SPECS: readonly GrpcServiceSpec[] = Object.freeze([
  v1_0GrpcService,
  v0_3GrpcService,
]);

function decodeBytes(type: Type, bytes: Uint8Array, what: string): object {
  try {
    return type.decode(bytes);
  } catch (error) {
    throw new A2AError('InvalidRequestError', `${what} is not a valid ${type.fullName.slice(1)} message`, {
      cause: error,
      metadata: { messageType: type.fullName.slice(1) },
    });
  }
}

function encodeJson(type: Type, json: unknown): Buffer {
  return Buffer.from(type.encode(type.fromObject(jsonToPlain(type, json))).finish());
}

function bindMethod(root: Root, service: string, spec: GrpcMethodSpec): GrpcMethod {
  const request = root.lookupType(spec.requestType);
  const response = root.lookupType(spec.responseType);
  // eslint-disable-next-line no-restricted-syntax -- runs once per method at start-up, and the spread keeps the callbacks' parameter types
  return {
    ...spec,
    path: `/${service}/${spec.name}`,
    readRequest: (bytes, maxDepth) => {
      const past = maxDepth === undefined ? undefined : wirePathPastDepth(request, bytes, maxDepth);
      if (past !== undefined && maxDepth !== undefined) throw nestedTooDeep(past, maxDepth);
      return spec.decodeRequest(
        messageToJson(request, decodeBytes(request, bytes, `The ${spec.name} request`)),
      );
    },
    writeRequest: (value) => encodeJson(request, spec.encodeRequest(value)),
    writeResult: (value) => encodeJson(response, spec.encodeResult(value)),
    readResult: (bytes) =>
      spec.decodeResult(messageToJson(response, decodeBytes(response, bytes, `The ${spec.name} response`))),
  };
}

function bindService(root: Root, spec: GrpcServiceSpec): GrpcService {
  const methods = spec.methods.map((m) => bindMethod(root, spec.service, m));
  const byOperation = new Map(methods.map((m) => [m.operation, m]));
  return {
    version: spec.version,
    name: spec.service,
    protoFile: spec.protoFile,
    methods,
    method: (operation) => byOperation.get(operation),
  };
}

/** Binds both versions' service tables to the descriptors in `root` (loaded from GRPC_PROTO_FILES). */
export function createGrpcSchema(root: Root): GrpcSchema {
  const [v1, v0] = GRPC_SERVICE_SPECS as [GrpcServiceSpec, GrpcServiceSpec];
  return {
    services: { '1.0': bindService(root, v1), '0.3': bindService(root, v0) },
    status: {
      status: root.lookupType('google.rpc.Status'),
      errorInfo: root.lookupType('google.rpc.ErrorInfo'),
      badRequest: root.lookupType('google.rpc.BadRequest'),
    },
  };
}
