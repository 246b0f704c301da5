/**
 * The extended card on gRPC, signed like the public card (decision 0149). A gRPC client verifies
 * the JSON it reads back from the message (A2A 1.0 §8.4.1: ProtoJSON), so the card goes through
 * the proto once — members the proto has no field for, and defaults ProtoJSON leaves out, fall
 * away — is signed as it came back, and is sent with its signatures. The server's `decorateCard`
 * does not apply here: what it adds beyond the proto would not reach the client.
 */
import type { Type } from 'protobufjs';
import { jsonToPlain, messageToJson, type GrpcMethod } from '../../protocol/grpc/index.js';
import type { ProtocolVersion } from '../../protocol/index.js';
import type { A2AServer } from '../a2a-server.js';
import { grpcMessageType } from './grpc-schema-loader.js';

function toBytes(type: Type, json: unknown): Buffer {
  return Buffer.from(type.encode(type.fromObject(jsonToPlain(type, json))).finish());
}

/** The extended card as `method`'s response message, signed over what the client will read. */
export async function extendedCardBytes(
  server: A2AServer,
  method: GrpcMethod,
  version: ProtocolVersion,
): Promise<Buffer> {
  const type = grpcMessageType(method.responseType);
  const json = await server.extendedCardJson({
    key: method,
    version,
    decorate: false,
    encode: (card) => messageToJson(type, type.decode(toBytes(type, method.encodeResult(card)))),
  });
  return toBytes(type, json);
}
