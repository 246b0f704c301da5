/** Picks the wire codec for a binding and negotiated version (A2A 1.0 §5.5). */
import type { ProtocolVersion, WireCodec } from '../../protocol/internal.js';
import { v0_3JsonRpcCodec, v0_3RestCodec } from '../../protocol/v0_3/index.js';
import { v1_0Codec } from '../../protocol/v1_0/index.js';

/** The codec for JSON-RPC bodies. */
export function jsonRpcCodec(version: ProtocolVersion): WireCodec {
  return version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec;
}

/** The codec for HTTP+JSON bodies (0.3 REST is ProtoJSON of the 0.3 proto, decision 0008). */
export function restCodec(version: ProtocolVersion): WireCodec {
  return version === '1.0' ? v1_0Codec : v0_3RestCodec;
}
