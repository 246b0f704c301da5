/**
 * The A2A operations as data: how each one's parameters are decoded, which handler method runs
 * it, and how its result is encoded. Both bindings (JSON-RPC and REST) dispatch through this
 * table, so they stay functionally equivalent (A2A 1.0 §5.1; conformance rule 8 in
 * src/check/rules.ts).
 */
import type { OperationName, ProtocolVersion, WireCodec } from '../../protocol/internal.js';
import type { CallContext } from '../call-context.js';
import type { EventStream, RequestHandler } from '../request-handler.js';
import type { HttpRequest } from './http-types.js';
import { encodeTaskAnswer } from './task-body.js';

/** Operation names, spelled as the spec spells them (house style rule 3). */
export type { OperationName };

/** Extra transport facts an operation may need. */
export interface InvokeExtras {
  lastEventId?: string;
}

/** How a unary operation runs and encodes its result. */
export interface UnaryRun {
  invoke(handler: RequestHandler, request: never, call: CallContext): Promise<unknown>;
  encode(codec: WireCodec, result: never, call: CallContext): unknown;
}

/** A unary operation: decode, run, encode. */
export interface UnaryOperation extends UnaryRun {
  streaming: false;
  decode(codec: WireCodec, params: unknown, path: string): { tenant?: string };
  /**
   * How the HTTP bindings run it instead, where their answer may be written in pieces as it is
   * read (decision 0172); gRPC's answer is one message and runs `invoke`.
   */
  http?: UnaryRun;
}

/** A streaming operation: decode, run, then each item is encoded with `encodeStreamResponse`. */
export interface StreamingOperation {
  streaming: true;
  decode(codec: WireCodec, params: unknown, path: string): { tenant?: string };
  invoke(
    handler: RequestHandler,
    request: never,
    call: CallContext,
    extras: InvokeExtras,
  ): Promise<EventStream>;
}

/** One row of the table. */
export type Operation = UnaryOperation | StreamingOperation;

const u = <Req extends { tenant?: string }, Res, HttpRes = Res>(op: {
  decode(codec: WireCodec, params: unknown, path: string): Req;
  invoke(handler: RequestHandler, request: Req, call: CallContext): Promise<Res>;
  encode(codec: WireCodec, result: Res, call: CallContext): unknown;
  http?: {
    invoke(handler: RequestHandler, request: Req, call: CallContext): Promise<HttpRes>;
    encode(codec: WireCodec, result: HttpRes, call: CallContext): unknown;
  };
}): UnaryOperation => ({ streaming: false, ...op }) as unknown as UnaryOperation;

const s = <Req extends { tenant?: string }>(op: {
  decode(codec: WireCodec, params: unknown, path: string): Req;
  invoke(
    handler: RequestHandler,
    request: Req,
    call: CallContext,
    extras: InvokeExtras,
  ): Promise<EventStream>;
}): StreamingOperation => ({ streaming: true, ...op }) as unknown as StreamingOperation;

/** The table. */
export const OPERATIONS: Readonly<Record<OperationName, Operation>> = {
  sendMessage: u({
    decode: (c, p, at) => c.decodeSendMessageRequest(p, at),
    invoke: (h, r, call) => h.sendMessage(r, call),
    encode: (c, r) => c.encodeSendMessageResponse(r),
  }),
  sendStreamingMessage: s({
    decode: (c, p, at) => c.decodeSendMessageRequest(p, at),
    invoke: (h, r, call) => h.sendStreamingMessage(r, call),
  }),
  getTask: u({
    decode: (c, p, at) => c.decodeGetTaskRequest(p, at),
    invoke: (h, r, call) => h.getTask(r, call),
    encode: (c, r) => c.encodeTask(r),
    // A large task is written as it is read (decision 0172).
    http: { invoke: (h, r, call) => h.readTask(r, call), encode: (c, r) => encodeTaskAnswer(c, r) },
  }),
  listTasks: u({
    decode: (c, p, at) => c.decodeListTasksRequest(p, at),
    invoke: (h, r, call) => h.listTasks(r, call),
    encode: (c, r) => c.encodeListTasksResponse(r),
  }),
  cancelTask: u({
    decode: (c, p, at) => c.decodeCancelTaskRequest(p, at),
    invoke: (h, r, call) => h.cancelTask(r, call),
    encode: (c, r) => c.encodeTask(r),
  }),
  subscribeToTask: s({
    decode: (c, p, at) => c.decodeSubscribeToTaskRequest(p, at),
    invoke: (h, r, call, x) => h.subscribeToTask(r, call, x.lastEventId),
  }),
  createTaskPushNotificationConfig: u({
    decode: (c, p, at) => c.decodeTaskPushNotificationConfig(p, at),
    invoke: (h, r, call) => h.createTaskPushNotificationConfig(r, call),
    encode: (c, r) => c.encodeTaskPushNotificationConfig(r),
  }),
  getTaskPushNotificationConfig: u({
    decode: (c, p, at) => c.decodeTaskPushNotificationConfigRef(p, at),
    invoke: (h, r, call) => h.getTaskPushNotificationConfig(r, call),
    encode: (c, r) => c.encodeTaskPushNotificationConfig(r),
  }),
  listTaskPushNotificationConfigs: u({
    decode: (c, p, at) => c.decodeListTaskPushNotificationConfigsRequest(p, at),
    invoke: (h, r, call) => h.listTaskPushNotificationConfigs(r, call),
    encode: (c, r) => c.encodeListTaskPushNotificationConfigsResponse(r),
  }),
  deleteTaskPushNotificationConfig: u({
    decode: (c, p, at) => c.decodeTaskPushNotificationConfigRef(p, at),
    invoke: (h, r, call) => h.deleteTaskPushNotificationConfig(r, call),
    // 1.0 returns Empty, 0.3 returns null (decision 0086).
    encode: (_c, _r, call) => (call.version === '1.0' ? {} : null),
  }),
  getExtendedAgentCard: u({
    decode: (_c, p) =>
      typeof p === 'object' && p !== null && typeof (p as { tenant?: unknown }).tenant === 'string'
        ? { tenant: (p as { tenant: string }).tenant }
        : {},
    invoke: (h, r, call) => h.getExtendedAgentCard(r, call),
    encode: (c, r) => c.encodeAgentCard(r),
  }),
};

/** Writes the extended card in a binding's wire form, signed as served (A2AServer, decision 0149). */
export type CardRenderer = (
  codec: WireCodec,
  version: ProtocolVersion,
  request: HttpRequest,
) => Promise<unknown>;

/**
 * A unary result as the binding sends it: the operation's encoding, except for the extended card,
 * which `renderCard` writes (decorated and signed like the public card) when the server gives one.
 */
export function encodeUnary(
  name: OperationName,
  operation: UnaryRun,
  codec: WireCodec,
  result: unknown,
  call: CallContext,
  request: HttpRequest,
  renderCard: CardRenderer | undefined,
): unknown {
  if (name === 'getExtendedAgentCard' && renderCard !== undefined)
    return renderCard(codec, call.version, request);
  return operation.encode(codec, result as never, call);
}

/** Runs a streaming operation, passing `Last-Event-ID` on for resumption (A2A 1.0 §9.4.2, §11.7). */
export function invokeStream(
  operation: StreamingOperation,
  handler: RequestHandler,
  params: unknown,
  call: CallContext,
  request: HttpRequest,
): Promise<EventStream> {
  const lastEventId = request.header('last-event-id');
  return operation.invoke(handler, params as never, call, lastEventId === undefined ? {} : { lastEventId });
}
