/**
 * TaskStatus and Task on both 0.3 wires (A2A 0.3 §6.1-§6.3). JSON-RPC tasks carry `kind:"task"`; the
 * REST TaskStatus member is the proto field `update` with json_name `message` (0.3 proto).
 */
import { invalidParams } from '../errors.js';
import {
  optionalArray,
  optionalObject,
  pointer,
  readObject,
  requiredNonEmptyString,
  type JsonObject,
} from '../decode-kit.js';
import type { Artifact, Message, Task, TaskStatus } from '../model.js';
import { readState, type Dialect } from './dialect.js';
import { decodeArtifact, decodeMessage, encodeArtifact, encodeMessage } from './message.js';
import { readKind, readStatusTimestamp, requiredValue } from './wire-scalars.js';

/** Encodes a task status. */
export function encodeStatus(d: Dialect, status: TaskStatus): JsonObject {
  // `??`: a state a client read liberally from a newer peer is written back as it came (decision 0136).
  const out: JsonObject = { state: d.stateOf[status.state] ?? status.state };
  if (status.message !== undefined) out.message = encodeMessage(d, status.message);
  if (status.timestamp !== undefined) out.timestamp = status.timestamp;
  return out;
}

/** Decodes a task status; the state must be a real state (`unknown` is rejected). */
export function decodeStatus(d: Dialect, value: unknown, path: string): TaskStatus {
  const obj = readObject(value, path);
  const status: TaskStatus = {
    state: readState(d, requiredValue(obj, 'state', path), pointer(path, 'state')),
  };
  // ProtoJSON parsers accept the proto field name too, so REST also reads `update`.
  const key = obj.message !== undefined && obj.message !== null ? 'message' : d.proto ? 'update' : undefined;
  const message = key === undefined ? undefined : obj[key];
  if (message !== undefined && message !== null)
    status.message = decodeMessage(d, message, pointer(path, key as string));
  if (obj.timestamp !== undefined && obj.timestamp !== null) {
    status.timestamp = readStatusTimestamp(obj.timestamp, pointer(path, 'timestamp'));
  }
  return status;
}

/** Encodes a task; JSON-RPC adds `kind:"task"`. */
export function encodeTask(d: Dialect, task: Task): JsonObject {
  const out: JsonObject = d.proto
    ? { id: task.id, contextId: task.contextId, status: encodeStatus(d, task.status) }
    : { kind: 'task', id: task.id, contextId: task.contextId, status: encodeStatus(d, task.status) };
  if (task.history !== undefined) {
    const history = new Array<JsonObject>(task.history.length);
    for (let i = 0; i < history.length; i++) history[i] = encodeMessage(d, task.history[i] as Message);
    out.history = history;
  }
  if (task.artifacts !== undefined) {
    const artifacts = new Array<JsonObject>(task.artifacts.length);
    for (let i = 0; i < artifacts.length; i++)
      artifacts[i] = encodeArtifact(d, task.artifacts[i] as Artifact);
    out.artifacts = artifacts;
  }
  if (task.metadata !== undefined) out.metadata = task.metadata;
  return out;
}

/** Reads the REQUIRED `status` object of a task or status update. */
export function requiredStatus(d: Dialect, obj: JsonObject, path: string): TaskStatus {
  const at = pointer(path, 'status');
  if (obj.status === undefined || obj.status === null) throw invalidParams(at, 'is required');
  return decodeStatus(d, obj.status, at);
}

/** Decodes a task; `id`, `contextId` and `status` are required on both wires. */
export function decodeTask(d: Dialect, value: unknown, path: string): Task {
  const obj = readObject(value, path);
  if (!d.proto) readKind(obj, path, ['task']);
  const task: Task = {
    id: requiredNonEmptyString(obj, 'id', path),
    contextId: requiredNonEmptyString(obj, 'contextId', path, obj.context_id),
    status: requiredStatus(d, obj, path),
  };
  const history = optionalArray(obj, 'history', path, (v, p) => decodeMessage(d, v, p));
  if (history !== undefined) task.history = history;
  const artifacts = optionalArray(obj, 'artifacts', path, (v, p) => decodeArtifact(d, v, p));
  if (artifacts !== undefined) task.artifacts = artifacts;
  const metadata = optionalObject(obj, 'metadata', path);
  if (metadata !== undefined) task.metadata = metadata;
  return task;
}
