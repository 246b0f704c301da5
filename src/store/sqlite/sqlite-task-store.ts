/**
 * The SQLite TaskStore, Concord's embedded default (DESIGN.md): one file, WAL, group commit.
 * Writes go through the WriteQueue; reads go straight to the connection, and since a commit's
 * promise resolves only after its transaction committed, every read sees every acknowledged commit.
 */
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { planList } from '../list-plan.js';
import {
  checkRetention,
  RETENTION_BATCH_SIZE,
  retentionCutoffKey,
  RetentionTimer,
  type RetentionOptions,
} from '../retention.js';
import { replyMaxAge } from '../reply-store.js';
import {
  scopedIdempotencyKey,
  type StoredTask,
  type StoredTaskHead,
  type TaskCommit,
  type TaskEventRecord,
  type TaskPage,
  type TaskQuery,
  type TaskReadOptions,
  type TaskScope,
  type TaskStore,
  type UnfinishedTask,
  visibleIn,
} from '../task-store.js';
import { decodeEventRows } from './event-rows.js';
import { fillKeyFilter, KeyFilter } from './key-filter.js';
import { ListQuery } from './list-query.js';
import { SqliteApprovalStore } from './sqlite-approval-store.js';
import { SqliteEvidenceStore } from './sqlite-evidence-store.js';
import { SqlitePushStore } from './sqlite-push-store.js';
import { SqliteReplyStore } from './sqlite-reply-store.js';
import { SqliteRetention } from './sqlite-retention.js';
import { openDatabase } from './schema.js';
import { prepareStatements, type Statements } from './statements.js';
import { StoreOwnerLease, type StoreOwner } from './store-owner.js';
import { TaskParts } from './task-parts.js';
import { TENANTS_CTE } from './tenant-walk.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { WriteQueue } from './write-queue.js';

/** Options of `openSqliteTaskStore`. */
export interface SqliteTaskStoreOptions {
  /** Database file (parent directories are created), or `':memory:'`. */
  path: string;
  /** How long to wait for another process's write lock, in ms; default 5000. */
  busyTimeoutMs?: number | undefined;
  /**
   * Delete terminal tasks older than `retention.maxAgeMs`, or past the `retention.maxTasks` most
   * recently finished, on a timer (decisions 0103, 0151); off by default.
   */
  retention?: RetentionOptions | undefined;
  /**
   * Who runs the WAL checkpoints of a file (docs/performance.md, 'Checkpoints in a worker'):
   * `'background'` (the default), a worker thread, so the event loop never waits for the disk;
   * `'inline'`, SQLite's own automatic checkpoint inside the commit that fills the WAL.
   */
  checkpoints?: 'background' | 'inline' | undefined;
  /**
   * WAL size, in pages, at which the background checkpointer holds the writer back briefly to start
   * the WAL over; default 4096 (16 MiB of 4 KiB pages).
   */
  walRestartPages?: number | undefined;
}

/** A TaskStore in one SQLite file; see the file comment. */
export class SqliteTaskStore implements TaskStore {
  /** The schema versions found and left at open (TaskStore `schemaMigration`). */
  schemaMigration: { readonly from: number; readonly to: number } | undefined;
  private readonly db: Database.Database;
  private readonly sql: Statements;
  private readonly writes: WriteQueue;
  private readonly lists: ListQuery;
  /** Heavy tasks' history and artifact rows (task-parts.ts, decision 0164). */
  private readonly parts: TaskParts;
  private closed = false;
  private readonly expiry: SqliteRetention;
  private readonly retention: RetentionTimer | undefined;
  private readonly lease: StoreOwnerLease;
  private readonly checkpointer: WalCheckpointer | undefined;
  /** The keys in the file, consulted once this store holds the lease (key-filter.ts). */
  private readonly keys = new KeyFilter();
  /** Approvals in the same file and connection, closed with this store (sqlite-approval-store.ts). */
  readonly approvals: SqliteApprovalStore;
  /** Evidence chains in the same file and connection, closed with this store (sqlite-evidence-store.ts). */
  readonly evidence: SqliteEvidenceStore;
  /** Push configs and their outbox, in the same file; deliveries are queued by each commit. */
  readonly push: SqlitePushStore;
  /** Direct Message replies of keyed sends, in the same file, kept through the write queue. */
  readonly replies: SqliteReplyStore;

