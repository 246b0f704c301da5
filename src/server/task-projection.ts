/**
 * Applies events to a task snapshot, producing a new snapshot (the old one is never mutated, so
 * readers holding it are safe). This is the one place that defines how events change a task.
 */
import type { Artifact, Message, StreamResponse, Task } from '../protocol/index.js';

/** The snapshot after `event`. */
export function applyEvent(task: Task, event: StreamResponse): Task {
  if ('task' in event) return event.task;
  if ('statusUpdate' in event) {
    const status = event.statusUpdate.status;
    const next: Task = { ...task, status };
    // Agent status messages belong to the conversation, so they join the history.
    if (status.message !== undefined) next.history = appendMessage(task.history, status.message);
    return next;
  }
  if ('artifactUpdate' in event) {
    const { artifact, append } = event.artifactUpdate;
    const artifacts = task.artifacts ?? [];
    const index = artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
    const next = artifacts.slice();
    if (index === -1) next.push(artifact);
    else next[index] = append === true ? mergeArtifact(artifacts[index] as Artifact, artifact) : artifact;
    return { ...task, artifacts: next };
  }
  return task;
}

/** Adds a message to history, returning a new array. */
export function appendMessage(history: Message[] | undefined, message: Message): Message[] {
  return history === undefined ? [message] : [...history, message];
}

function mergeArtifact(existing: Artifact, chunk: Artifact): Artifact {
  const merged: Artifact = { ...existing, parts: [...existing.parts, ...chunk.parts] };
  if (chunk.metadata !== undefined) merged.metadata = { ...existing.metadata, ...chunk.metadata };
  return merged;
}
