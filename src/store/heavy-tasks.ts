/**
 * A heavy task's history and artifact updates kept in rows of their own (decision 0164): what the
 * SQLite and PostgreSQL stores share. The snapshot of a task past SPLIT_BYTES is split once into
 * its head (the task without `history` and `artifacts`), one row per history message and one per
 * artifact update; a later commit writes its head and only what it adds, and a read folds the
 * updates back into artifacts. Small tasks, almost all of them, stay whole in their row: splitting
 * would cost every quick commit more writes (docs/performance.md, 'Fewer B-trees per commit').
 */
import type { Artifact, Message, StreamResponse, Task } from '../protocol/model.js';
import { appendArtifactChunk } from '../protocol/artifact-chunks.js';

/** An artifact update event, as the rows keep it. */
export type ArtifactUpdate = Extract<StreamResponse, { artifactUpdate: unknown }>;

/**
 * Snapshots up to this many characters of JSON stay whole; a task past it is split. Big enough
 * that an ordinary task (a few kilobytes) never is, small enough that rewriting one costs about as
 * much as the commit's own rows.
 */
export const SPLIT_BYTES = 64 * 1024;

/** What a commit of a split task writes besides its head: rows numbered from where the task's end. */
export interface PartRows {
  /** The head: the task without `history` and `artifacts`. */
  head: string;
  historyFrom: number;
  history: string[];
  artifactsFrom: number;
  /** Artifact update events as JSON (`{"artifactUpdate": …}`), in order. */
  artifactUpdates: string[];
}

/** The task as the row keeps it once split: everything but its history and artifacts. */
export function headText(task: Task): string {
  return JSON.stringify(Object.assign({}, task, { history: undefined, artifacts: undefined }));
}

/**
 * The rows of the commit that splits a task: its whole history, and each artifact as it stands
 * now, as an update that replaces it.
 */
export function splitRows(task: Task): PartRows {
  return {
    head: headText(task),
    historyFrom: 0,
    history: (task.history ?? []).map((message) => JSON.stringify(message)),
    artifactsFrom: 0,
    artifactUpdates: (task.artifacts ?? []).map((artifact) =>
      JSON.stringify({ artifactUpdate: { taskId: task.id, contextId: task.contextId, artifact } }),
    ),
  };
}

/**
 * The rows of a later commit of a split task: the history messages past the ones in rows (the
 * snapshot's history only ever grows at its end; `historyFrom` is the index of its first message
 * when the commit carries only the newer ones, TaskCommit.historyFrom), and the commit's artifact
 * updates, already serialised as its events. Undefined when the commit lacks messages the rows do
 * not have yet: it was built on a task that is not the stored one.
 */
export function moreRows(
  task: Task,
  counts: { history: number; artifacts: number },
  events: readonly StreamResponse[],
  eventTexts: readonly string[],
  historyFrom = 0,
): PartRows | undefined {
  if (counts.history < historyFrom) return undefined;
  const history = task.history ?? [];
  const added: string[] = [];
  for (let i = counts.history - historyFrom; i < history.length; i++) added.push(JSON.stringify(history[i]));
  const updates: string[] = [];
  for (let i = 0; i < events.length; i++) if ('artifactUpdate' in events[i]!) updates.push(eventTexts[i]!);
  return {
    head: headText(task),
    historyFrom: counts.history,
    history: added,
    artifactsFrom: counts.artifacts,
    artifactUpdates: updates,
  };
}

/** Artifacts from their updates (parsed artifact update events), in order: an append joins its artifact, anything else replaces or adds. */
export function foldUpdates(updates: readonly ArtifactUpdate[]): Artifact[] {
  const artifacts: Artifact[] = [];
  const index = new Map<string, number>();
  // Artifacts whose parts array is this fold's own copy, so appends push onto it: copying the
  // parts for every chunk would cost the square of the chunk count.
  const own = new Set<number>();
  for (const update of updates) {
    const { artifact, append } = update.artifactUpdate;
    const at = index.get(artifact.artifactId);
    if (at === undefined) {
      index.set(artifact.artifactId, artifacts.length);
      artifacts.push(artifact);
    } else if (append !== true) {
      artifacts[at] = artifact;
      own.delete(at);
    } else if (own.has(at)) {
      const target = artifacts[at]!;
      for (const part of artifact.parts) target.parts.push(part);
      // eslint-disable-next-line no-restricted-syntax -- open-ended metadata: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
      if (artifact.metadata !== undefined) target.metadata = { ...target.metadata, ...artifact.metadata };
    } else {
      artifacts[at] = appendArtifactChunk(artifacts[at]!, artifact);
      own.add(at);
    }
  }
  return artifacts;
}

/** A split task put back together: its head, the history read, and its artifacts folded. */
export function assembleTask(head: Task, history: Message[], updates: readonly ArtifactUpdate[]): Task {
  if (history.length > 0) head.history = history;
  const artifacts = foldUpdates(updates);
  if (artifacts.length > 0) head.artifacts = artifacts;
  return head;
}

/**
 * The whole task after a split task's commit, from the whole task before it and the rows the commit
 * adds. A commit's own task may carry only what changed (TaskCommit.historyFrom, and artifacts
 * without the parts the store already has), so what needs the whole task (a push body) rebuilds it.
 */
export function taskAfterRows(before: Task, parts: PartRows): Task {
  const history = before.history ?? [];
  for (const text of parts.history) history.push(JSON.parse(text) as Message);
  // Each artifact as it stands, as an update that replaces it (as splitRows keeps them), then the
  // commit's updates.
  const updates: ArtifactUpdate[] = (before.artifacts ?? []).map((artifact) => ({
    artifactUpdate: { taskId: before.id, contextId: before.contextId, artifact },
  }));
  for (const text of parts.artifactUpdates) updates.push(JSON.parse(text) as ArtifactUpdate);
  return assembleTask(JSON.parse(parts.head) as Task, history, updates);
}
