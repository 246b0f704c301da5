/**
 * The PostgreSQL PushStore: configs, outbox and dead letters in the task store's database, exposed
 * as `PostgresTaskStore.push`. The outbox is written by the task commit's own statement
 * (commit-statements.ts), so a commit and its deliveries are one atomic write.
 *
 * Several instances dispatch from the same outbox. A claim is one statement that picks due heads
 * (the oldest pending entry of each task and config) with `FOR UPDATE SKIP LOCKED` and moves their
 * `due_at` past the lease: a second dispatcher skips rows being claimed, and when it reaches a row
 * another one claimed a moment earlier, PostgreSQL re-checks `due_at <= now` against the updated
 * row and drops it. So a lease is held by one dispatcher at a time (decision 0102).
 */
import type pg from 'pg';
import {
  CONFIG_COLUMNS,
  IS_HEAD,
  OUTBOX_COLUMNS,
  configParams,
  toConfig,
  toDeadLetter,
  toEntry,
  type ConfigRow,
  type DeadRowOf,
  type OutboxRowOf,
} from '../sql/push-rows.js';
import type { StreamResponse, Task } from '../../protocol/model.js';
import type {
  DeadLetterPage,
  DeadLetterQuery,
  PushConfigRecord,
  PushOutboxEntry,
  PushSettlement,
  PushStore,
} from '../push-store.js';
import { checkPushConfig, encodeDeadLetterToken, planDeadLetterList } from '../push-rules.js';
import { UPSERT_CONFIG } from './commit-statements.js';
import type { Database } from './database.js';

const CLOSED = 'push store is closed (its task store was closed)';

type OutboxRow = OutboxRowOf<string, StreamResponse[], Task>;
type DeadRow = DeadRowOf<OutboxRow>;

const CLAIM = `
WITH due AS (
  SELECT o.id FROM push_outbox o
   WHERE o.due_at <= $1 AND ${IS_HEAD}
   ORDER BY o.id
   LIMIT $2
   FOR UPDATE SKIP LOCKED
)
UPDATE push_outbox o SET attempts = o.attempts + 1, due_at = $3
  FROM due WHERE o.id = due.id
RETURNING ${OUTBOX_COLUMNS.replace(/(\w+)/g, 'o.$1')}, o.trace_context`;

/**
 * One event given up in the middle of an entry (PushSettlement `skip`), in one statement: its dead
 * letter takes the next value of the outbox's id sequence (no outbox entry ever gets it), and the
 * entry, keeping its id and so its place, goes on after the event with its count back to 0 (0145).
 */
const SKIP = `
WITH entry AS (SELECT * FROM push_outbox WHERE id = $1 FOR UPDATE),
filed AS (
  INSERT INTO push_dead_letters (${OUTBOX_COLUMNS}, url, reason, failed_at)
  SELECT nextval(pg_get_serial_sequence('push_outbox', 'id')), task_id, config_id, $2::integer,
         $2::integer, $2::integer - 1, json_build_array(events -> ($2::integer - first_seq)), snapshot,
         $3::integer, last_error, created_at, $4::text, $5::text, $6::text
    FROM entry
)
UPDATE push_outbox o SET delivered_seq = $2::integer, attempts = 0, due_at = $7::bigint, last_error = NULL
  FROM entry WHERE o.id = entry.id`;

