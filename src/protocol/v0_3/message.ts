/**
 * Message and Artifact on both 0.3 wires (digest §1.2). JSON-RPC: `kind:"message"` and `parts`;
 * REST (0.3 proto): no `kind` and **`content`** instead of `parts`. Artifacts use `parts` on both.
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
import type { Artifact, Message, Part } from '../model.js';
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

/** Decodes a message; `parts` (JSON-RPC) or `content` (REST) must hold at least one part. */
export function decodeMessage(d: Dialect, value: unknown, path: string): Message {
  const obj = readObject(value, path);
  if (!d.proto) readKind(obj, path, ['message']);
  const message: Message = {
    messageId: requiredNonEmptyString(obj, 'messageId', path, obj.message_id),
    role: readRole(d, requiredValue(obj, 'role', path), pointer(path, 'role')),
    parts: requiredArray(obj, d.partsKey, path, d.decodePart),
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
