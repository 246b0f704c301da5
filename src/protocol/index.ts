/**
 * Public entry of the protocol layer: the canonical model, the error table, the wire codecs and
 * the JSON-RPC / SSE / version helpers. Pure: no I/O.
 */
export * from './model.js';
export * from './agent-card.js';
export * from './errors.js';
export * from './codec.js';
export {
  pointer,
  readObject,
  requiredString,
  requiredNonEmptyString,
  optionalString,
  optionalBoolean,
  optionalInteger,
  optionalObject,
  optionalStringArray,
  requiredArray,
  optionalArray,
  readEnum,
  readTimestamp,
  readLiberally,
  protoNameOf,
  type JsonObject,
  type ReadWarning,
} from './decode-kit.js';
export * from './json-rpc.js';
export {
  checkJsonDepth,
  checkMaxJsonDepth,
  DEFAULT_MAX_JSON_DEPTH,
  GRPC_MAX_JSON_DEPTH,
  MAX_JSON_DEPTH_CEILING,
  nestedTooDeep,
  pathPastDepth,
} from './json-depth.js';
export * from './sse.js';
export * from './version.js';
export * from './operation-names.js';
export * from './error-envelopes.js';
export * from './error-tables.js';
export { v1_0Codec } from './v1_0/index.js';
export { v0_3JsonRpcCodec, v0_3RestCodec } from './v0_3/index.js';
