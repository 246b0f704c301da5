/**
 * Internal entry of the protocol layer (decision 0155): everything the public entry offers, plus what the CLI,
 * other layers and the tests use but a user of the package does not. package.json does not export
 * it, so it is not part of the public surface; scripts/boundaries.mjs lets the layers that reach
 * others through entries only import it.
 */
export * from './index.js';
export { isKnownRole } from './model.js';
export { appendArtifactChunk } from './artifact-chunks.js';
export { taskNotFound, invalidParams, toA2AError } from './errors.js';
export { type WireDialect, type WireCodec } from './codec.js';
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
export {
  parseJsonRpcRequest,
  validateJsonRpcRequest,
  jsonRpcResult,
  jsonRpcResultAround,
  jsonRpcError,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcErrorObject,
  JsonRpcEnvelopeError,
} from './json-rpc.js';
export {
  checkJsonDepth,
  checkMaxJsonDepth,
  DEFAULT_MAX_JSON_DEPTH,
  GRPC_MAX_JSON_DEPTH,
  MAX_JSON_DEPTH_CEILING,
  nestedTooDeep,
  pathPastDepth,
} from './json-depth.js';
export { encodeSseEvent, encodeSseComment, type SseEvent, SseDecoder } from './sse.js';
export { negotiateVersion } from './version.js';
export { type OperationName, JSON_RPC_METHOD_NAMES, JSON_RPC_OPERATIONS } from './operation-names.js';
export {
  errorDetails,
  toJsonRpcErrorObject,
  toVersionedRestErrorBody,
  toRestErrorBody,
  errorTypeForCode,
} from './error-envelopes.js';
export { v1_0Codec } from './v1_0/index.js';
export { v0_3JsonRpcCodec, v0_3RestCodec } from './v0_3/index.js';
export {
  type GrpcStatusName,
  type ErrorCatalogEntry,
  CONCORD_ERROR_DOMAIN,
  ERROR_CATALOG,
} from './errors.js';
export { TERMINAL_STATES, INTERRUPTED_STATES } from './model.js';
export { A2A_ERROR_DOMAIN } from './errors.js';
export { JsonSplitter, type SplitElement } from './json-split.js';
