/**
 * The PostgreSQL ApprovalStore: approvals and their audit log in the task store's database,
 * exposed as `PostgresTaskStore.approvals`. Each write is one statement whose CTEs write the
 * approval and its audit row together. A create is INSERT ... ON CONFLICT DO NOTHING, so of two
 * creators of one id the second learns the id is taken; a decision is an UPDATE conditioned on
 * `status = 'pending'`, so of two deciders, on any instances, exactly one changes the row.
 */
import type pg from 'pg';
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
} from '../approval-rules.js';
import type { Database } from './database.js';

const CLOSED = 'approval store is closed (its task store was closed)';

type ApprovalRow = ApprovalRowOf<string>;

/** An ApprovalStore on a PostgreSQL pool; see the file comment. */
export class PostgresApprovalStore implements ApprovalStore {
  constructor(private readonly db: Database) {}

  async create(approval: NewApproval): Promise<ApprovalRecord> {
    const a = checkNewApproval(approval);
    const { rows } = await this.query<ApprovalRow>(
      `WITH a AS (
         INSERT INTO approvals (id, task_id, context_id, tenant, owner, contract, correlation_id,
           requested_at, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending')
         ON CONFLICT (id) DO NOTHING
         RETURNING ${APPROVAL_COLUMNS}
       ), e AS (
         INSERT INTO approval_events (approval_id, at, action) SELECT id, requested_at, 'requested' FROM a
       )
       SELECT * FROM a`,
      [a.id, a.taskId, a.contextId, a.tenant, a.owner, a.contract, a.correlationId ?? null, a.requestedAt],
    );
    if (rows[0] === undefined) throw new ApprovalExistsError(a.id);
    return toApprovalRecord(rows[0]);
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    const { rows } = await this.query<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE id = $1`,
      [id],
    );
    return rows[0] === undefined ? undefined : toApprovalRecord(rows[0]);
  }

  async findByTask(taskId: string): Promise<ApprovalRecord | undefined> {
    const { rows } = await this.query<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE task_id = $1 ORDER BY seq DESC LIMIT 1`,
      [taskId],
    );
    return rows[0] === undefined ? undefined : toApprovalRecord(rows[0]);
  }

  async list(query: ApprovalQuery): Promise<ApprovalPage> {
    const { status, pageSize, afterSeq } = planApprovalList(query);
    // One row more than a page tells whether another page follows.
    const { rows } =
      status === undefined
        ? await this.query<ApprovalRow>(
            `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE seq > $1 ORDER BY seq LIMIT $2`,
            [afterSeq, pageSize + 1],
          )
        : await this.query<ApprovalRow>(
            `SELECT ${APPROVAL_COLUMNS} FROM approvals WHERE status = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
            [status, afterSeq, pageSize + 1],
          );
    const page = rows.slice(0, pageSize);
    const nextPageToken =
      rows.length > pageSize ? encodeApprovalPageToken(Number(page[pageSize - 1]!.seq)) : '';
    return { approvals: page.map(toApprovalRecord), nextPageToken };
  }

  async decide(id: string, decision: ApprovalDecisionInput): Promise<ApprovalRecord> {
    const d = checkDecision(id, decision);
    const reason = d.reason ?? null;
    const { rows } = await this.query<ApprovalRow>(
      `WITH a AS (
         UPDATE approvals SET status = $2, decided_at = $3, decided_by = $4, reason = $5
          WHERE id = $1 AND status = 'pending'
         RETURNING ${APPROVAL_COLUMNS}
       ), e AS (
         INSERT INTO approval_events (approval_id, at, action, actor, reason)
         SELECT id, decided_at, status, decided_by, reason FROM a
       )
       SELECT * FROM a`,
      [id, d.status, d.decidedAt, d.decidedBy, reason],
    );
    if (rows[0] !== undefined) return toApprovalRecord(rows[0]);
    // The condition is the arbiter: no row changed, so it is unknown or already decided.
    const current = await this.get(id);
    if (current === undefined) throw new ApprovalNotFoundError(id);
    throw new ApprovalConflictError(current);
  }

  async history(id: string): Promise<ApprovalEvent[]> {
    const { rows } = await this.query<ApprovalEventRow>(
      'SELECT at, action, actor, reason FROM approval_events WHERE approval_id = $1 ORDER BY seq',
      [id],
    );
    return rows.map((row) => ({
      at: row.at,
      action: row.action,
      ...(row.actor === null ? {} : { by: row.actor }),
      ...(row.reason === null ? {} : { reason: row.reason }),
    }));
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.db.query<R>({ text, values }, CLOSED);
  }
}
