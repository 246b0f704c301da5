/**
 * What a version's gRPC service looks like to Concord (A2A 1.0 §10): its fully qualified name, and
 * per RPC the operation it carries (spelled as everywhere else, house style rule 3), its message
 * types, whether it streams, and how its ProtoJSON maps to the canonical model. Each version
 * declares its table in its own folder (protocol/v1_0, protocol/v0_3); nothing here knows either.
 */
import type { ProtocolVersion } from '../codec.js';
import type { OperationName } from '../operation-names.js';

/** The A2A operations, by the spec's names (the protocol's one list, operation-names.ts). */
export type GrpcOperation = OperationName;

/** One RPC. The four mappings take and give ProtoJSON on the wire side, canonical values on ours. */
export interface GrpcMethodSpec<Op extends GrpcOperation = GrpcOperation> {
  readonly operation: Op;
  /** The RPC name in the proto (`SendMessage`, 0.3 `TaskSubscription`...). */
  readonly name: string;
  /** Fully qualified request and response message names. */
  readonly requestType: string;
  readonly responseType: string;
  /** Server streaming (`stream StreamResponse`). */
  readonly responseStream: boolean;
  /** Server side: the request's ProtoJSON to the canonical request (strict, InvalidParamsError). */
  decodeRequest(json: unknown): unknown;
  /** Client side: the canonical request to ProtoJSON. */
  encodeRequest(request: unknown): unknown;
  /** Server side: the canonical result (or one stream event) to ProtoJSON. */
  encodeResult(result: unknown): unknown;
  /** Client side: ProtoJSON to the canonical result (or stream event). */
  decodeResult(json: unknown): unknown;
}

/**
 * A version's RPCs keyed by the operation each carries, whose row must name that same operation.
 * A record over `Ops`: an operation added to `OperationName` is a compile error in every version's
 * table until it has a row there (issue 24; CONTRIBUTING "Checklist: add an operation").
 */
export type GrpcMethodTable<Ops extends GrpcOperation> = { readonly [Op in Ops]: GrpcMethodSpec<Op> };

/**
 * The table of a version whose proto lacks some operations (0.3 has no ListTasks): those are
 * named in `Missing`, so a new operation needs a row or a deliberate place in that list.
 */
export type GrpcMethodTableWithout<Missing extends GrpcOperation> = GrpcMethodTable<
  Exclude<GrpcOperation, Missing>
>;

/** One version's service. */
export interface GrpcServiceSpec {
  readonly version: ProtocolVersion;
  /** Fully qualified service name (`lf.a2a.v1.A2AService`). */
  readonly service: string;
  /** The proto file declaring it, relative to the vendored `protos/` folder. */
  readonly protoFile: string;
  readonly methods: readonly GrpcMethodSpec[];
}
