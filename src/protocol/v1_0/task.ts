/**
 * `Task`, `TaskStatus` and `Artifact` on the 1.0 wire (A2A 1.0 §4.1.1, §4.1.2, §4.1.7).
 */
import { readObject, readTimestamp, requiredNonEmptyString, type JsonObject } from '../decode-kit.js';
import type { Artifact, Task, TaskStatus } from '../model.js';
import { TASK_STATE_NAMES, TASK_STATE_NUMBERS } from './enums.js';
import { decodeMessage, decodePart, encodeMessage, encodePart } from './parts-and-messages.js';
import {
  isSet,
  objectValue,
  optionalListValue,
  protoStringValue,
  requiredEnumValue,
  requiredListValue,
  requiredValue,
  stringListValue,
} from './proto-json.js';

/** Decodes a TaskStatus; `state` is REQUIRED, so `TASK_STATE_UNSPECIFIED` is rejected. */
export function decodeTaskStatus(value: unknown, path: string): TaskStatus {
  const obj = readObject(value, path);
  const status: TaskStatus = {
    state: requiredEnumValue(obj.state, path, 'state', TASK_STATE_NAMES, TASK_STATE_NUMBERS),
  };
  if (isSet(obj.message)) status.message = decodeMessage(obj.message, `${path}/message`);
  // google.protobuf.Timestamp is an RFC 3339 string in ProtoJSON (A2A 1.0 §5.6.1); kept as sent.
  if (isSet(obj.timestamp)) status.timestamp = readTimestamp(obj.timestamp, `${path}/timestamp`);
  return status;
}

/** Encodes a TaskStatus. */
export function encodeTaskStatus(status: TaskStatus): JsonObject {
  const out: JsonObject = { state: status.state };
  if (status.message !== undefined) out.message = encodeMessage(status.message);
  if (status.timestamp !== undefined) out.timestamp = status.timestamp;
  return out;
}

/** Decodes an Artifact; `parts` must be non-empty (A2A 1.0 §5.7). */
export function decodeArtifact(value: unknown, path: string): Artifact {
  const obj = readObject(value, path);
  const artifact: Artifact = {
    artifactId: requiredNonEmptyString(obj, 'artifactId', path, obj.artifact_id),
    parts: requiredListValue(obj.parts, path, 'parts', decodePart),
  };
  const name = protoStringValue(obj.name, path, 'name');
  if (name !== undefined) artifact.name = name;
  const description = protoStringValue(obj.description, path, 'description');
  if (description !== undefined) artifact.description = description;
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) artifact.metadata = metadata;
  const extensions = stringListValue(obj.extensions, path, 'extensions');
  if (extensions !== undefined) artifact.extensions = extensions;
  return artifact;
}

/** Encodes an Artifact. */
export function encodeArtifact(artifact: Artifact): JsonObject {
  const out: JsonObject = { artifactId: artifact.artifactId };
  if (artifact.name) out.name = artifact.name;
  if (artifact.description) out.description = artifact.description;
  out.parts = artifact.parts.map(encodePart);
  if (artifact.metadata !== undefined) out.metadata = artifact.metadata;
  if (artifact.extensions !== undefined) out.extensions = artifact.extensions;
  return out;
}

/**
 * Decodes a Task. The proto does not mark `contextId` REQUIRED, so a missing one decodes as `""`
 * (the proto3 default), which the encoder omits again.
 */
export function decodeTask(value: unknown, path: string): Task {
  const obj = readObject(value, path);
  const task: Task = {
    id: requiredNonEmptyString(obj, 'id', path),
    contextId: protoStringValue(obj.contextId, path, 'contextId', obj.context_id) ?? '',
    status: decodeTaskStatus(requiredValue(obj.status, path, 'status'), `${path}/status`),
  };
  const artifacts = optionalListValue(obj.artifacts, path, 'artifacts', decodeArtifact);
  if (artifacts !== undefined) task.artifacts = artifacts;
  const history = optionalListValue(obj.history, path, 'history', decodeMessage);
  if (history !== undefined) task.history = history;
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) task.metadata = metadata;
  return task;
}

/** Encodes a Task with only the 1.0 members (no `kind`, A2A 1.0 §5.5). */
export function encodeTask(task: Task): JsonObject {
  const out: JsonObject = { id: task.id };
  if (task.contextId) out.contextId = task.contextId;
  out.status = encodeTaskStatus(task.status);
  if (task.artifacts !== undefined) out.artifacts = task.artifacts.map(encodeArtifact);
  if (task.history !== undefined) out.history = task.history.map(encodeMessage);
  if (task.metadata !== undefined) out.metadata = task.metadata;
  return out;
}
