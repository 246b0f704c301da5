/**
 * Loads the vendored proto files once per process (protos/README.md names their sources): the
 * descriptors the wire conversions run on, and the proto-loader package definition that server
 * reflection describes (the A2A services and grpc.health.v1), made linkable for strict clients.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import protobuf from 'protobufjs';
import {
  createGrpcSchema,
  GRPC_PROTO_FILES,
  grpcProtoDir,
  type GrpcSchema,
} from '../../protocol/grpc/index.js';

import { linkableDescriptors } from './reflection-descriptors.js';

let schema: GrpcSchema | undefined;
let root: protobuf.Root | undefined;
let reflection: protoLoader.PackageDefinition | undefined;

const require = createRequire(import.meta.url);

/** The binding's wire for both versions, built on first use. */
export function grpcSchema(): GrpcSchema {
  if (schema !== undefined) return schema;
  // google/api/*.proto import descriptor.proto, which protobufjs ships as JSON but does not register.
  const descriptor = require('protobufjs/google/protobuf/descriptor.json') as {
    nested: { google: { nested: { protobuf: { nested: protobuf.INamespace['nested'] } } } };
  };
  protobuf.common('descriptor', descriptor.nested.google.nested.protobuf.nested ?? {});
  const loaded = new protobuf.Root();
  loaded.resolvePath = (_origin, target) =>
    target.startsWith('google/protobuf/') ? target : join(grpcProtoDir, target);
  loaded.loadSync([...GRPC_PROTO_FILES], { keepCase: true });
  loaded.resolveAll();
  root = loaded;
  schema = createGrpcSchema(loaded);
  return schema;
}

/** A message type of the loaded protos by its full name (e.g. `lf.a2a.v1.AgentCard`). */
export function grpcMessageType(fullName: string): protobuf.Type {
  grpcSchema();
  return root!.lookupType(fullName);
}

/** What server reflection describes: the A2A services of both versions and the health service. */
export function reflectionPackage(): protoLoader.PackageDefinition {
  if (reflection !== undefined) return reflection;
  grpcSchema();
  const pkg = protoLoader.loadSync(['lf/a2a/v1/a2a.proto', 'a2a/v1/a2a.proto', healthProtoPath], {
    includeDirs: [grpcProtoDir],
  });
  reflection = linkableDescriptors(pkg, root!);
  return reflection;
}
