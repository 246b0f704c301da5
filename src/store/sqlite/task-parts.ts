/**
 * The SQLite side of a heavy task's rows (schema 11; heavy-tasks.ts, decision 0164): the
 * statements that write a split task's history messages and artifact updates, and read them back.
 */
import type Database from 'better-sqlite3';
import type { Message, Task } from '../../protocol/model.js';
import {
  artifactPieces,
  assembleTask,
  type ArtifactUpdate,
  type PartRows,
  type UpdateHead,
} from '../heavy-tasks.js';
import type { ArtifactPiece } from '../task-store.js';

/** The statements of the split parts, prepared once per connection. */
export class TaskParts {
  private readonly insertMessage: Database.Statement<[string, number, string]>;
  private readonly insertUpdate: Database.Statement<[string, number, string]>;
  private readonly selectHistory: Database.Statement<[string, number], string>;
  private readonly selectUpdates: Database.Statement<[string], string>;
  private readonly selectUpdateHeads: Database.Statement<
    [string, number],
    { n: number; artifact_id: string; append: number | null; bytes: number }
  >;
  private readonly selectUpdateBatch: Database.Statement<[string, string], { n: number; event: string }>;

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
    // What a read apart needs of each row before reading it (decision 0172); SQLite reads the JSON
    // in C without handing the row's text to JavaScript.
    this.selectUpdateHeads = db.prepare(
      `SELECT n, json_extract(event, '$.artifactUpdate.artifact.artifactId') AS artifact_id,
              json_extract(event, '$.artifactUpdate.append') AS append, length(event) AS bytes
         FROM task_artifact_updates WHERE task_id = ? AND n < ? ORDER BY n`,
    );
    this.selectUpdateBatch = db.prepare(
      'SELECT n, event FROM task_artifact_updates WHERE task_id = ? AND n IN (SELECT value FROM json_each(?))',
    );
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

  /** A task's row read back: its snapshot while whole, else its head and rows (`read`). */
  taskOf(taskId: string, snapshot: string, historyRows: number | null, historyLength?: number): Task {
    return historyRows === null
      ? (JSON.parse(snapshot) as Task)
      : this.read(taskId, snapshot, historyRows, historyLength);
  }

  /**
   * A split task read with its artifacts apart (decision 0172): its head and history now, and the
   * heads of its first `artifactRows` updates, the ones the task's row counts, so the artifacts
   * read later are those of the task as read now; the rows themselves are read as they are used.
   */
  readApart(
    taskId: string,
    head: string,
    historyRows: number,
    artifactRows: number,
    historyLength?: number,
  ): { task: Task; artifacts?: AsyncIterable<ArtifactPiece> } {
    let rows: { n: number; artifact_id: string; append: number | null; bytes: number }[];
    try {
      rows = this.selectUpdateHeads.all(taskId, artifactRows);
    } catch (error) {
      // SQLite's JSON functions refuse JSON nested over 1,000 deep ("malformed JSON"), which
      // JSON.parse reads: such a task (an agent's deep `data`) is read whole, as before.
      if (!(error instanceof Error) || !error.message.includes('JSON')) throw error;
      return { task: this.read(taskId, head, historyRows, historyLength) };
    }
    const task = this.read(taskId, head, historyRows, historyLength, false);
    const heads: UpdateHead[] = rows.map((row) => ({
      n: row.n,
      artifactId: String(row.artifact_id),
      append: row.append === 1,
      bytes: row.bytes,
    }));
    const artifacts = artifactPieces(heads, (numbers) => {
      const found = new Map<number, ArtifactUpdate>();
      for (const row of this.selectUpdateBatch.all(taskId, JSON.stringify(numbers))) {
        found.set(row.n, JSON.parse(row.event) as ArtifactUpdate);
      }
      return found;
    });
    return { task, artifacts };
  }

  /**
   * A split task read back: its head, its history (only the newest `historyLength` messages when
   * given, for GetTask) and its artifacts folded from their updates in order.
   */
  read(taskId: string, head: string, historyRows: number, historyLength?: number, artifacts = true): Task {
    const from =
      historyLength !== undefined && historyLength > 0 ? Math.max(0, historyRows - historyLength) : 0;
    const history: Message[] = [];
    for (const text of this.selectHistory.all(taskId, from)) history.push(JSON.parse(text) as Message);
    const updates = artifacts
      ? this.selectUpdates.all(taskId).map((text) => JSON.parse(text) as ArtifactUpdate)
      : [];
    return assembleTask(JSON.parse(head) as Task, history, updates);
  }
}
