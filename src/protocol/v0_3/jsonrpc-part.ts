/**
 * Part on the 0.3 JSON-RPC wire (`types.ts` TextPart | FilePart | DataPart, A2A 0.3 §6.5):
 * `{kind:"text", text}`, `{kind:"file", file:{bytes|uri, name?, mimeType?}}` and
 * `{kind:"data", data:{...}}`, each with optional `metadata`. Canonical `raw`/`url` become the
 * file's `bytes`/`uri`; `filename`/`mediaType` become `name`/`mimeType`.
 */
import { invalidParams } from '../errors.js';
import {
  optionalObject,
  optionalString,
  pointer,
  readObject,
  requiredString,
  type JsonObject,
} from '../decode-kit.js';
import type { Part } from '../model.js';
import { readBase64, readKind, readOneof } from './wire-scalars.js';

const PART_KINDS = ['text', 'file', 'data'] as const;

/**
 * 0.3 data parts hold a JSON object only (`types.ts` DataPart, proto `Struct`). Canonical data may
 * be any JSON value (A2A 1.0 `Value`), so a non-object is wrapped as `{"value": data}`: the peer
 * still gets all of it, but it decodes back as the wrapper object (no round trip for non-objects).
 */
export function toDataObject(data: unknown): JsonObject {
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? (data as JsonObject)
    : { value: data };
}

/** Encodes a canonical part as a 0.3 JSON-RPC part; text and data parts drop filename/mediaType. */
export function encodeJsonRpcPart(part: Part): JsonObject {
  let out: JsonObject;
  if (part.text !== undefined) {
    out = { kind: 'text', text: part.text };
  } else if (part.raw !== undefined || part.url !== undefined) {
    const file: JsonObject = part.raw !== undefined ? { bytes: part.raw } : { uri: part.url };
    if (part.filename !== undefined) file.name = part.filename;
    if (part.mediaType !== undefined) file.mimeType = part.mediaType;
    out = { kind: 'file', file };
  } else {
    out = { kind: 'data', data: toDataObject(part.data) };
  }
  if (part.metadata !== undefined) out.metadata = part.metadata;
  return out;
}

function decodeFile(obj: JsonObject, path: string): Part {
  const at = pointer(path, 'file');
  if (obj.file === undefined || obj.file === null) throw invalidParams(at, 'is required');
  const file = readObject(obj.file, at);
  // FileWithBytes and FileWithUri forbid each other's member (`types.ts`: `uri?: never`).
  const { key } = readOneof(file, at, ['bytes', 'uri']);
  const part: Part =
    key === 'bytes'
      ? { raw: readBase64(file.bytes, pointer(at, 'bytes')) }
      : { url: requiredString(file, 'uri', at) };
  const name = optionalString(file, 'name', at);
  if (name !== undefined) part.filename = name;
  const mimeType = optionalString(file, 'mimeType', at, file.mime_type);
  if (mimeType !== undefined) part.mediaType = mimeType;
  return part;
}

/** Decodes a 0.3 JSON-RPC part; `kind` is required and selects the shape. */
export function decodeJsonRpcPart(value: unknown, path: string): Part {
  const obj = readObject(value, path);
  const kind = readKind(obj, path, PART_KINDS);
  let part: Part;
  if (kind === 'text') {
    part = { text: requiredString(obj, 'text', path) };
  } else if (kind === 'file') {
    part = decodeFile(obj, path);
  } else {
    const at = pointer(path, 'data');
    if (obj.data === undefined || obj.data === null) throw invalidParams(at, 'is required');
    part = { data: readObject(obj.data, at) };
  }
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) part.metadata = metadata;
  return part;
}
