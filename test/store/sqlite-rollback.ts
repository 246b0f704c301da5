/**
 * Turning a SQLite file back into what an older Concord wrote, for the upgrade tests: each helper
 * undoes one migration of src/store/sqlite/schema.ts, newest first.
 */
import type Database from 'better-sqlite3';

/**
 * Undoes migration 7 -> 8 (docs/performance.md, 'Fewer B-trees per commit'): the file reads as
 * schema 7 afterwards.
 */
export function undoSchema8(db: Database.Database): void {
  db.exec(`
    ALTER TABLE tasks DROP COLUMN held_keys;
    ALTER TABLE task_events RENAME COLUMN last_seq TO seq;
    ALTER TABLE task_events RENAME COLUMN events TO event;
    CREATE INDEX idempotency_keys_by_task ON idempotency_keys (task_id);
    CREATE INDEX tasks_expiring ON tasks (status_ts)
      WHERE state IN ('TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', 'TASK_STATE_FAILED', 'TASK_STATE_REJECTED');
  `);
  db.pragma('user_version = 7');
}

/** Undoes migration 8 -> 9 (decision 0147): the file reads as schema 8 afterwards. */
export function undoSchema9(db: Database.Database): void {
  db.exec('DROP TABLE kept_replies');
  db.pragma('user_version = 8');
}

/** Undoes migration 11 -> 12 (decision 0160): the file reads as schema 11 afterwards. */
export function undoSchema12(db: Database.Database): void {
  db.exec(`
    DROP TRIGGER task_counts_insert;
    DROP TRIGGER task_counts_update;
    DROP TRIGGER task_counts_delete;
    DROP TABLE task_counts;
  `);
  db.pragma('user_version = 11');
}

/** Undoes migration 12 -> 13 (decision 0163): the file reads as schema 12 afterwards. */
export function undoSchema13(db: Database.Database): void {
  db.exec(`
    DROP TRIGGER task_hours_insert;
    DROP TRIGGER task_hours_update;
    DROP TRIGGER task_hours_delete;
    DROP TABLE task_hours;
  `);
  db.pragma('user_version = 12');
}
