/**
 * Retention on SQLite (decision 0103): expired terminal tasks are deleted with their events, push
 * configs and dead letters, in IMMEDIATE transactions of at most RETENTION_BATCH_SIZE tasks, after
 * the commits parked in the write queue were flushed (so a commit made before the sweep is judged
 * with it). Short batches keep the write lock only briefly: commits wait for one batch, not all.
 */
import type Database from 'better-sqlite3';
import { RETENTION_BATCH_SIZE, TERMINAL_STATES_SQL, retentionCutoffKey } from '../retention.js';

/** Deletes expired tasks of one connection; see the file comment. */
export class SqliteRetention {
  private readonly batch: Database.Transaction<(cutoff: string) => number>;

  constructor(
    db: Database.Database,
    /** The task store's write-queue flush. */
    private readonly beforeWrite: () => void,
  ) {
    const selectExpired = db
      .prepare<[string, number], string>(
        `SELECT id FROM tasks t
          WHERE state IN ${TERMINAL_STATES_SQL} AND status_ts < ?
            -- A pending delivery keeps its task: retention never drops a notification.
            AND NOT EXISTS (SELECT 1 FROM push_outbox o WHERE o.task_id = t.id)
          ORDER BY status_ts LIMIT ?`,
      )
      .pluck();
    const deletes = [
      'DELETE FROM task_events WHERE task_id = ?',
      'DELETE FROM push_configs WHERE task_id = ?',
      'DELETE FROM push_dead_letters WHERE task_id = ?',
      'DELETE FROM idempotency_keys WHERE task_id = ?',
      'DELETE FROM tasks WHERE id = ?',
    ].map((sql) => db.prepare<[string]>(sql));
    this.batch = db.transaction((cutoff: string) => {
      const ids = selectExpired.all(cutoff, RETENTION_BATCH_SIZE);
      for (const id of ids) for (const statement of deletes) statement.run(id);
      return ids.length;
    });
  }

  /** Deletes what expired at `now` (epoch ms); returns how many tasks went. */
  deleteExpired(maxAgeMs: number, now: number): number {
    const cutoff = retentionCutoffKey(maxAgeMs, now);
    let total = 0;
    for (;;) {
      this.beforeWrite();
      const deleted = this.batch.immediate(cutoff);
      total += deleted;
      if (deleted < RETENTION_BATCH_SIZE) return total;
    }
  }
}
