/**
 * The two task events of the 1.0 stream (A2A 1.0 §4.2.1, §4.2.2). 1.0 dropped the 0.3 `final`
 * flag (the stream's end signals completion), so a peer's stray `final` is ignored like any
 * unknown field (A2A 1.0 §5.7) and never written.
 */
import { readObject, requiredNonEmptyString, type JsonObject } from '../decode-kit.js';
import type { TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '../model.js';
import { booleanValue, objectValue, requiredValue } from './proto-json.js';
import { decodeArtifact, decodeTaskStatus, encodeArtifact, encodeTaskStatus } from './task.js';

/** Decodes a TaskStatusUpdateEvent; `taskId`, `contextId` and `status` are REQUIRED. */
export function decodeTaskStatusUpdateEvent(value: unknown, path: string): TaskStatusUpdateEvent {
  const obj = readObject(value, path);
  const event: TaskStatusUpdateEvent = {
    taskId: requiredNonEmptyString(obj, 'taskId', path, obj.task_id),
    contextId: requiredNonEmptyString(obj, 'contextId', path, obj.context_id),
    status: decodeTaskStatus(requiredValue(obj.status, path, 'status'), `${path}/status`),
  };
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) event.metadata = metadata;
  return event;
}

/** Encodes a TaskStatusUpdateEvent. */
export function encodeTaskStatusUpdateEvent(event: TaskStatusUpdateEvent): JsonObject {
  const out: JsonObject = {
    taskId: event.taskId,
    contextId: event.contextId,
    status: encodeTaskStatus(event.status),
  };
  if (event.metadata !== undefined) out.metadata = event.metadata;
  return out;
}

/** Decodes a TaskArtifactUpdateEvent; `taskId`, `contextId` and `artifact` are REQUIRED. */
export function decodeTaskArtifactUpdateEvent(value: unknown, path: string): TaskArtifactUpdateEvent {
  const obj = readObject(value, path);
  const event: TaskArtifactUpdateEvent = {
    taskId: requiredNonEmptyString(obj, 'taskId', path, obj.task_id),
    contextId: requiredNonEmptyString(obj, 'contextId', path, obj.context_id),
    artifact: decodeArtifact(requiredValue(obj.artifact, path, 'artifact'), `${path}/artifact`),
  };
  const append = booleanValue(obj.append, path, 'append');
  if (append !== undefined) event.append = append;
  const lastChunk = booleanValue(obj.lastChunk, path, 'lastChunk', obj.last_chunk);
  if (lastChunk !== undefined) event.lastChunk = lastChunk;
  const metadata = objectValue(obj.metadata, path, 'metadata');
  if (metadata !== undefined) event.metadata = metadata;
  return event;
}

/** Encodes a TaskArtifactUpdateEvent. */
export function encodeTaskArtifactUpdateEvent(event: TaskArtifactUpdateEvent): JsonObject {
  const out: JsonObject = {
    taskId: event.taskId,
    contextId: event.contextId,
    artifact: encodeArtifact(event.artifact),
  };
  if (event.append !== undefined) out.append = event.append;
  if (event.lastChunk !== undefined) out.lastChunk = event.lastChunk;
  if (event.metadata !== undefined) out.metadata = event.metadata;
  return out;
}