  constructor(options: SqliteTaskStoreOptions) {
    // Checked before the file is opened, so bad options leave nothing open.
    if (options.retention !== undefined) checkRetention(options.retention);
    this.db = openDatabase(
      { path: options.path, busyTimeoutMs: options.busyTimeoutMs ?? 5000 },
      (from, to) => (this.schemaMigration = { from, to }),
    );
    this.sql = prepareStatements(this.db);
    const flush = (): void => this.writes.flush();
    this.push = new SqlitePushStore(this.db, flush);
    this.replies = new SqliteReplyStore({
      db: this.db,
      enqueue: (reply) => this.writes.enqueueReply(reply),
      // Only this file's one server may trust the key filter (docs/performance.md, 'Idempotency-key
      // filter').
      mayHold: (scopedKey) => !this.lease.held || this.keys.mayHold(scopedKey),
      beforeWrite: flush,
      maxAgeMs: replyMaxAge(options.retention?.maxAgeMs),
    });
    this.parts = new TaskParts(this.db);
    this.writes = new WriteQueue(this.db, this.sql, this.push, this.keys, this.replies, this.parts);
    this.lists = new ListQuery(this.db, this.parts);
    this.approvals = new SqliteApprovalStore({ db: this.db, beforeWrite: flush });
    this.evidence = new SqliteEvidenceStore({ db: this.db, beforeWrite: flush });
    this.expiry = new SqliteRetention(this.db, flush);
    this.lease = new StoreOwnerLease(this.db);
    // An in-memory (or anonymous temporary) database has no WAL another connection could see.
    this.checkpointer =
      options.checkpoints === 'inline' || this.db.memory || this.db.name === ''
        ? undefined
        : new WalCheckpointer(this.db, {
            path: resolve(this.db.name),
            restartPages: options.walRestartPages,
          });
    this.retention =
      options.retention === undefined ? undefined : new RetentionTimer(this, options.retention);
  }

  /**
   * Deletes terminal tasks whose status is older than `maxAgeMs` at `now` (epoch ms), with their
   * events, push configs, dead letters and idempotency keys; a task with a pending delivery stays.
   * Kept replies that old, or past their own max age, go too (decision 0147). Returns how many
   * tasks were deleted. The retention timer calls this; it can also be called on demand.
   */
  deleteExpiredTasks(maxAgeMs: number, now: number = Date.now()): Promise<number> {
    return this.deleteFinishedBefore(retentionCutoffKey(maxAgeMs, now)).then(async (tasks) => {
      await this.attempt(() => this.replies.deleteExpired(maxAgeMs, now));
      return tasks;
    });
  }

  /**
   * Deletes the terminal tasks past the `maxTasks` most recently finished (those that finished at
   * the same instant as the last one kept stay too), as `deleteExpiredTasks` deletes: a task with a
   * pending delivery stays. Returns how many tasks were deleted.
   */
  async deleteTasksOverCap(maxTasks: number): Promise<number> {
    const cutoff = await this.attempt(() => this.expiry.capCutoff(maxTasks));
    return cutoff === undefined ? 0 : this.deleteFinishedBefore(cutoff);
  }

  commit(commit: TaskCommit): Promise<number> {
    if (commit.expectedVersion === 0) this.retention?.taskCreated();
    return this.writes.enqueue(commit);
  }

  findIdempotencyKey(key: string, scope: TaskScope): Promise<string | undefined> {
    // A new key, the usual case, skips SQL; only this file's one server may trust the filter.
    if (this.lease.held && this.db.open && !this.keys.mayHold(scopedIdempotencyKey(key, scope))) {
      return Promise.resolve(undefined);
    }
    return this.attempt(() => this.sql.selectKey.get(scope.tenant, scope.owner, key)?.task_id);
  }

