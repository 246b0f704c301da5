/**
 * Where the vendored proto files are (`protos/` at the package root, shipped with the package;
 * protos/README.md names their sources, commits and licences) and which of them the gRPC binding
 * loads. Computing a path is all this does: the server and the client read the files.
 */
import { fileURLToPath } from 'node:url';

/** The proto files the binding loads, relative to `grpcProtoDir`. */
export const GRPC_PROTO_FILES: readonly string[] = Object.freeze([
  'lf/a2a/v1/a2a.proto',
  'a2a/v1/a2a.proto',
  'google/rpc/status.proto',
  'google/rpc/error_details.proto',
]);

/** The absolute path of the vendored `protos/` folder (src/protocol/grpc and dist/protocol/grpc alike). */
export const grpcProtoDir: string = fileURLToPath(new URL('../../../protos/', import.meta.url));
