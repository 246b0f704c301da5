/**
 * The fixed SQL of the SQLite store, prepared once per connection: compiling a statement costs
 * more than running it, and the write path runs these thousands of times a second.
 */
import type Database from 'better-sqlite3';
import type { TaskState } from '../../protocol/model.js';
import type { EventRow } from './event-rows.js';

/** The stored row of a task, minus the snapshot. */
export interface TaskHead {
  tenant: string;
  owner: string;
  version: number;
  /** How many push configs the task has (schema 4). */
  push_configs: number;
  /** The idempotency keys the task holds, a JSON array of [owner, key], or null (schema 8). */
  held_keys: string | null;
  /** History messages and artifact updates in rows, null while whole (schema 11, task-parts.ts). */
  history_rows: number | null;
  artifact_rows: number | null;
}

/** A task row as `get` reads it. */
export interface TaskRow extends Omit<TaskHead, 'push_configs' | 'held_keys'> {
  /** The whole task, or its head once split (task-parts.ts, schema 11). */
  snapshot: string;
}

/** Every fixed statement of the store. */
export interface Statements {
  selectHead: Database.Statement<[id: string], TaskHead>;
  selectTask: Database.Statement<[id: string], TaskRow>;
  /** The head `TaskStore.head` reads: no snapshot. */
  selectTaskHead: Database.Statement<
    [id: string],
    { tenant: string; owner: string; version: number; state: TaskState }
  >;
  insertTask: Database.Statement<
    [
      id: string,
      tenant: string,
      owner: string,
      contextId: string,
      state: string,
      statusTs: string,
      version: number,
      snapshot: string,
      heldKeys: string | null,
      historyRows: number | null,
      artifactRows: number | null,
    ]
  >;
  updateTask: Database.Statement<
    [
      contextId: string,
      state: string,
      statusTs: string,
      version: number,
      snapshot: string,
      heldKeys: string | null,
      historyRows: number | null,
      artifactRows: number | null,
      id: string,
    ]
  >;
  /** Whether (and how far) a task is split into rows (task-parts.ts). */
  selectParts: Database.Statement<[id: string], Pick<TaskHead, 'history_rows' | 'artifact_rows'>>;
  /** One commit's events (event-rows.ts). */
  insertEvents: Database.Statement<[taskId: string, lastSeq: number, events: string]>;
  /** The task holding an idempotency key in a caller's scope (schema 5). */
  selectKey: Database.Statement<[tenant: string, owner: string, key: string], { task_id: string }>;
  insertKey: Database.Statement<[tenant: string, owner: string, key: string, taskId: string]>;
  /**
   * Rows holding events after a sequence number, only if the task is visible (tenant, owner '' or
   * this one); at most `rows` of them (-1: all). A row holds at least one event, so `rows` rows
   * hold at least as many events as a page of that many needs.
   */
  selectEvents: Database.Statement<
    [taskId: string, afterSeq: number, tenant: string, owner: string, rows: number],
    EventRow
  >;
}

/** Prepares the fixed statements on `db`. */
export function prepareStatements(db: Database.Database): Statements {
  return {
    selectHead: db.prepare(
      'SELECT tenant, owner, version, push_configs, held_keys, history_rows, artifact_rows FROM tasks WHERE id = ?',
    ),
    selectTask: db.prepare(
      'SELECT tenant, owner, version, snapshot, history_rows, artifact_rows FROM tasks WHERE id = ?',
    ),
    selectTaskHead: db.prepare('SELECT tenant, owner, version, state FROM tasks WHERE id = ?'),
    insertTask: db.prepare(
      `INSERT INTO tasks (id, tenant, owner, context_id, state, status_ts, version, snapshot, held_keys,
                          history_rows, artifact_rows)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateTask: db.prepare(
      `UPDATE tasks SET context_id = ?, state = ?, status_ts = ?, version = ?, snapshot = ?, held_keys = ?,
                        history_rows = ?, artifact_rows = ?
        WHERE id = ?`,
    ),
    selectParts: db.prepare('SELECT history_rows, artifact_rows FROM tasks WHERE id = ?'),
    insertEvents: db.prepare('INSERT INTO task_events (task_id, last_seq, events) VALUES (?, ?, ?)'),
    selectKey: db.prepare('SELECT task_id FROM idempotency_keys WHERE tenant = ? AND owner = ? AND key = ?'),
    insertKey: db.prepare(
      'INSERT OR IGNORE INTO idempotency_keys (tenant, owner, key, task_id) VALUES (?, ?, ?, ?)',
    ),
    selectEvents: db.prepare(
      `SELECT e.last_seq AS last_seq, e.events AS events
         FROM tasks t JOIN task_events e ON e.task_id = t.id
        WHERE t.id = ? AND e.last_seq > ? AND t.tenant = ? AND (t.owner = '' OR t.owner = ?)
        ORDER BY e.last_seq LIMIT ?`,
    ),
  };
}
