/**
 * `Part` and `Message` on the 1.0 wire (A2A 1.0 §4.1.4, §4.1.6). The canonical model already has
 * this shape; encoders still build fresh objects so that nothing unknown (a 0.3 `kind`, a stray
 * member from an executor) ever reaches the wire.
 */
import { invalidParams } from '../errors.js';
import { readObject, requiredNonEmptyString, type JsonObject } from '../decode-kit.js';
import type { Message, Part } from '../model.js';
import { ROLE_NAMES, ROLE_NUMBERS } from './enums.js';
import {
  isSet,
  objectValue,
  protoStringValue,
  readBase64,
  requiredEnumValue,
  requiredListValue,
  stringListValue,
  stringValue,
} from './proto-json.js';

const PART_CONTENT = 'text, raw, url, data';

/**
 * Decodes a Part: exactly one of `text`, `raw`, `url`, `data` (the `content` oneof). `data` is a
 * `google.protobuf.Value`, so an explicit `null` is a set (null) value there; elsewhere null is absent.
 */
export function decodePart(value: unknown, path: string): Part {
  const obj = readObject(value, path);
  const part: Part = {};
  let members = 0;
  const text = stringValue(obj.text, path, 'text');
  if (text !== undefined) {
    part.text = text;
    members++;
  }
  if (isSet(obj.raw)) {
    part.raw = readBase64(obj.raw, `${path}/raw`);
    members++;
  }
  const url = stringValue(obj.url, path, 'url');
  if (url !== undefined) {
    part.url = url;
    members++;
  }
  if (obj.data !== undefined) {
    part.data = obj.data;
    members++;
  }
  if (members !== 1) {
    throw invalidParams(
      path,
      members === 0
        ? `must set exactly one of ${PART_CONTENT}; none is set`
        : `must set exactly one of ${PART_CONTENT}; ${members} are set`,
    );
  }
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) part.metadata = metadata;
  const filename = protoStringValue(obj.filename, path, 'filename');
  if (filename !== undefined) part.filename = filename;
  const mediaType = protoStringValue(obj.mediaType, path, 'mediaType', obj.media_type);
  if (mediaType !== undefined) part.mediaType = mediaType;
  return part;
}

/** Encodes a Part; only the first set content member is written, so the oneof always holds. */
export function encodePart(part: Part): JsonObject {
  const out: JsonObject = {};
  if (part.text !== undefined) out.text = part.text;
  else if (part.raw !== undefined) out.raw = part.raw;
  else if (part.url !== undefined) out.url = part.url;
  else if (part.data !== undefined) out.data = part.data;
  if (part.metadata !== undefined) out.metadata = part.metadata;
  // Empty strings are the proto3 default of these implicit-presence fields: omitted (ProtoJSON).
  if (part.filename) out.filename = part.filename;
  if (part.mediaType) out.mediaType = part.mediaType;
  return out;
}

/** Decodes a Message; `parts` is REQUIRED repeated, so it must be non-empty (A2A 1.0 §5.7). */
export function decodeMessage(value: unknown, path: string): Message {
  const obj = readObject(value, path);
  const message: Message = {
    messageId: requiredNonEmptyString(obj, 'messageId', path, obj.message_id),
    role: requiredEnumValue(obj.role, path, 'role', ROLE_NAMES, ROLE_NUMBERS),
    parts: requiredListValue(obj.parts, path, 'parts', decodePart),
  };
  const contextId = protoStringValue(obj.contextId, path, 'contextId', obj.context_id);
  if (contextId !== undefined) message.contextId = contextId;
  const taskId = protoStringValue(obj.taskId, path, 'taskId', obj.task_id);
  if (taskId !== undefined) message.taskId = taskId;
  const referenceTaskIds = stringListValue(
    obj.referenceTaskIds,
    path,
    'referenceTaskIds',
    obj.reference_task_ids,
  );
  if (referenceTaskIds !== undefined) message.referenceTaskIds = referenceTaskIds;
  const extensions = stringListValue(obj.extensions, path, 'extensions');
  if (extensions !== undefined) message.extensions = extensions;
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) message.metadata = metadata;
  return message;
}

/** Encodes a Message with only the 1.0 members. */
export function encodeMessage(message: Message): JsonObject {
  const out: JsonObject = {
    messageId: message.messageId,
    role: message.role,
    parts: message.parts.map(encodePart),
  };
  if (message.contextId) out.contextId = message.contextId;
  if (message.taskId) out.taskId = message.taskId;
  if (message.referenceTaskIds !== undefined) out.referenceTaskIds = message.referenceTaskIds;
  if (message.extensions !== undefined) out.extensions = message.extensions;
  if (message.metadata !== undefined) out.metadata = message.metadata;
  return out;
}
