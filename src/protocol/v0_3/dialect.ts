/**
 * What differs between the two 0.3 wires for the objects they share (Message, Artifact, Task,
 * events, send parameters): the `kind` discriminators, the Message parts member, enum spellings and
 * Part shapes (A2A 1.0 Appendix A.2.1). Shared encoders and decoders take a Dialect instead of forking.
 */
import { optionalString, readEnum, type JsonObject } from '../decode-kit.js';
import type { Part, Role, TaskState } from '../model.js';
import {
  JSONRPC_ROLE_NAMES,
  JSONRPC_ROLE_OF,
  JSONRPC_STATE_NAMES,
  JSONRPC_STATE_OF,
  REST_ROLE_NAMES,
  REST_ROLE_NUMBERS,
  REST_ROLE_OF,
  REST_STATE_NAMES,
  REST_STATE_NUMBERS,
  REST_STATE_OF,
} from './enums.js';
import { decodeJsonRpcPart, encodeJsonRpcPart } from './jsonrpc-part.js';
import { decodeRestPart, encodeRestPart } from './rest-part.js';
import { optionalProtoString } from './wire-scalars.js';

/** The per-wire differences of the shared 0.3 objects. */
export interface Dialect {
  /** True on the REST wire (ProtoJSON of the 0.3 proto): no `kind`, `""` means unset. */
  readonly proto: boolean;
  /** Message parts member: `parts` (`types.ts`) or `content` (0.3 proto `Message.content`). */
  readonly partsKey: 'parts' | 'content';
  readonly stateOf: Readonly<Record<TaskState, string>>;
  readonly stateNames: Readonly<Record<string, TaskState>>;
  /** Enum numbers, accepted only where ProtoJSON allows them. */
  readonly stateNumbers: readonly (TaskState | undefined)[] | undefined;
  readonly roleOf: Readonly<Record<Role, string>>;
  readonly roleNames: Readonly<Record<string, Role>>;
  readonly roleNumbers: readonly (Role | undefined)[] | undefined;
  encodePart(part: Part): JsonObject;
  decodePart(value: unknown, path: string): Part;
}

/** The 0.3 JSON-RPC wire (`types.ts`). */
export const JSONRPC_DIALECT: Dialect = Object.freeze({
  proto: false,
  partsKey: 'parts',
  stateOf: JSONRPC_STATE_OF,
  stateNames: JSONRPC_STATE_NAMES,
  stateNumbers: undefined,
  roleOf: JSONRPC_ROLE_OF,
  roleNames: JSONRPC_ROLE_NAMES,
  roleNumbers: undefined,
  encodePart: encodeJsonRpcPart,
  decodePart: decodeJsonRpcPart,
});

/** The 0.3 REST wire (ProtoJSON of the 0.3 proto, decision 0008). */
export const REST_DIALECT: Dialect = Object.freeze({
  proto: true,
  partsKey: 'content',
  stateOf: REST_STATE_OF,
  stateNames: REST_STATE_NAMES,
  stateNumbers: REST_STATE_NUMBERS,
  roleOf: REST_ROLE_OF,
  roleNames: REST_ROLE_NAMES,
  roleNumbers: REST_ROLE_NUMBERS,
  encodePart: encodeRestPart,
  decodePart: decodeRestPart,
});

/** Reads a task state in the dialect's spelling (`unknown`/UNSPECIFIED are rejected). */
export function readState(d: Dialect, value: unknown, path: string): TaskState {
  return readEnum(value, path, d.stateNames, d.stateNumbers);
}

/** Reads a role in the dialect's spelling. */
export function readRole(d: Dialect, value: unknown, path: string): Role {
  return readEnum(value, path, d.roleNames, d.roleNumbers);
}

/** Reads an optional string member; on the REST wire `""` is the proto3 default and reads as absent. */
export function optionalText(
  d: Dialect,
  obj: JsonObject,
  key: string,
  path: string,
  alt?: unknown,
): string | undefined {
  return d.proto ? optionalProtoString(obj, key, path, alt) : optionalString(obj, key, path, alt);
}
