/**
 * Retention on PostgreSQL (decision 0103): one statement per batch deletes expired terminal tasks
 * with their events, push configs, dead letters and idempotency keys. Every instance may sweep: candidates are
 * locked with SKIP LOCKED, so two sweepers share the work instead of waiting on each other, and a
 * task locked by a writer (a config being added) is left for the next sweep.
 */
import { RETENTION_BATCH_SIZE, TERMINAL_STATES_SQL, retentionCutoffKey } from '../retention.js';
import type { Database } from './database.js';

const DELETE_EXPIRED = `
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
), configs AS (
  DELETE FROM push_configs c USING gone WHERE c.task_id = gone.id
), dead AS (
  DELETE FROM push_dead_letters d USING gone WHERE d.task_id = gone.id
), keys AS (
  DELETE FROM idempotency_keys k USING gone WHERE k.task_id = gone.id
)
SELECT count(*)::integer AS deleted FROM gone`;

/** Deletes what expired at `now` (epoch ms), batch by batch; returns how many tasks went. */
export async function deleteExpiredTasks(db: Database, maxAgeMs: number, now: number): Promise<number> {
  const cutoff = retentionCutoffKey(maxAgeMs, now);
  let total = 0;
  for (;;) {
    const { rows } = await db.query<{ deleted: number }>(
      { name: 'concord-retention', text: DELETE_EXPIRED, values: [cutoff, RETENTION_BATCH_SIZE] },
      'task store is closed',
    );
    const deleted = rows[0]!.deleted;
    total += deleted;
    if (deleted < RETENTION_BATCH_SIZE) return total;
  }
}
