/**
 * The approvals tables as the SQL stores (SQLite, PostgreSQL) read them: one row shape, one column
 * list and one row-to-record mapping, so both stores answer the ApprovalStore port alike.
 */
import type { ApprovalAction, ApprovalRecord, ApprovalStatus } from '../approval-store.js';

/** An `approvals` row; `Seq` is how the driver returns the sequence (PostgreSQL bigint: string). */
export interface ApprovalRowOf<Seq extends number | string> {
  seq: Seq;
  id: string;
  task_id: string;
  context_id: string;
  tenant: string;
  owner: string;
  contract: string;
  correlation_id: string | null;
  requested_at: string;
  status: ApprovalStatus;
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
}

/** An `approval_events` row. */
export interface ApprovalEventRow {
  at: string;
  action: ApprovalAction;
  actor: string | null;
  reason: string | null;
}

/** The columns of ApprovalRowOf, in order. */
export const APPROVAL_COLUMNS = `seq, id, task_id, context_id, tenant, owner, contract, correlation_id, requested_at,
  status, decided_at, decided_by, reason`;

/** A row as the port's record: SQL NULLs become absent fields, as the memory store leaves them. */
export function toApprovalRecord(row: ApprovalRowOf<number | string>): ApprovalRecord {
  const record: ApprovalRecord = {
    id: row.id,
    taskId: row.task_id,
    contextId: row.context_id,
    tenant: row.tenant,
    owner: row.owner,
    contract: row.contract,
    requestedAt: row.requested_at,
    status: row.status,
  };
  if (row.correlation_id !== null) record.correlationId = row.correlation_id;
  if (row.decided_at !== null) record.decidedAt = row.decided_at;
  if (row.decided_by !== null) record.decidedBy = row.decided_by;
  if (row.reason !== null) record.reason = row.reason;
  return record;
}
