/**
 * Retention on SQLite (decision 0103): expired terminal tasks are deleted with their events, push
 * configs, dead letters and idempotency keys, in IMMEDIATE transactions of at most
 * RETENTION_BATCH_SIZE tasks, after the commits parked in the write queue were flushed (so a commit
 * made before the sweep is judged with it). Short batches keep the write lock only briefly:
 * commits wait for one batch, not all.
 *
 * Expired tasks are found through tasks_by_state, tenant by tenant (tenant-walk.ts), and their keys
 * through the task row's `held_keys` (schema 8, decision 0127): neither needs an index of its own,
 * which every commit would have had to write.
 */
import type Database from 'better-sqlite3';
import { RETENTION_BATCH_SIZE, TERMINAL_STATES_SQL, retentionCutoffKey } from '../retention.js';
import { TENANTS_CTE } from './tenant-walk.js';

interface ExpiredRow {
  id: string;
  tenant: string;
  held_keys: string | null;
}

/** Deletes expired tasks of one connection; see the file comment. */
export class SqliteRetention {
  private readonly batch: Database.Transaction<(cutoff: string) => number>;

  constructor(
    db: Database.Database,
    /** The task store's write-queue flush. */
    private readonly beforeWrite: () => void,
  ) {
    const selectExpired = db.prepare<[string, number], ExpiredRow>(
      `${TENANTS_CTE}
       SELECT t.id, t.tenant, t.held_keys FROM tenants JOIN tasks t INDEXED BY tasks_by_state
         ON t.tenant = tenants.name AND t.state IN ${TERMINAL_STATES_SQL} AND t.status_ts < ?
        -- A pending delivery keeps its task: retention never drops a notification.
        WHERE NOT EXISTS (SELECT 1 FROM push_outbox o WHERE o.task_id = t.id)
        LIMIT ?`,
    );
    const deletes = [
      'DELETE FROM task_events WHERE task_id = ?',
      'DELETE FROM push_configs WHERE task_id = ?',
      'DELETE FROM push_dead_letters WHERE task_id = ?',
      'DELETE FROM tasks WHERE id = ?',
    ].map((sql) => db.prepare<[string]>(sql));
    const deleteKey = db.prepare<[string, string, string, string]>(
      'DELETE FROM idempotency_keys WHERE tenant = ? AND owner = ? AND key = ? AND task_id = ?',
    );
    this.batch = db.transaction((cutoff: string) => {
      const rows = selectExpired.all(cutoff, RETENTION_BATCH_SIZE);
      for (const row of rows) {
        if (row.held_keys !== null) {
          for (const [owner, key] of JSON.parse(row.held_keys) as [string, string][]) {
            deleteKey.run(row.tenant, owner, key, row.id);
          }
        }
        for (const statement of deletes) statement.run(row.id);
      }
      return rows.length;
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
