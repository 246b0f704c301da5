/**
 * Part on the 0.3 REST wire: ProtoJSON of the 0.3 proto `Part` oneof (A2A 0.3 §6.5; decision 0008):
 * `{text}` | `{file:{fileWithUri|fileWithBytes, mimeType, name}}` | `{data:{data:{...}}}`, plus
 * `metadata`. `name` and Part `metadata` come from the later 0.3.x proto copies the SDKs ship; the
 * v0.3.0 proto lacks them, so they are emitted only when set.
 */
import { invalidParams } from '../errors.js';
import { optionalObject, pointer, readObject, type JsonObject } from '../decode-kit.js';
import type { Part } from '../model.js';
import { toDataObject } from './jsonrpc-part.js';
import { optionalProtoString, readBase64, readOneof } from './wire-scalars.js';

/** Encodes a canonical part as 0.3 ProtoJSON; text and data parts drop filename/mediaType. */
export function encodeRestPart(part: Part): JsonObject {
  let out: JsonObject;
  if (part.text !== undefined) {
    out = { text: part.text };
  } else if (part.raw !== undefined || part.url !== undefined) {
    const file: JsonObject = part.raw !== undefined ? { fileWithBytes: part.raw } : { fileWithUri: part.url };
    if (part.mediaType !== undefined) file.mimeType = part.mediaType;
    if (part.filename !== undefined) file.name = part.filename;
    out = { file };
  } else {
    out = { data: { data: toDataObject(part.data) } };
  }
  if (part.metadata !== undefined) out.metadata = part.metadata;
  return out;
}

// The proto names of the file oneof, read too (decision 0136).
const FILE_ALIASES = { file_with_uri: 'fileWithUri', file_with_bytes: 'fileWithBytes' };

function decodeFile(value: unknown, at: string): Part {
  const file = readObject(value, at);
  const { key, member } = readOneof(file, at, ['fileWithUri', 'fileWithBytes'], FILE_ALIASES);
  let part: Part;
  const content = file[key];
  if (member === 'fileWithBytes') {
    part = { raw: readBase64(content, pointer(at, key)) };
  } else {
    if (typeof content !== 'string') throw invalidParams(pointer(at, key), 'expected a string');
    part = { url: content };
  }
  const name = optionalProtoString(file, 'name', at);
  if (name !== undefined) part.filename = name;
  const mimeType = optionalProtoString(file, 'mimeType', at, file.mime_type);
  if (mimeType !== undefined) part.mediaType = mimeType;
  return part;
}

/** Decodes a 0.3 ProtoJSON part; exactly one of `text`, `file`, `data` must be set. */
export function decodeRestPart(value: unknown, path: string): Part {
  const obj = readObject(value, path);
  const { key } = readOneof(obj, path, ['text', 'file', 'data']);
  let part: Part;
  if (key === 'text') {
    if (typeof obj.text !== 'string') throw invalidParams(pointer(path, 'text'), 'expected a string');
    part = { text: obj.text };
  } else if (key === 'file') {
    part = decodeFile(obj.file, pointer(path, 'file'));
  } else {
    // DataPart wraps the Struct once more: `{"data": {"data": {...}}}` (0.3 proto `DataPart.data`).
    const at = pointer(path, 'data');
    const holder = readObject(obj.data, at);
    const inner = pointer(at, 'data');
    if (holder.data === undefined || holder.data === null) throw invalidParams(inner, 'is required');
    part = { data: readObject(holder.data, inner) };
  }
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) part.metadata = metadata;
  return part;
}
