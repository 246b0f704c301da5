/**
 * Reading a split task's rows back on PostgreSQL (decision 0164, heavy-tasks.ts): the columns a
 * task read selects beside its snapshot, and the task put back together from them. NULL for a
 * task that is whole in its row, as almost every task is, so such a read costs nothing more.
 */
import type { Message, Task } from '../../protocol/model.js';
import { assembleTask, type ArtifactUpdate } from '../heavy-tasks.js';

/**
 * The columns, for a `tasks t` in the query: `history` holds the newest `$LIMIT` messages (the
 * caller names its parameter), `updates` every artifact update, both in order.
 */
export const SPLIT_COLUMNS = `
  CASE WHEN t.history_rows IS NULL THEN NULL ELSE (
    SELECT coalesce(json_agg(h.message ORDER BY h.n), '[]'::json) FROM task_history h
     WHERE h.task_id = t.id AND h.n >= t.history_rows - $LIMIT) END AS history,
  CASE WHEN t.history_rows IS NULL THEN NULL ELSE (
    SELECT coalesce(json_agg(a.event ORDER BY a.n), '[]'::json) FROM task_artifact_updates a
     WHERE a.task_id = t.id) END AS updates`;

/** What SPLIT_COLUMNS read. */
export interface SplitColumns {
  history: Message[] | null;
  updates: ArtifactUpdate[] | null;
}

/** The task of a row: its snapshot, or its head with its rows when it is split. */
export function wholeTask(row: { snapshot: Task } & SplitColumns): Task {
  if (row.history === null || row.updates === null) return row.snapshot;
  return assembleTask(row.snapshot, row.history, row.updates);
}
