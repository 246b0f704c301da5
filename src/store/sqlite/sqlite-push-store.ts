/**
 * The SQLite PushStore: configs, outbox and dead letters in the task store's own file and
 * connection (schema migration 4), exposed as `SqliteTaskStore.push`.
 *
 * The outbox is written by the task store's group commit (`recordCommit`, called inside the batch
 * transaction for each commit whose task has configs), so a commit and its deliveries are one
 * atomic write. Everything else here runs in its own IMMEDIATE transaction after flushing the
 * commits parked in the write queue (`beforeWrite`), as the approval store does: writes land in the
 * order they were made, and a config created after a commit never reaches the file before it.
 */
import type Database from 'better-sqlite3';
import {
  CONFIG_COLUMNS,
  IS_HEAD,
  OUTBOX_COLUMNS,
  configParams,
  toConfig,
  toDeadLetter,
  toEntry,
  traceContextColumn,
  type ConfigParams,
  type ConfigRow,
  type DeadRowOf,
  type OutboxRowOf,
} from '../sql/push-rows.js';
import type {
  DeadLetterPage,
  DeadLetterQuery,
  PushConfigRecord,
  PushOutboxEntry,
  PushSettlement,
  PushStore,
} from '../push-store.js';
import { checkPushConfig, encodeDeadLetterToken, planDeadLetterList } from '../push-rules.js';

type OutboxRow = OutboxRowOf<number, string, string>;
type DeadRow = DeadRowOf<OutboxRow>;

/** A PushStore on a SQLite connection; see the file comment. */
export class SqlitePushStore implements PushStore {
  private readonly listeners = new Set<() => void>();
  private queued = false;
  private readonly upsertConfig: Database.Statement<ConfigParams>;
  private readonly countConfigs: Database.Statement<[taskId: string], number>;
  private readonly setCount: Database.Statement<[count: number, taskId: string]>;
  private readonly selectConfigIds: Database.Statement<[taskId: string], string>;
  private readonly insertOutbox: Database.Statement<
    [string, string, number, number, number, string, string, string, string | null]
  >;
  private readonly selectConfig: Database.Statement<[taskId: string, id: string], ConfigRow>;
  private readonly selectConfigs: Database.Statement<[taskId: string], ConfigRow>;
  private readonly selectDue: Database.Statement<[now: number, limit: number], number>;
  private readonly selectNextDue: Database.Statement<[], number | null>;
  private readonly selectDead: Database.Statement<[afterId: number, limit: number], DeadRow>;
  private readonly selectPending: Database.Statement<[taskId: string], OutboxRow>;
  private readonly putTx: Database.Transaction<(config: PushConfigRecord) => void>;
  private readonly deleteTx: Database.Transaction<(taskId: string, id: string) => boolean>;
  private readonly claimTx: Database.Transaction<
    (now: number, limit: number, leaseMs: number) => OutboxRow[]
  >;
  private readonly settleTx: Database.Transaction<(entryId: number, settlement: PushSettlement) => void>;
  private readonly requeueTx: Database.Transaction<(id: number) => boolean>;

