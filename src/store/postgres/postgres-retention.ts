/**
 * Retention on PostgreSQL (decisions 0103, 0151): one statement per batch deletes terminal tasks
 * that finished before a cutoff, with their events, push configs, dead letters and idempotency
 * keys. Every instance may sweep: candidates are locked with SKIP LOCKED, so two sweepers share the
 * work instead of waiting on each other, and a task locked by a writer (a config being added) is
 * left for the next sweep.
 */
import { RETENTION_BATCH_SIZE, TERMINAL_STATES_SQL } from '../retention.js';
import type { Database } from './database.js';

const DELETE_FINISHED = `
WITH doomed AS (
  SELECT id FROM tasks t
   WHERE state IN ${TERMINAL_STATES_SQL} AND status_ts < $1
     -- A pending delivery keeps its task: retention never drops a notification.
     AND NOT EXISTS (SELECT 1 FROM push_outbox o WHERE o.task_id = t.id)
   ORDER BY status_ts
   LIMIT $2
   FOR UPDATE SKIP LOCKED
), gone AS (
  DELETE FROM tasks USING doomed WHERE tasks.id = doomed.id RETURNING tasks.id
), events AS (
  DELETE FROM task_events e USING gone WHERE e.task_id = gone.id
), history AS (
  -- A split task's rows (heavy-tasks.ts): none for almost every task.
  DELETE FROM task_history h USING gone WHERE h.task_id = gone.id
), updates AS (
  DELETE FROM task_artifact_updates a USING gone WHERE a.task_id = gone.id
), configs AS (
  DELETE FROM push_configs c USING gone WHERE c.task_id = gone.id
), dead AS (
  DELETE FROM push_dead_letters d USING gone WHERE d.task_id = gone.id
), keys AS (
  DELETE FROM idempotency_keys k USING gone WHERE k.task_id = gone.id
)
SELECT count(*)::integer AS deleted FROM gone`;

/**
 * Deletes the terminal tasks whose status key sorts before `cutoff`, batch by batch, until none is
 * left or `stopping()` says the store is closing; returns how many went.
 */
export async function deleteFinishedBefore(
  db: Database,
  cutoff: string,
  stopping: () => boolean,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await db.query<{ deleted: number }>(
      { name: 'concord-retention', text: DELETE_FINISHED, values: [cutoff, RETENTION_BATCH_SIZE] },
      'task store is closed',
    );
    const deleted = rows[0]!.deleted;
    total += deleted;
    if (deleted < RETENTION_BATCH_SIZE || stopping()) return total;
  }
}

/**
 * The status key of the `maxTasks`-th most recently finished terminal task, or undefined when
 * there are no more than `maxTasks`: deleting the terminal tasks before it leaves that many (and
 * the ones that finished at its very instant). Read backwards from the partial index of terminal
 * tasks (tasks_expiring), index-only: at most `maxTasks` index entries, no table rows.
 */
export async function capCutoff(db: Database, maxTasks: number): Promise<string | undefined> {
  // The trigger-kept counters (schema 6, decision 0160) answer a store under its cap from a few
  // rows; reading `maxTasks` index entries is left for a store that is over it.
  const counted = await db.query<{ terminal: number }>(
    {
      name: 'concord-retention-terminal',
      text: `SELECT coalesce(sum(n), 0)::float8 AS terminal FROM task_counts WHERE state IN ${TERMINAL_STATES_SQL}`,
    },
    'task store is closed',
  );
  if (counted.rows[0]!.terminal <= maxTasks) return undefined;
  // The offset is written into the text, not bound: with a parameter the planner may settle on a
  // generic plan that sorts the whole table. `maxTasks` is a checked whole number.
  const { rows } = await db.query<{ status_ts: string }>(
    {
      text: `SELECT status_ts FROM tasks WHERE state IN ${TERMINAL_STATES_SQL}
              ORDER BY status_ts DESC OFFSET ${Math.trunc(maxTasks) - 1} LIMIT 1`,
    },
    'task store is closed',
  );
  return rows[0]?.status_ts;
}
