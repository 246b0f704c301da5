/**
 * The JSON-RPC 2.0 binding, client side (A2A 1.0 §9; A2A 0.3 §7): every operation is a POST of
 * `{jsonrpc, id, method, params}` to the interface URL; the method names per version mirror the
 * server's table (src/server/http/operations.ts). Stream events are full JSON-RPC responses.
 */
import {
  JSON_RPC_METHOD_NAMES,
  v0_3JsonRpcCodec,
  v1_0Codec,
  type ProtocolVersion,
  type SseEvent,
  type StreamResponse,
} from '../../protocol/internal.js';
import { readAnswer, type AnswerReading } from './answer-reading.js';
import { A2ALocalError } from '../client-errors.js';
import type { UnaryOperationName } from '../../protocol/operation-types.js';
import { decodeResult, encodeRequest, type WireBinding, type WirePlan } from './wire-binding.js';
import { jsonRpcError, parseJsonBody } from './wire-errors.js';

let nextRequestId = 1;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON-RPC binding of an interface URL at a version; answers are read per `reading`. */
export function jsonRpcBinding(
  interfaceUrl: string,
  version: ProtocolVersion,
  reading: AnswerReading = {},
): WireBinding {
  const codec = version === '1.0' ? v1_0Codec : v0_3JsonRpcCodec;
  const url = new URL(interfaceUrl);
  return {
    version,
    codec,
    resultPath: ['result'],
    plan(operation, request): WirePlan {
      const method = JSON_RPC_METHOD_NAMES[version][operation];
      if (method === undefined) {
        throw new A2ALocalError(
          'UNSUPPORTED_OPERATION',
          `${operation} does not exist in A2A ${version} JSON-RPC`,
        );
      }
      let params = encodeRequest(codec, operation, request);
      // 0.3 `agent/getAuthenticatedExtendedCard` takes no params (A2A 0.3 §7.10).
      if (operation === 'getExtendedAgentCard' && version === '0.3') params = undefined;
      const body: Record<string, unknown> = { jsonrpc: '2.0', id: nextRequestId++, method };
      if (params !== undefined) body.params = params;
      return { method: 'POST', url, body };
    },
    result(operation: UnaryOperationName, status, json, at) {
      if (!isObject(json))
        throw new A2ALocalError('BAD_RESPONSE', `${at} answered JSON that is not a JSON-RPC response`, {
          httpStatus: status,
          url: at,
        });
      const error = jsonRpcError(status, json);
      if (error !== undefined) throw error;
      if (!('result' in json)) {
        throw new A2ALocalError(
          'BAD_RESPONSE',
          `${at} answered a JSON-RPC response with neither result nor error`,
          { httpStatus: status, url: at },
        );
      }
      return readAnswer(() => decodeResult(codec, operation, json.result, '/result'), at, status, reading);
    },
    error(status, json) {
      return isObject(json) ? jsonRpcError(status, json) : undefined;
    },
    event(event: SseEvent, status): StreamResponse {
      const at = url.href;
      const json = parseJsonBody(event.data, status, at);
      if (!isObject(json))
        throw new A2ALocalError('BAD_RESPONSE', `${at} sent a stream event that is not a JSON-RPC response`, {
          url: at,
        });
      const error = jsonRpcError(status, json);
      if (error !== undefined) throw error;
      return readAnswer(() => codec.decodeStreamResponse(json.result, '/result'), at, status, reading);
    },
  };
}
