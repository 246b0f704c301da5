/**
 * Retention on SQLite (decisions 0103, 0151): terminal tasks that finished before a cutoff are
 * deleted with their events, push configs, dead letters and idempotency keys, in IMMEDIATE
 * transactions of at most RETENTION_BATCH_SIZE tasks, after the commits parked in the write queue
 * were flushed (so a commit made before the sweep is judged with it). Short batches keep the write
 * lock only briefly, and the store lets the event loop run between them.
 *
 * Terminal tasks are found through tasks_by_state, tenant by tenant (tenant-walk.ts), and their
 * keys through the task row's `held_keys` (schema 8; docs/performance.md, 'Fewer B-trees per
 * commit'): neither needs an index of its own, which every commit would have had to write. The
 * count cap's cutoff is found the same way (see `capCutoff`), once the task counters (schema 12,
 * decision 0160) say the cap is exceeded.
 */
import type Database from 'better-sqlite3';
import { RETENTION_BATCH_SIZE, TERMINAL_STATES_SQL } from '../retention.js';
import { TENANTS_CTE } from './tenant-walk.js';

interface ExpiredRow {
  id: string;
  tenant: string;
  held_keys: string | null;
}

/** The terminal tasks of every tenant, through tasks_by_state; `…` completes the join. */
const TERMINAL_TASKS = `${TENANTS_CTE}
  SELECT … FROM tenants JOIN tasks t INDEXED BY tasks_by_state
    ON t.tenant = tenants.name AND t.state IN ${TERMINAL_STATES_SQL}`;

/** Deletes finished tasks of one connection; see the file comment. */
export class SqliteRetention {
  private readonly batch: Database.Transaction<(cutoff: string) => number>;
  private readonly countTerminal: Database.Statement<[], number>;
  private readonly nthOldest: Database.Statement<[number], string>;

  constructor(
    db: Database.Database,
    /** The task store's write-queue flush. */
    private readonly beforeWrite: () => void,
  ) {
    const selectExpired = db.prepare<[string, number], ExpiredRow>(
      `${TERMINAL_TASKS.replace('…', 't.id, t.tenant, t.held_keys')} AND t.status_ts < ?
        -- A pending delivery keeps its task: retention never drops a notification.
        WHERE NOT EXISTS (SELECT 1 FROM push_outbox o WHERE o.task_id = t.id)
        LIMIT ?`,
    );
    const deletes = [
      'DELETE FROM task_events WHERE task_id = ?',
      // A split task's rows (task-parts.ts): none for almost every task, found by their key.
      'DELETE FROM task_history WHERE task_id = ?',
      'DELETE FROM task_artifact_updates WHERE task_id = ?',
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
    // The trigger-kept counters (schema 12, decision 0160): a few rows, whatever the file holds.
    this.countTerminal = db
      .prepare<[], number>(
        `SELECT coalesce(sum(n), 0) FROM task_counts WHERE state IN ${TERMINAL_STATES_SQL}`,
      )
      .pluck();
    // Each (tenant, state) range comes in status order, so SQLite stops reading a range once its
    // rows sort after the ones the LIMIT keeps: this reads about as many rows as it skips.
    this.nthOldest = db
      .prepare<[number], string>(
        `${TERMINAL_TASKS.replace('…', 't.status_ts')} ORDER BY t.status_ts LIMIT 1 OFFSET ?`,
      )
      .pluck();
  }

  /** Deletes one batch of the terminal tasks whose status key sorts before `cutoff`; returns how many. */
  deleteBatch(cutoff: string): number {
    this.beforeWrite();
    return this.batch.immediate(cutoff);
  }

  /**
   * The status key of the `maxTasks`-th most recently finished terminal task, when there are more
   * than `maxTasks`: deleting the terminal tasks before it leaves that many (and the ones that
   * finished at its very instant). Undefined when nothing is over the cap.
   *
   * The terminal tasks are counted from the trigger-kept counters (decision 0160), so a store
   * under its cap answers from a few rows; only over it is the cutoff read from the oldest end,
   * where the excess is.
   */
  capCutoff(maxTasks: number): string | undefined {
    // Flushed first, so parked commits are counted with the rest.
    this.beforeWrite();
    const excess = this.countTerminal.get()! - maxTasks;
    return excess > 0 ? this.nthOldest.get(excess) : undefined;
  }
}
