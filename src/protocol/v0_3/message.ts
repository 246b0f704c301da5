/**
 * Message and Artifact on both 0.3 wires (A2A 0.3 §6.4-§6.7). JSON-RPC: `kind:"message"` and `parts`;
 * REST (0.3 proto): no `kind` and **`content`** instead of `parts` (`parts` read too, decision 0143).
 * Artifacts use `parts` on both.
 */
import {
  optionalObject,
  optionalStringArray,
  pointer,
  readObject,
  requiredArray,
  requiredNonEmptyString,
  type JsonObject,
} from '../decode-kit.js';
import { invalidParams } from '../errors.js';
import type { Artifact, Message, Part, Role } from '../model.js';
import { optionalText, readRole, type Dialect } from './dialect.js';
import { readKind, requiredValue } from './wire-scalars.js';

/** Encodes a list of parts in the dialect's Part shape. */
export function encodeParts(d: Dialect, parts: readonly Part[]): JsonObject[] {
  const out = new Array<JsonObject>(parts.length);
  for (let i = 0; i < parts.length; i++) out[i] = d.encodePart(parts[i] as Part);
  return out;
}

/**
 * Encodes a message. The 0.3 proto Message has no `referenceTaskIds`, so the REST wire drops it:
 * ProtoJSON parsers reject unknown fields by default, and one extra field would fail the whole call.
 */
export function encodeMessage(d: Dialect, message: Message): JsonObject {
  const parts = encodeParts(d, message.parts);
  const role = d.roleOf[message.role] ?? message.role; // unknown: as it came (decision 0136)
  const out: JsonObject = d.proto
    ? { messageId: message.messageId, role, content: parts }
    : { kind: 'message', messageId: message.messageId, role, parts };
  if (message.contextId !== undefined) out.contextId = message.contextId;
  if (message.taskId !== undefined) out.taskId = message.taskId;
  if (message.referenceTaskIds !== undefined && !d.proto) out.referenceTaskIds = message.referenceTaskIds;
  if (message.extensions !== undefined) out.extensions = message.extensions;
  if (message.metadata !== undefined) out.metadata = message.metadata;
  return out;
}

/**
 * The member holding a REST message's parts: `content` (v0.3.0 proto) or `parts`, the name the
 * later 0.3.x proto copies in the SDKs give the same field 5 (what the 0.3 kit sends, decision
 * 0143). Both present is ambiguous and refused at `/parts`.
 */
function restPartsKey(obj: JsonObject, path: string): string {
  if (obj.parts === undefined || obj.parts === null) return 'content';
  if (obj.content === undefined || obj.content === null) return 'parts';
  throw invalidParams(
    pointer(path, 'parts'),
    'duplicates content: the 0.3 proto field 5 may be sent as content or as parts, not both',
  );
}

/**
 * A ProtoJSON role left out, or sent as the proto3 default `ROLE_UNSPECIFIED` (0): what a 0.3
 * REST or gRPC client sends when it does not set one (decision 0143).
 */
function isUnsetProtoRole(value: unknown): boolean {
  return value === undefined || value === null || value === 'ROLE_UNSPECIFIED' || value === 0;
}

/**
 * Decodes a message; `parts` (JSON-RPC) or `content`/`parts` (REST) must hold at least one part.
 * `unsetRole` is the role an unset ProtoJSON role reads as: given only for a message a client
 * sends in a request (decision 0143); elsewhere an unset role is refused.
 */
export function decodeMessage(d: Dialect, value: unknown, path: string, unsetRole?: Role): Message {
  const obj = readObject(value, path);
  if (!d.proto) readKind(obj, path, ['message']);
  const roleValue = obj.role;
  const role =
    d.proto && unsetRole !== undefined && isUnsetProtoRole(roleValue)
      ? unsetRole
      : readRole(d, requiredValue(obj, 'role', path), pointer(path, 'role'));
  const message: Message = {
    messageId: requiredNonEmptyString(obj, 'messageId', path, obj.message_id),
    role,
    parts: requiredArray(obj, d.proto ? restPartsKey(obj, path) : d.partsKey, path, d.decodePart),
  };
  const contextId = optionalText(d, obj, 'contextId', path, obj.context_id);
  if (contextId !== undefined) message.contextId = contextId;
  const taskId = optionalText(d, obj, 'taskId', path, obj.task_id);
  if (taskId !== undefined) message.taskId = taskId;
  // Read on both wires: `types.ts` has it, and a REST peer sending it loses nothing by our reading it.
  const referenceTaskIds = optionalStringArray(obj, 'referenceTaskIds', path, obj.reference_task_ids);
  if (referenceTaskIds !== undefined) message.referenceTaskIds = referenceTaskIds;
  const extensions = optionalStringArray(obj, 'extensions', path);
  if (extensions !== undefined) message.extensions = extensions;
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) message.metadata = metadata;
  return message;
}

/** Encodes an artifact (same members on both wires; only the Part shape differs). */
export function encodeArtifact(d: Dialect, artifact: Artifact): JsonObject {
  const out: JsonObject = { artifactId: artifact.artifactId };
  if (artifact.name !== undefined) out.name = artifact.name;
  if (artifact.description !== undefined) out.description = artifact.description;
  out.parts = encodeParts(d, artifact.parts);
  if (artifact.metadata !== undefined) out.metadata = artifact.metadata;
  if (artifact.extensions !== undefined) out.extensions = artifact.extensions;
  return out;
}

/** Decodes an artifact; `parts` must hold at least one part. */
export function decodeArtifact(d: Dialect, value: unknown, path: string): Artifact {
  const obj = readObject(value, path);
  const artifact: Artifact = {
    artifactId: requiredNonEmptyString(obj, 'artifactId', path, obj.artifact_id),
    parts: requiredArray(obj, 'parts', path, d.decodePart),
  };
  const name = optionalText(d, obj, 'name', path);
  if (name !== undefined) artifact.name = name;
  const description = optionalText(d, obj, 'description', path);
  if (description !== undefined) artifact.description = description;
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) artifact.metadata = metadata;
  const extensions = optionalStringArray(obj, 'extensions', path);
  if (extensions !== undefined) artifact.extensions = extensions;
  return artifact;
}