/** A PushStore on a PostgreSQL pool; see the file comment. */
export class PostgresPushStore implements PushStore {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: Database) {}

  /** Tells the listeners that a commit of this process queued entries. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  async putConfig(config: PushConfigRecord): Promise<void> {
    const checked = checkPushConfig(config);
    await this.db.transaction(CLOSED, async (client) => {
      // KEY SHARE: retention cannot delete the task between this check and the insert.
      const task = await client.query('SELECT 1 FROM tasks WHERE id = $1 FOR KEY SHARE', [checked.taskId]);
      if (task.rowCount === 0) throw new Error(`no task ${checked.taskId}`);
      await client.query(UPSERT_CONFIG, configParams(checked));
    });
  }

  async getConfig(taskId: string, id: string): Promise<PushConfigRecord | undefined> {
    const { rows } = await this.query<ConfigRow>(
      `SELECT ${CONFIG_COLUMNS} FROM push_configs WHERE task_id = $1 AND id = $2`,
      [taskId, id],
    );
    return rows[0] === undefined ? undefined : toConfig(rows[0]);
  }

  async listConfigs(taskId: string): Promise<PushConfigRecord[]> {
    const { rows } = await this.query<ConfigRow>(
      `SELECT ${CONFIG_COLUMNS} FROM push_configs WHERE task_id = $1 ORDER BY created_seq`,
      [taskId],
    );
    return rows.map(toConfig);
  }

  async deleteConfig(taskId: string, id: string): Promise<boolean> {
    const { rows } = await this.query<{ existed: boolean }>(
      `WITH c AS (DELETE FROM push_configs WHERE task_id = $1 AND id = $2 RETURNING 1),
            o AS (DELETE FROM push_outbox WHERE task_id = $1 AND config_id = $2)
       SELECT EXISTS (SELECT 1 FROM c) AS existed`,
      [taskId, id],
    );
    return rows[0]!.existed;
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<PushOutboxEntry[]> {
    const { rows } = await this.db.query<OutboxRow>(
      { name: 'concord-push-claim', text: CLAIM, values: [now, limit, now + leaseMs] },
      CLOSED,
    );
    // UPDATE ... RETURNING gives no order; the port promises oldest first.
    return rows.map(toEntry).sort((a, b) => a.id - b.id);
  }

  async nextDueAt(): Promise<number | undefined> {
    // Earliest due time first (push_outbox_by_due), stopping at the first head.
    const { rows } = await this.query<{ due_at: string }>(
      `SELECT o.due_at FROM push_outbox o WHERE ${IS_HEAD} ORDER BY o.due_at LIMIT 1`,
    );
    return rows[0] === undefined ? undefined : Number(rows[0].due_at);
  }

  async listPending(taskId: string): Promise<PushOutboxEntry[]> {
    // push_outbox_by_config (task_id, config_id, id) serves the task's rows.
    const { rows } = await this.query<OutboxRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM push_outbox WHERE task_id = $1 ORDER BY id`,
      [taskId],
    );
    return rows.map(toEntry);
  }

  async settle(entryId: number, s: PushSettlement): Promise<void> {
    switch (s.outcome) {
      case 'retry':
        await this.query(
          // Without `attempts` the claim's count stands (push-store.ts).
          `UPDATE push_outbox SET delivered_seq = $1, attempts = coalesce($2::integer, attempts),
             due_at = $3, last_error = $4 WHERE id = $5`,
          [s.deliveredSeq, s.attempts ?? null, s.nextAttemptAt, s.error, entryId],
        );
        return;
      case 'delivered':
        await this.query('DELETE FROM push_outbox WHERE id = $1', [entryId]);
        return;
      case 'dead':
        // One statement: the entry leaves the outbox and enters the dead letters together.
        await this.query(
          `WITH gone AS (DELETE FROM push_outbox WHERE id = $1 RETURNING *)
           INSERT INTO push_dead_letters (${OUTBOX_COLUMNS}, url, reason, failed_at)
           SELECT id, task_id, config_id, first_seq, last_seq, $2, events, snapshot,
                  coalesce($3::integer, attempts), last_error, created_at, $4, $5, $6 FROM gone`,
          [entryId, s.deliveredSeq, s.attempts ?? null, s.url, s.reason, new Date().toISOString()],
        );
        return;
      case 'skip':
        await this.query(SKIP, [
          entryId,
          s.seq,
          s.attempts,
          s.url,
          s.reason,
          new Date().toISOString(),
          s.nextAttemptAt,
        ]);
        return;
    }
  }

  async listDeadLetters(query?: DeadLetterQuery): Promise<DeadLetterPage> {
    const { pageSize, afterId } = planDeadLetterList(query);
    const { rows } = await this.query<DeadRow>(
      `SELECT ${OUTBOX_COLUMNS}, url, reason, failed_at FROM push_dead_letters
        WHERE id > $1 ORDER BY id LIMIT $2`,
      [afterId, pageSize + 1],
    );
    const page = rows.slice(0, pageSize).map(toDeadLetter);
    const nextPageToken = rows.length > pageSize ? encodeDeadLetterToken(page[pageSize - 1]!.id) : '';
    return { deadLetters: page, nextPageToken };
  }

  async requeueDeadLetter(id: number): Promise<boolean> {
    const { rows } = await this.query<{ moved: number }>(
      `WITH dead AS (DELETE FROM push_dead_letters WHERE id = $1 RETURNING *),
            back AS (
              INSERT INTO push_outbox (${OUTBOX_COLUMNS}, due_at)
              SELECT id, task_id, config_id, first_seq, last_seq, delivered_seq, events, snapshot, 0,
                     NULL, created_at, 0 FROM dead
              RETURNING 1)
       SELECT count(*)::integer AS moved FROM back`,
      [id],
    );
    const moved = rows[0]!.moved > 0;
    if (moved) this.notify();
    return moved;
  }

  onOutbox(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    return this.db.query<R>({ text, values }, CLOSED);
  }
}
