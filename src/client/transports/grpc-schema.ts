/**
 * Loads the vendored proto files once per process for the client's gRPC transport (the server has
 * its own loader: the two layers never import each other). protos/README.md names the sources.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import {
  createGrpcSchema,
  GRPC_PROTO_FILES,
  grpcProtoDir,
  type GrpcSchema,
} from '../../protocol/grpc/index.js';

let schema: GrpcSchema | undefined;

const require = createRequire(import.meta.url);

/** The binding's wire for both versions, built on first use. */
export function grpcSchema(): GrpcSchema {
  if (schema !== undefined) return schema;
  // google/api/*.proto import descriptor.proto, which protobufjs ships as JSON but does not register.
  const descriptor = require('protobufjs/google/protobuf/descriptor.json') as {
    nested: { google: { nested: { protobuf: { nested: protobuf.INamespace['nested'] } } } };
  };
  protobuf.common('descriptor', descriptor.nested.google.nested.protobuf.nested ?? {});
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) =>
    target.startsWith('google/protobuf/') ? target : join(grpcProtoDir, target);
  root.loadSync([...GRPC_PROTO_FILES], { keepCase: true });
  root.resolveAll();
  schema = createGrpcSchema(root);
  return schema;
}
