/**
 * A heavy task's history and artifact updates in rows of their own (schema 11, decision 0164).
 *
 * A task's row holds its snapshot, and every commit rewrote it whole: a task of 100,000 events
 * or a 200 MB artifact sent in chunks wrote its whole past again with each new event, so its cost
 * grew with the square of its size (issue 27). A task whose snapshot outgrows SPLIT_BYTES is split
 * once: the row keeps its head (the task without `history` and `artifacts`), each history message
 * becomes a row of `task_history`, each artifact update a row of `task_artifact_updates`, and from
 * then on a commit writes its head and only the messages and updates it adds. Reading folds the
 * updates back into artifacts (appendArtifactChunk) and can read only the newest messages
 * (GetTask's historyLength). Small tasks, almost all of them, stay whole in their row: splitting
 * would cost every quick task two more B-trees per commit (docs/performance.md, 'Fewer B-trees
 * per commit').
 */
import type Database from 'better-sqlite3';
import type { Artifact, Message, StreamResponse, Task } from '../../protocol/model.js';
import { appendArtifactChunk } from '../../protocol/artifact-chunks.js';

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
 * snapshot's history only ever grows at its end), and the commit's artifact updates, already
 * serialised as its events.
 */
export function moreRows(
  task: Task,
  counts: { history: number; artifacts: number },
  events: readonly StreamResponse[],
  eventTexts: readonly string[],
): PartRows {
  const history = task.history ?? [];
  const added: string[] = [];
  for (let i = counts.history; i < history.length; i++) added.push(JSON.stringify(history[i]));
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

/** The statements of the split parts, prepared once per connection. */
export class TaskParts {
  private readonly insertMessage: Database.Statement<[string, number, string]>;
  private readonly insertUpdate: Database.Statement<[string, number, string]>;
  private readonly selectHistory: Database.Statement<[string, number], string>;
  private readonly selectUpdates: Database.Statement<[string], string>;

  constructor(db: Database.Database) {
    this.insertMessage = db.prepare('INSERT INTO task_history (task_id, n, message) VALUES (?, ?, ?)');
    this.insertUpdate = db.prepare('INSERT INTO task_artifact_updates (task_id, n, event) VALUES (?, ?, ?)');
    this.selectHistory = db
      .prepare<[string, number], string>(
        'SELECT message FROM task_history WHERE task_id = ? AND n >= ? ORDER BY n',
      )
      .pluck();
    this.selectUpdates = db
      .prepare<[string], string>('SELECT event FROM task_artifact_updates WHERE task_id = ? ORDER BY n')
      .pluck();
  }

  /** Writes a commit's rows (inside its transaction); returns the task's counts after it. */
  write(taskId: string, rows: PartRows): { history: number; artifacts: number } {
    for (let i = 0; i < rows.history.length; i++) {
      this.insertMessage.run(taskId, rows.historyFrom + i, rows.history[i]!);
    }
    for (let i = 0; i < rows.artifactUpdates.length; i++) {
      this.insertUpdate.run(taskId, rows.artifactsFrom + i, rows.artifactUpdates[i]!);
    }
    return {
      history: rows.historyFrom + rows.history.length,
      artifacts: rows.artifactsFrom + rows.artifactUpdates.length,
    };
  }

  /**
   * A split task read back: its head, its history (only the newest `historyLength` messages when
   * given, for GetTask) and its artifacts folded from their updates in order.
   */
  read(taskId: string, head: string, historyRows: number, historyLength?: number): Task {
    const task = JSON.parse(head) as Task;
    const from =
      historyLength !== undefined && historyLength > 0 ? Math.max(0, historyRows - historyLength) : 0;
    const history: Message[] = [];
    for (const text of this.selectHistory.all(taskId, from)) history.push(JSON.parse(text) as Message);
    if (history.length > 0) task.history = history;
    const artifacts = foldUpdates(this.selectUpdates.all(taskId));
    if (artifacts.length > 0) task.artifacts = artifacts;
    return task;
  }
}

/** Artifacts from their updates in order: an append joins its artifact, anything else replaces or adds. */
function foldUpdates(texts: readonly string[]): Artifact[] {
  const artifacts: Artifact[] = [];
  const index = new Map<string, number>();
  // Artifacts whose parts array is this fold's own copy, so appends push onto it: copying the
  // parts for every chunk would cost the square of the chunk count.
  const own = new Set<number>();
  for (const text of texts) {
    const { artifact, append } = (JSON.parse(text) as Extract<StreamResponse, { artifactUpdate: unknown }>)
      .artifactUpdate;
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
