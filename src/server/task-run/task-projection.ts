/**
 * Applies events to a task snapshot, producing a new snapshot (the old one is never mutated, so
 * readers holding it are safe). This is the one place that defines how events change a task.
 */
import type { Message, StreamResponse, Task } from '../../protocol/index.js';
import { appendArtifactChunk } from '../../protocol/internal.js';

/**
 * The snapshot after `events`, in order. One commit's batch is applied to a single shallow copy
 * (its history and artifacts arrays copied when first changed), not one copy per event: a quick
 * task commits several events at once, and snapshots are the larger part of its garbage.
 */
export function applyEvents(base: Task, events: readonly StreamResponse[]): Task {
  let task = base;
  // Whether `task` and its arrays are this call's own copies, free to change in place.
  let own = false;
  let ownHistory = false;
  let ownArtifacts = false;
  // Artifacts (by index) whose parts array is this call's own copy, so later appends in the batch
  // push onto it: a copy per append would cost the square of a batch's chunks (issue 27).
  const ownParts = new Set<number>();
  for (const event of events) {
    if ('task' in event) {
      task = event.task;
      own = ownHistory = ownArtifacts = false;
      ownParts.clear();
      continue;
    }
    if ('statusUpdate' in event) {
      if (!own) {
        task = Object.assign({}, task);
        own = true;
      }
      const status = event.statusUpdate.status;
      task.status = status;
      // Agent status messages belong to the conversation, so they join the history.
      if (status.message !== undefined) {
        if (ownHistory) task.history!.push(status.message);
        else {
          // Copied at its final length (appendMessage): an array grown from [] by push reserves
          // 17 slots, and the store keeps this one for the task's lifetime.
          task.history = appendMessage(task.history, status.message);
          ownHistory = true;
        }
      }
    } else if ('artifactUpdate' in event) {
      if (!own) {
        task = Object.assign({}, task);
        own = true;
      }
      const { artifact, append } = event.artifactUpdate;
      if (task.artifacts === undefined) {
        // A one-element literal rather than [] and push, for the same reason as the history.
        task.artifacts = [artifact];
        ownArtifacts = true;
        continue;
      }
      if (!ownArtifacts) {
        task.artifacts = task.artifacts.slice();
        ownArtifacts = true;
      }
      const artifacts = task.artifacts;
      const index = artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
      if (index === -1) artifacts.push(artifact);
      else if (append !== true) {
        artifacts[index] = artifact;
        ownParts.delete(index);
      } else if (ownParts.has(index)) {
        const target = artifacts[index]!;
        for (const part of artifact.parts) target.parts.push(part);
        // eslint-disable-next-line no-restricted-syntax -- open-ended metadata: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
        if (artifact.metadata !== undefined) target.metadata = { ...target.metadata, ...artifact.metadata };
      } else {
        artifacts[index] = appendArtifactChunk(artifacts[index]!, artifact);
        ownParts.add(index);
      }
    }
  }
  return task;
}

/** Adds a message to history, returning a new array. */
export function appendMessage(history: Message[] | undefined, message: Message): Message[] {
  return history === undefined ? [message] : [...history, message];
}

/**
 * The task with every artifact's parts let go of: what the server keeps of a task whose store
 * keeps the artifact updates apart (TaskStore `keepsArtifactUpdates`, decision 0164), so a 200 MB
 * artifact sent in chunks is not held whole in the serving process. Appends then join an empty
 * list, and the store, which reads the commit's events, never looks at them.
 */
export function withoutArtifactParts(task: Task): Task {
  if (task.artifacts === undefined || task.artifacts.every((artifact) => artifact.parts.length === 0))
    return task;
  return Object.assign({}, task, {
    artifacts: task.artifacts.map((artifact) =>
      artifact.parts.length === 0 ? artifact : Object.assign({}, artifact, { parts: [] }),
    ),
  });
}
