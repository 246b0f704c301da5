/**
 * The SQLite ApprovalStore: approvals and their audit log in the task store's own file and
 * connection (schema migration 2), exposed as `SqliteTaskStore.approvals`.
 *
 * Approvals are rare, so they skip the task store's group commit and are written at once, each in
 * its own IMMEDIATE transaction: the promise resolves only after COMMIT, so an acknowledged
 * approval survives a crash like an acknowledged task does. better-sqlite3 is synchronous, so such
 * a transaction can never interleave with a group-commit batch of this connection; and before it
 * starts, the commits already parked in the write queue are flushed (`beforeWrite`), so writes land
 * in the order they were made: an approval recorded after a task commit never reaches the file
 * without it. A decision is a conditional UPDATE (`WHERE status = 'pending'`) checked by its change
 * count, in one transaction with its audit row: across connections and processes too, exactly one
 * decision wins.
 */
import type Database from 'better-sqlite3';
import {
  APPROVAL_COLUMNS,
  toApprovalRecord,
  type ApprovalEventRow,
  type ApprovalRowOf,
} from '../sql/approval-rows.js';
import {
  ApprovalConflictError,
  ApprovalExistsError,
  ApprovalNotFoundError,
  type ApprovalDecisionInput,
  type ApprovalEvent,
  type ApprovalPage,
  type ApprovalQuery,
  type ApprovalRecord,
  type ApprovalStore,
  type NewApproval,
} from '../approval-store.js';
import {
  checkDecision,
  checkNewApproval,
  encodeApprovalPageToken,
  planApprovalList,
  type CheckedDecision,
} from '../approval-rules.js';

/** Options of the SQLite approval store. */
export interface SqliteApprovalStoreOptions {
  /** An open, migrated connection (schema version 2 or later), owned and closed by the caller. */
  db: Database.Database;
  /** Runs before every write; the task store passes its write-queue flush (see the file comment). */
  beforeWrite?: () => void;
}

type ApprovalRow = ApprovalRowOf<number>;

/** An ApprovalStore on a SQLite connection; see the file comment. */
export class SqliteApprovalStore implements ApprovalStore {
  private readonly db: Database.Database;
  private readonly beforeWrite: () => void;
  private readonly selectById: Database.Statement<[id: string], ApprovalRow>;
  private readonly selectLatestByTask: Database.Statement<[taskId: string], ApprovalRow>;
  private readonly selectPage: Database.Statement<[afterSeq: number, limit: number], ApprovalRow>;
  private readonly selectPageByStatus: Database.Statement<
    [status: string, afterSeq: number, limit: number],
    ApprovalRow
  >;
  private readonly selectEvents: Database.Statement<[approvalId: string], ApprovalEventRow>;
  private readonly createTx: Database.Transaction<(approval: NewApproval) => ApprovalRow>;
  private readonly decideTx: Database.Transaction<(id: string, decision: CheckedDecision) => ApprovalRow>;

