/**
 * The gRPC binding's protocol side (A2A 1.0 §10), shared by the server (src/server/grpc) and the
 * client (src/client/transports/grpc-binding.ts): the service tables of both versions bound to the loaded
 * descriptors, the ProtoJSON bridge, and A2A errors as google.rpc.Status. Pure: callers load the
 * vendored proto files themselves.
 */
export { GRPC_PROTO_FILES, grpcProtoDir } from './proto-files.js';
export {
  createGrpcSchema,
  GRPC_SERVICE_SPECS,
  type GrpcMethod,
  type GrpcSchema,
  type GrpcService,
} from './grpc-schema.js';
export type { GrpcMethodSpec, GrpcOperation, GrpcServiceSpec } from './service-spec.js';
export { jsonToPlain, messageToJson } from './message-json.js';
export { wirePathPastDepth } from './wire-depth.js';
export {
  decodeErrorStatus,
  encodeErrorStatus,
  GRPC_STATUS_CODES,
  STATUS_DETAILS_KEY,
  type DecodedStatus,
  type EncodedStatus,
  type StatusTypes,
} from './status-details.js';
