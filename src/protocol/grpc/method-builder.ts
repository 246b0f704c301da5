/**
 * What both versions' gRPC service tables (protocol/v1_0, protocol/v0_3) build their rows with:
 * an RPC row in a proto package, and the result mappings every version shares (a task, a stream
 * event, a push config), taken from that version's codec.
 */
import type { WireCodec } from '../codec.js';
import type {
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from '../model.js';
import type { OperationTypes } from '../operation-types.js';
import type { GrpcMethodSpec, GrpcOperation } from './service-spec.js';

/** The four mappings of one RPC, typed by its canonical request and result. */
export interface RpcMaps<Req, Res> {
  decodeRequest(json: unknown): Req;
  encodeRequest(request: Req): unknown;
  encodeResult(result: Res): unknown;
  decodeResult(json: unknown): Res;
}

/**
 * A row builder for a proto package (`lf.a2a.v1.`); types without a dot are in that package. The
 * mappings are typed by the operation's request and result in operation-types.ts.
 */
export function rpcIn(packagePrefix: string) {
  return function rpc<Op extends GrpcOperation>(
    operation: Op,
    name: string,
    requestType: string,
    responseType: string,
    maps: RpcMaps<OperationTypes[Op][0], OperationTypes[Op][1]>,
    responseStream = false,
  ): GrpcMethodSpec<Op> {
    return {
      operation,
      name,
      requestType: packagePrefix + requestType,
      responseType: responseType.includes('.') ? responseType : packagePrefix + responseType,
      responseStream,
      ...(maps as unknown as Pick<
        GrpcMethodSpec<Op>,
        'decodeRequest' | 'encodeRequest' | 'encodeResult' | 'decodeResult'
      >),
    };
  };
}

/** The mappings shared by several RPCs (the send request, common results), from a version's codec. */
export function resultMaps(c: WireCodec) {
  return {
    sendRequest: {
      decodeRequest: (json: unknown) => c.decodeSendMessageRequest(json, ''),
      encodeRequest: (r: SendMessageRequest) => c.encodeSendMessageRequest(r),
    },
    sendResult: {
      encodeResult: (r: SendMessageResponse) => c.encodeSendMessageResponse(r),
      decodeResult: (json: unknown) => c.decodeSendMessageResponse(json, ''),
    },
    stream: {
      encodeResult: (event: StreamResponse) => c.encodeStreamResponse(event),
      decodeResult: (json: unknown) => c.decodeStreamResponse(json, ''),
    },
    task: {
      encodeResult: (t: Task) => c.encodeTask(t),
      decodeResult: (json: unknown) => c.decodeTask(json, ''),
    },
    config: {
      encodeResult: (v: TaskPushNotificationConfig) => c.encodeTaskPushNotificationConfig(v),
      decodeResult: (json: unknown) => c.decodeTaskPushNotificationConfig(json, ''),
    },
  };
}
