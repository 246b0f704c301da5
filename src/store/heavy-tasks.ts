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
import type { ArtifactPiece } from './task-store.js';

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

/** What a read apart learns of an artifact update row before reading it (decision 0172). */
export interface UpdateHead {
  n: number;
  artifactId: string;
  append: boolean;
  /** About how many bytes the row's JSON holds, to read rows a few megabytes at a time. */
  bytes: number;
}

/** Rows are read in batches of about this many bytes of JSON (one row at least), as stream pages are. */
const READ_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * The rows that make each artifact, in the task's order of artifacts: what `foldUpdates` would
 * keep, found from the rows' heads alone. An artifact's place is where its first update put it,
 * and an update that does not append starts it over from its own row.
 */
export function artifactRowGroups(heads: readonly UpdateHead[]): UpdateHead[][] {
  const groups = new Map<string, UpdateHead[]>();
  for (const head of heads) {
    const rows = groups.get(head.artifactId);
    if (rows === undefined) groups.set(head.artifactId, [head]);
    else if (head.append) rows.push(head);
    else rows.splice(0, rows.length, head);
  }
  return [...groups.values()];
}

/**
 * A split task's artifacts read a batch of rows at a time (decision 0172): `read` returns the
 * events of the rows numbered, by number. Each artifact's rows are yielded together, the first
 * starting it, so a writer can join them as they come without holding the task.
 */
export async function* artifactPieces(
  heads: readonly UpdateHead[],
  read: (numbers: number[]) => Promise<Map<number, ArtifactUpdate>> | Map<number, ArtifactUpdate>,
): AsyncGenerator<ArtifactPiece> {
  for (const group of artifactRowGroups(heads)) {
    for (let i = 0; i < group.length;) {
      const batch: number[] = [];
      let bytes = 0;
      while (i < group.length && (batch.length === 0 || bytes + group[i]!.bytes <= READ_BATCH_BYTES)) {
        bytes += group[i]!.bytes;
        batch.push(group[i++]!.n);
      }
      const updates = await read(batch);
      for (const n of batch) {
        const update = updates.get(n);
        // Rows are only ever added while a task lives; one gone went with its task (retention).
        if (update === undefined)
          throw new Error(`artifact update ${n} of the task is gone: the task was removed`);
        yield { artifact: update.artifactUpdate.artifact, append: n !== group[0]!.n };
      }
    }
  }
}