  constructor(options: SqliteApprovalStoreOptions) {
    const { db } = options;
    this.db = db;
    this.beforeWrite = options.beforeWrite ?? (() => {});
    this.selectById = db.prepare(`SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE id = ?`);
    this.selectLatestByTask = db.prepare(
      `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE task_id = ? ORDER BY seq DESC LIMIT 1`,
    );
    this.selectPage = db.prepare(
      `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE seq > ? ORDER BY seq LIMIT ?`,
    );
    this.selectPageByStatus = db.prepare(
      `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE status = ? AND seq > ? ORDER BY seq LIMIT ?`,
    );
    this.selectEvents = db.prepare(
      'SELECT at, action, actor, reason FROM approval_events WHERE approval_id = ? ORDER BY seq',
    );
    const insertApproval = db.prepare<
      [string, string, string, string, string, string, string | null, string]
    >(
      `INSERT INTO approvals (id, task_id, context_id, tenant, owner, contract, correlation_id,
         requested_at, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending')`,
    );
    const updateDecision = db.prepare<[string, string, string, string | null, string]>(
      `UPDATE approvals SET status = ?, decided_at = ?, decided_by = ?, reason = ?
       WHERE id = ? AND status = 'pending'`,
    );
    const insertEvent = db.prepare<[string, string, string, string | null, string | null]>(
      'INSERT INTO approval_events (approval_id, at, action, actor, reason) VALUES (?, ?, ?, ?, ?)',
    );

    this.createTx = db.transaction((a: NewApproval) => {
      // Checked under the write lock, so no other connection can take the id in between.
      if (this.selectById.get(a.id) !== undefined) throw new ApprovalExistsError(a.id);
      const { id, taskId, contextId, tenant, owner, contract, correlationId, requestedAt } = a;
      insertApproval.run(id, taskId, contextId, tenant, owner, contract, correlationId ?? null, requestedAt);
      insertEvent.run(id, requestedAt, 'requested', null, null);
      return this.selectById.get(id)!;
    });
    this.decideTx = db.transaction((id: string, d: CheckedDecision) => {
      const reason = d.reason ?? null;
      // The condition is the arbiter: of two deciders, only the first UPDATE changes a row.
      if (updateDecision.run(d.status, d.decidedAt, d.decidedBy, reason, id).changes === 0) {
        const current = this.selectById.get(id);
        if (current === undefined) throw new ApprovalNotFoundError(id);
        throw new ApprovalConflictError(toApprovalRecord(current));
      }
      insertEvent.run(id, d.decidedAt, d.status, d.decidedBy, reason);
      return this.selectById.get(id)!;
    });
  }

  create(approval: NewApproval): Promise<ApprovalRecord> {
    return this.attempt(() => {
      const checked = checkNewApproval(approval);
      this.beforeWrite();
      // IMMEDIATE takes the write lock at BEGIN: another process's writer makes this wait
      // (busy_timeout) rather than fail halfway.
      return toApprovalRecord(this.createTx.immediate(checked));
    });
  }

  get(id: string): Promise<ApprovalRecord | undefined> {
    return this.attempt(() => optional(this.selectById.get(id)));
  }

  findByTask(taskId: string): Promise<ApprovalRecord | undefined> {
    return this.attempt(() => optional(this.selectLatestByTask.get(taskId)));
  }

  list(query: ApprovalQuery): Promise<ApprovalPage> {
    return this.attempt(() => {
      const { status, pageSize, afterSeq } = planApprovalList(query);
      // One row more than a page tells whether another page follows.
      const rows =
        status === undefined
          ? this.selectPage.all(afterSeq, pageSize + 1)
          : this.selectPageByStatus.all(status, afterSeq, pageSize + 1);
      const page = rows.slice(0, pageSize);
      const nextPageToken = rows.length > pageSize ? encodeApprovalPageToken(page[pageSize - 1]!.seq) : '';
      return { approvals: page.map(toApprovalRecord), nextPageToken };
    });
  }

  decide(id: string, decision: ApprovalDecisionInput): Promise<ApprovalRecord> {
    return this.attempt(() => {
      const checked = checkDecision(id, decision);
      this.beforeWrite();
      return toApprovalRecord(this.decideTx.immediate(id, checked));
    });
  }

  history(id: string): Promise<ApprovalEvent[]> {
    return this.attempt(() =>
      this.selectEvents.all(id).map((row) => ({
        at: row.at,
        action: row.action,
        ...(row.actor === null ? {} : { by: row.actor }),
        ...(row.reason === null ? {} : { reason: row.reason }),
      })),
    );
  }

  /** better-sqlite3 is synchronous; this turns its throws into rejections, as the port promises. */
  private attempt<T>(work: () => T): Promise<T> {
    if (!this.db.open)
      return Promise.reject(new Error('approval store is closed (its task store was closed)'));
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function optional(row: ApprovalRow | undefined): ApprovalRecord | undefined {
  return row === undefined ? undefined : toApprovalRecord(row);
}
