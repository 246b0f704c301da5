/**
 * The SQLite side of a heavy task's rows (schema 11; heavy-tasks.ts, decision 0164): the
 * statements that write a split task's history messages and artifact updates, and read them back.
 */
import type Database from 'better-sqlite3';
import type { Message, Task } from '../../protocol/model.js';
import { assembleTask, type ArtifactUpdate, type PartRows } from '../heavy-tasks.js';

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

  /** A task's row read back: its snapshot while whole, else its head and rows (`read`). */
  taskOf(taskId: string, snapshot: string, historyRows: number | null, historyLength?: number): Task {
    return historyRows === null
      ? (JSON.parse(snapshot) as Task)
      : this.read(taskId, snapshot, historyRows, historyLength);
  }

  /**
   * A split task read back: its head, its history (only the newest `historyLength` messages when
   * given, for GetTask) and its artifacts folded from their updates in order.
   */
  read(taskId: string, head: string, historyRows: number, historyLength?: number): Task {
    const from =
      historyLength !== undefined && historyLength > 0 ? Math.max(0, historyRows - historyLength) : 0;
    const history: Message[] = [];
    for (const text of this.selectHistory.all(taskId, from)) history.push(JSON.parse(text) as Message);
    const updates = this.selectUpdates.all(taskId).map((text) => JSON.parse(text) as ArtifactUpdate);
    return assembleTask(JSON.parse(head) as Task, history, updates);
  }
}
