/**
 * Reading a split task's rows back on PostgreSQL (decision 0164, heavy-tasks.ts): the columns a
 * task read selects beside its snapshot, and the task put back together from them. NULL for a
 * task that is whole in its row, as almost every task is, so such a read costs nothing more.
 */
import type { Message, Task } from '../../protocol/model.js';
import { artifactPieces, assembleTask, type ArtifactUpdate, type UpdateHead } from '../heavy-tasks.js';
import type { ArtifactPiece } from '../task-store.js';

/** The newest `$LIMIT` history messages of a split task, in order (the caller names its parameter). */
const HISTORY_COLUMN = `
  CASE WHEN t.history_rows IS NULL THEN NULL ELSE (
    SELECT coalesce(json_agg(h.message ORDER BY h.n), '[]'::json) FROM task_history h
     WHERE h.task_id = t.id AND h.n >= t.history_rows - $LIMIT) END AS history`;

/**
 * The columns, for a `tasks t` in the query: `history` holds the newest `$LIMIT` messages (the
 * caller names its parameter), `updates` every artifact update, both in order.
 */
export const SPLIT_COLUMNS = `${HISTORY_COLUMN},
  CASE WHEN t.history_rows IS NULL THEN NULL ELSE (
    SELECT coalesce(json_agg(a.event ORDER BY a.n), '[]'::json) FROM task_artifact_updates a
     WHERE a.task_id = t.id) END AS updates`;

/**
 * The columns of a read with the artifacts apart (decision 0172): the history as above, and the
 * head of each update the task's row counts, `[n, artifactId, append, bytes]`, instead of the
 * updates; read in the same statement as the row, so the artifacts read later are the task's now.
 */
export const APART_COLUMNS = `${HISTORY_COLUMN},
  CASE WHEN t.history_rows IS NULL THEN NULL ELSE (
    SELECT coalesce(json_agg(json_build_array(a.n, a.event->'artifactUpdate'->'artifact'->>'artifactId',
             coalesce((a.event->'artifactUpdate'->>'append')::boolean, false), octet_length(a.event::text))
             ORDER BY a.n), '[]'::json)
      FROM task_artifact_updates a WHERE a.task_id = t.id AND a.n < t.artifact_rows) END AS heads`;

/** What APART_COLUMNS read. */
export interface ApartColumns {
  history: Message[] | null;
  heads: [number, string, boolean, number][] | null;
}

/** Reads a batch of a split task's artifact update rows by number: `$1` the task, `$2` the numbers. */
export const UPDATE_BATCH =
  'SELECT n, event FROM task_artifact_updates WHERE task_id = $1 AND n = ANY($2::integer[])';

/**
 * The task of a row read apart: whole when its row holds it whole, else its head and history,
 * with its artifacts read from their rows a batch at a time (`read`) as they are used.
 */
export function apartTask(
  row: { snapshot: Task } & ApartColumns,
  read: (numbers: number[]) => Promise<Map<number, ArtifactUpdate>>,
): { task: Task; artifacts?: AsyncIterable<ArtifactPiece> } {
  if (row.history === null || row.heads === null) return { task: row.snapshot };
  const heads: UpdateHead[] = row.heads.map(([n, artifactId, append, bytes]) => ({
    n,
    artifactId,
    append,
    bytes,
  }));
  const artifacts = artifactPieces(heads, read);
  return { task: assembleTask(row.snapshot, row.history, []), artifacts };
}

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