  get(taskId: string, scope: TaskScope, options?: TaskReadOptions): Promise<StoredTask | undefined> {
    return this.attempt(() => {
      const row = this.sql.selectTask.get(taskId);
      // Invisible reads as absent, so existence never leaks (A2A 1.0 §13.1).
      if (row === undefined || !visibleIn(row, scope)) return undefined;
      const stored = { tenant: row.tenant, owner: row.owner, version: row.version };
      if (options?.artifactsApart === true && row.history_rows !== null) {
        const apart = this.parts.readApart(
          taskId,
          row.snapshot,
          row.history_rows,
          row.artifact_rows ?? 0,
          options.historyLength,
        );
        return Object.assign(stored, apart);
      }
      return Object.assign(stored, {
        task: this.parts.taskOf(taskId, row.snapshot, row.history_rows, options?.historyLength),
      });
    });
  }

  head(taskId: string, scope: TaskScope): Promise<StoredTaskHead | undefined> {
    return this.attempt(() => {
      const row = this.sql.selectTaskHead.get(taskId);
      return row === undefined || !visibleIn(row, scope) ? undefined : row;
    });
  }

  keepsArtifactUpdates(taskId: string): Promise<boolean> {
    return this.attempt(() => (this.sql.selectParts.get(taskId)?.history_rows ?? null) !== null);
  }

  readEvents(taskId: string, afterSeq: number, scope: TaskScope, limit?: number): Promise<TaskEventRecord[]> {
    return this.attempt(() => {
      const rows = limit === undefined ? -1 : Math.max(0, Math.floor(limit));
      // A row is a commit's events, parsed whole: a page ends with the row that reaches `limit`
      // rather than cutting it, so the next page never parses the same row again.
      return decodeEventRows(
        this.sql.selectEvents.all(taskId, afterSeq, scope.tenant, scope.owner, rows),
        afterSeq,
        rows < 0 ? undefined : rows,
      );
    });
  }

  list(query: TaskQuery): Promise<TaskPage> {
    return this.attempt(() => this.lists.page(planList(query)));
  }

  /** See `TaskStore.claimUnfinished`; the lease is in store-owner.ts. */
  claimUnfinished(): Promise<UnfinishedTask[] | undefined> {
    return this.attempt(() => {
      // Handed out once: a second server on this store object finds nothing left to settle, and
      // must not take the first one's running tasks for orphans.
      if (this.lease.held) return [];
      // Read in the claim's transaction: the tasks and the lease come together or not at all.
      const claimed = this.lease.claim(() => {
        // Each tenant's submitted and working tasks (tenant-walk.ts), so a start costs seeks per
        // tenant rather than a pass over every task ever kept.
        const rows = this.db
          .prepare(
            `${TENANTS_CTE}
             SELECT t.id, t.tenant, t.owner FROM tenants JOIN tasks t INDEXED BY tasks_by_state
               ON t.tenant = tenants.name
              AND t.state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')`,
          )
          .all() as { id: string; tenant: string; owner: string }[];
        return rows.map((row) => ({ taskId: row.id, tenant: row.tenant, owner: row.owner }));
      });
      // The only server of the file from now on: the key filter can learn what the file holds.
      if (this.lease.held) fillKeyFilter(this.db, this.keys);
      return claimed;
    });
  }

  /**
   * The other live process serving this file, if any (store-owner.ts): `concord serve` refuses to
   * start beside one, since one SQLite file takes one server.
   */
  servedElsewhere(): StoreOwner | undefined {
    return this.lease.otherOwner();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A sweep stops at its next batch once `closed` is set; every batch is a whole transaction.
    await this.retention?.stop();
    // The worker's connection closes first, so the store's is the last one and its close
    // checkpoints the WAL into the file and removes it.
    await this.checkpointer?.stop();
    return this.attempt(() => {
      // Acknowledge nothing that is not written: parked commits go in before the file closes.
      try {
        this.writes.close();
        this.lease.release();
      } finally {
        this.db.close();
      }
    });
  }

  /**
   * Deletes batch after batch, letting the event loop run in between: a backlog of many batches
   * (a first sweep of a big file, or a burst past the cap) must not hold requests for seconds.
   */
  private async deleteFinishedBefore(cutoff: string): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.attempt(() => this.expiry.deleteBatch(cutoff));
      total += deleted;
      if (deleted < RETENTION_BATCH_SIZE) return total;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.closed) return total;
    }
  }

  /** better-sqlite3 is synchronous; this turns its throws into rejections, as the port promises. */
  private attempt<T>(read: () => T): Promise<T> {
    if (!this.db.open) return Promise.reject(new Error('task store is closed'));
    try {
      return Promise.resolve(read());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
