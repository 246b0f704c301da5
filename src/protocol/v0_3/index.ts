/**
 * The A2A 0.3 wire codecs: JSON-RPC (`types.ts` shapes with `kind`) and REST (ProtoJSON of the
 * 0.3 proto). Both map to and from the canonical 1.0-shaped model (A2A 1.0 Appendix A.2).
 */
export { v0_3JsonRpcCodec } from './jsonrpc-codec.js';
export { v0_3RestCodec } from './rest-codec.js';