  constructor(
    private readonly db: Database.Database,
    /** Runs before every write of this store; the task store passes its write-queue flush. */
    private readonly beforeWrite: () => void = () => {},
  ) {
    this.upsertConfig = db.prepare(
      `INSERT INTO push_configs (${CONFIG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (task_id, id) DO UPDATE SET tenant = excluded.tenant, url = excluded.url,
         protocol_version = excluded.protocol_version, auth_scheme = excluded.auth_scheme,
         sealed_secrets = excluded.sealed_secrets, created_at = excluded.created_at`,
    );
    this.countConfigs = db
      .prepare<[string], number>('SELECT count(*) FROM push_configs WHERE task_id = ?')
      .pluck();
    this.setCount = db.prepare('UPDATE tasks SET push_configs = ? WHERE id = ?');
    this.selectConfigIds = db
      .prepare<[string], string>('SELECT id FROM push_configs WHERE task_id = ? ORDER BY rowid')
      .pluck();
    this.insertOutbox = db.prepare(
      `INSERT INTO push_outbox (task_id, config_id, first_seq, last_seq, delivered_seq, events, snapshot,
         created_at, trace_context) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectConfig = db.prepare(`SELECT ${CONFIG_COLUMNS} FROM push_configs WHERE task_id = ? AND id = ?`);
    this.selectConfigs = db.prepare(
      `SELECT ${CONFIG_COLUMNS} FROM push_configs WHERE task_id = ? ORDER BY rowid`,
    );
    this.selectDue = db
      .prepare<[number, number], number>(
        `SELECT id FROM push_outbox o WHERE due_at <= ? AND ${IS_HEAD} ORDER BY id LIMIT ?`,
      )
      .pluck();
    this.selectNextDue = db
      .prepare<[], number | null>(`SELECT min(due_at) FROM push_outbox o WHERE ${IS_HEAD}`)
      .pluck();
    this.selectDead = db.prepare(
      `SELECT ${OUTBOX_COLUMNS}, url, reason, failed_at FROM push_dead_letters WHERE id > ? ORDER BY id LIMIT ?`,
    );
    // push_outbox_by_config (task_id, config_id, id) serves the task's rows.
    this.selectPending = db.prepare(
      `SELECT ${OUTBOX_COLUMNS} FROM push_outbox WHERE task_id = ? ORDER BY id`,
    );
    const taskExists = db.prepare<[string], number>('SELECT 1 FROM tasks WHERE id = ?').pluck();
    const deleteConfig = db.prepare<[string, string]>(
      'DELETE FROM push_configs WHERE task_id = ? AND id = ?',
    );
    const deleteEntries = db.prepare<[string, string]>(
      'DELETE FROM push_outbox WHERE task_id = ? AND config_id = ?',
    );
    const claim = db.prepare<[number, number], OutboxRow>(
      `UPDATE push_outbox SET attempts = attempts + 1, due_at = ? WHERE id = ?
       RETURNING ${OUTBOX_COLUMNS}, trace_context`,
    );
    const deleteEntry = db.prepare<[number]>('DELETE FROM push_outbox WHERE id = ?');
    // A settlement without `attempts` leaves the claim's count (push-store.ts).
    const retry = db.prepare<[number, number | null, number, string, number]>(
      `UPDATE push_outbox SET delivered_seq = ?, attempts = coalesce(?, attempts), due_at = ?,
         last_error = ? WHERE id = ?`,
    );
    const bury = db.prepare<[number, number | null, string, string, string, number]>(
      `INSERT INTO push_dead_letters (${OUTBOX_COLUMNS}, url, reason, failed_at)
       SELECT id, task_id, config_id, first_seq, last_seq, ?, events, snapshot, coalesce(?, attempts),
         last_error, created_at, ?, ?, ? FROM push_outbox WHERE id = ?`,
    );
    // A skipped event's dead letter takes the next outbox id (AUTOINCREMENT's counter, so no
    // outbox entry ever gets it): the entry it came from keeps its own id and place (0145).
    const nextId = db
      .prepare<[], number>(
        `UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'push_outbox' RETURNING seq`,
      )
      .pluck();
    // Bound numbers arrive as REAL: the CASTs keep the JSON path an integer index.
    const buryOne = db.prepare<
      [number, number, number, number, number, number, string, string, string, number]
    >(
      `INSERT INTO push_dead_letters (${OUTBOX_COLUMNS}, url, reason, failed_at)
       SELECT ?, task_id, config_id, ?, ?, ? - 1,
         '[' || (events -> ('$[' || (CAST(? AS INTEGER) - first_seq) || ']')) || ']', snapshot, ?,
         last_error, created_at, ?, ?, ? FROM push_outbox WHERE id = ?`,
    );
    const skipPast = db.prepare<[number, number, number]>(
      'UPDATE push_outbox SET delivered_seq = ?, attempts = 0, due_at = ?, last_error = NULL WHERE id = ?',
    );
    const entryExists = db.prepare<[number], number>('SELECT 1 FROM push_outbox WHERE id = ?').pluck();
    const unbury = db.prepare<[number]>(
      `INSERT INTO push_outbox (${OUTBOX_COLUMNS}, due_at)
       SELECT id, task_id, config_id, first_seq, last_seq, delivered_seq, events, snapshot, 0, NULL,
         created_at, 0 FROM push_dead_letters WHERE id = ?`,
    );
    const deleteDead = db.prepare<[number]>('DELETE FROM push_dead_letters WHERE id = ?');

    this.putTx = db.transaction((config: PushConfigRecord) => {
      if (taskExists.get(config.taskId) === undefined) throw new Error(`no task ${config.taskId}`);
      this.upsertConfig.run(...configParams(config));
      this.setCount.run(this.countConfigs.get(config.taskId) ?? 0, config.taskId);
    });
    this.deleteTx = db.transaction((taskId: string, id: string) => {
      const existed = deleteConfig.run(taskId, id).changes > 0;
      deleteEntries.run(taskId, id);
      if (existed) this.setCount.run(this.countConfigs.get(taskId) ?? 0, taskId);
      return existed;
    });
    this.claimTx = db.transaction((now: number, limit: number, leaseMs: number) =>
      this.selectDue.all(now, limit).map((id) => claim.get(now + leaseMs, id)!),
    );
    this.settleTx = db.transaction((entryId: number, s: PushSettlement) => {
      if (s.outcome === 'retry') {
        retry.run(s.deliveredSeq, s.attempts ?? null, s.nextAttemptAt, s.error, entryId);
        return;
      }
      if (s.outcome === 'skip') {
        // Gone meanwhile (its config deleted): nothing to file.
        if (entryExists.get(entryId) === undefined) return;
        const at = new Date().toISOString();
        buryOne.run(nextId.get()!, s.seq, s.seq, s.seq, s.seq, s.attempts, s.url, s.reason, at, entryId);
        skipPast.run(s.seq, s.nextAttemptAt, entryId);
        return;
      }
      if (s.outcome === 'dead') {
        bury.run(s.deliveredSeq, s.attempts ?? null, s.url, s.reason, new Date().toISOString(), entryId);
      }
      deleteEntry.run(entryId);
    });
    this.requeueTx = db.transaction((id: number) => {
      if (unbury.run(id).changes === 0) return false;
      deleteDead.run(id);
      return true;
    });
  }

  /**
   * Inside the task store's batch transaction: adds the commit's `created` configs (the task row
   * exists by now), then queues one entry per config when the task has any. `configCount` is the
   * count the task's head carried. Returns the task's config count after the commit.
   */
  recordCommit(
    taskId: string,
    firstSeq: number,
    events: string[],
    snapshot: string,
    created: PushConfigRecord[] | undefined,
    configCount: number,
    traceContext?: Record<string, string> | undefined,
  ): number {
    let count = configCount;
    if (created !== undefined && created.length > 0) {
      for (const config of created) this.upsertConfig.run(...configParams(checkPushConfig(config)));
      count = this.countConfigs.get(taskId) ?? 0;
      this.setCount.run(count, taskId);
    }
    if (count === 0) return 0;
    const lastSeq = firstSeq + events.length - 1;
    const eventsJson = `[${events.join(',')}]`;
    const createdAt = new Date().toISOString();
    const trace = traceContextColumn(traceContext);
    for (const configId of this.selectConfigIds.all(taskId)) {
      this.insertOutbox.run(
        taskId,
        configId,
        firstSeq,
        lastSeq,
        firstSeq - 1,
        eventsJson,
        snapshot,
        createdAt,
        trace,
      );
    }
    this.queued = true;
    return count;
  }

  /** After a batch: tells the listeners if it queued deliveries. */
  afterBatch(): void {
    if (!this.queued) return;
    this.queued = false;
    for (const listener of this.listeners) listener();
  }

  putConfig(config: PushConfigRecord): Promise<void> {
    return this.write(() => this.putTx.immediate(checkPushConfig(config)));
  }

  getConfig(taskId: string, id: string): Promise<PushConfigRecord | undefined> {
    return this.attempt(() => {
      const row = this.selectConfig.get(taskId, id);
      return row === undefined ? undefined : toConfig(row);
    });
  }

  listConfigs(taskId: string): Promise<PushConfigRecord[]> {
    return this.attempt(() => this.selectConfigs.all(taskId).map(toConfig));
  }

  deleteConfig(taskId: string, id: string): Promise<boolean> {
    return this.write(() => this.deleteTx.immediate(taskId, id));
  }

  claimDue(now: number, limit: number, leaseMs: number): Promise<PushOutboxEntry[]> {
    return this.write(() => this.claimTx.immediate(now, limit, leaseMs).map(toEntry));
  }

  nextDueAt(): Promise<number | undefined> {
    return this.attempt(() => this.selectNextDue.get() ?? undefined);
  }

  listPending(taskId: string): Promise<PushOutboxEntry[]> {
    return this.attempt(() => this.selectPending.all(taskId).map(toEntry));
  }

  settle(entryId: number, settlement: PushSettlement): Promise<void> {
    return this.write(() => this.settleTx.immediate(entryId, settlement));
  }

  listDeadLetters(query?: DeadLetterQuery): Promise<DeadLetterPage> {
    return this.attempt(() => {
      const { pageSize, afterId } = planDeadLetterList(query);
      const rows = this.selectDead.all(afterId, pageSize + 1);
      const page = rows.slice(0, pageSize);
      const nextPageToken = rows.length > pageSize ? encodeDeadLetterToken(page[pageSize - 1]!.id) : '';
      return { deadLetters: page.map(toDeadLetter), nextPageToken };
    });
  }

  requeueDeadLetter(id: number): Promise<boolean> {
    return this.write(() => {
      const moved = this.requeueTx.immediate(id);
      if (moved) for (const listener of this.listeners) listener();
      return moved;
    });
  }

  onOutbox(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private write<T>(work: () => T): Promise<T> {
    return this.attempt(() => {
      this.beforeWrite();
      return work();
    });
  }

  /** better-sqlite3 is synchronous; this turns its throws into rejections, as the port promises. */
  private attempt<T>(work: () => T): Promise<T> {
    if (!this.db.open) return Promise.reject(new Error('push store is closed (its task store was closed)'));
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
