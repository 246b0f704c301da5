/**
 * Streaming events on both 0.3 wires (A2A 0.3 §7.2.2-§7.2.3). 0.3 status updates carry a REQUIRED `final`
 * flag that 1.0 removed: encoders compute it from the state (terminal or interrupted,
 * decision 0004) and decoders ignore it, since the canonical stream ends by closing.
 */
import {
  optionalBoolean,
  optionalObject,
  pointer,
  readObject,
  requiredNonEmptyString,
  type JsonObject,
} from '../decode-kit.js';
import { invalidParams } from '../errors.js';
import type { TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '../model.js';
import type { Dialect } from './dialect.js';
import { isFinalState } from './enums.js';
import { decodeArtifact, encodeArtifact } from './message.js';
import { encodeStatus, requiredStatus } from './task.js';
import { readKind } from './wire-scalars.js';

/** Encodes a status update with the computed 0.3 `final` flag; JSON-RPC adds `kind`. */
export function encodeStatusUpdate(d: Dialect, event: TaskStatusUpdateEvent): JsonObject {
  const status = encodeStatus(d, event.status);
  const final = isFinalState(event.status.state);
  const out: JsonObject = d.proto
    ? { taskId: event.taskId, contextId: event.contextId, status, final }
    : { kind: 'status-update', taskId: event.taskId, contextId: event.contextId, status, final };
  if (event.metadata !== undefined) out.metadata = event.metadata;
  return out;
}

/** Decodes a status update; `final` is not read (the canonical event has no such member). */
export function decodeStatusUpdate(d: Dialect, value: unknown, path: string): TaskStatusUpdateEvent {
  const obj = readObject(value, path);
  if (!d.proto) readKind(obj, path, ['status-update']);
  const event: TaskStatusUpdateEvent = {
    taskId: requiredNonEmptyString(obj, 'taskId', path, obj.task_id),
    contextId: requiredNonEmptyString(obj, 'contextId', path, obj.context_id),
    status: requiredStatus(d, obj, path),
  };
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) event.metadata = metadata;
  return event;
}

/** Encodes an artifact update; JSON-RPC adds `kind`. */
export function encodeArtifactUpdate(d: Dialect, event: TaskArtifactUpdateEvent): JsonObject {
  const artifact = encodeArtifact(d, event.artifact);
  const out: JsonObject = d.proto
    ? { taskId: event.taskId, contextId: event.contextId, artifact }
    : { kind: 'artifact-update', taskId: event.taskId, contextId: event.contextId, artifact };
  if (event.append !== undefined) out.append = event.append;
  if (event.lastChunk !== undefined) out.lastChunk = event.lastChunk;
  if (event.metadata !== undefined) out.metadata = event.metadata;
  return out;
}

/** Decodes an artifact update. */
export function decodeArtifactUpdate(d: Dialect, value: unknown, path: string): TaskArtifactUpdateEvent {
  const obj = readObject(value, path);
  if (!d.proto) readKind(obj, path, ['artifact-update']);
  const taskId = requiredNonEmptyString(obj, 'taskId', path, obj.task_id);
  const contextId = requiredNonEmptyString(obj, 'contextId', path, obj.context_id);
  const at = pointer(path, 'artifact');
  if (obj.artifact === undefined || obj.artifact === null) throw invalidParams(at, 'is required');
  const event: TaskArtifactUpdateEvent = { taskId, contextId, artifact: decodeArtifact(d, obj.artifact, at) };
  const append = optionalBoolean(obj, 'append', path);
  if (append !== undefined) event.append = append;
  const lastChunk = optionalBoolean(obj, 'lastChunk', path, obj.last_chunk);
  if (lastChunk !== undefined) event.lastChunk = lastChunk;
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) event.metadata = metadata;
  return event;
}
