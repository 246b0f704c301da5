/**
 * The store-neutral rules of the ApprovalStore port: what a valid new approval, decision and list
 * query are, and the list cursor. Every store applies them through here, so memory and SQLite
 * accept, refuse and page exactly alike (house style 7).
 */
import { invalidParams } from '../protocol/errors.js';
import {
  DEFAULT_APPROVAL_PAGE_SIZE,
  MAX_APPROVAL_PAGE_SIZE,
  type ApprovalDecisionInput,
  type ApprovalQuery,
  type ApprovalStatus,
  type NewApproval,
} from './approval-store.js';
import { statusTimeKey } from './status-time.js';

/** A decision checked and completed: `decidedAt` is always set. */
export interface CheckedDecision {
  status: 'approved' | 'rejected';
  decidedBy: string;
  reason?: string;
  decidedAt: string;
}

/** A list query checked and normalised. */
export interface ApprovalListPlan {
  status: ApprovalStatus | undefined;
  pageSize: number;
  /** Start strictly after this creation sequence number; 0 on the first page. */
  afterSeq: number;
}

const STATUSES: readonly string[] = ['pending', 'approved', 'rejected'];

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

function requireText(where: string, value: unknown, allowEmpty: boolean): string {
  if (typeof value !== 'string' || (!allowEmpty && value === '')) {
    const what = allowEmpty ? 'a string' : 'a non-empty string';
    throw new TypeError(`${where} must be ${what}, got ${describe(value)}`);
  }
  return value;
}

function requireTime(where: string, value: unknown): string {
  const text = requireText(where, value, false);
  // RFC 3339, the ISO 8601 profile A2A timestamps use (A2A 1.0 §5.6.1).
  if (statusTimeKey(text) === undefined) {
    throw new TypeError(`${where} must be an RFC 3339 timestamp, got ${describe(value)}`);
  }
  return text;
}

/**
 * Checks a new approval and copies exactly its fields, so a caller's stray `status` or decision
 * fields can never create an approval that is decided from the start.
 */
export function checkNewApproval(approval: NewApproval): NewApproval {
  if (approval === null || typeof approval !== 'object') {
    throw new TypeError(`approval must be an object, got ${describe(approval)}`);
  }
  const checked: NewApproval = {
    id: requireText('approval.id', approval.id, false),
    taskId: requireText('approval.taskId', approval.taskId, false),
    contextId: requireText('approval.contextId', approval.contextId, false),
    // Empty tenant and owner are meaningful: the default tenant, an anonymous caller (TaskScope).
    tenant: requireText('approval.tenant', approval.tenant, true),
    owner: requireText('approval.owner', approval.owner, true),
    contract: requireText('approval.contract', approval.contract, false),
    requestedAt: requireTime('approval.requestedAt', approval.requestedAt),
  };
  if (approval.correlationId !== undefined) {
    checked.correlationId = requireText('approval.correlationId', approval.correlationId, false);
  }
  return checked;
}

/** Checks a decision for approval `id`; `now` supplies `decidedAt` when the caller gave none. */
export function checkDecision(
  id: string,
  decision: ApprovalDecisionInput,
  now: () => string = () => new Date().toISOString(),
): CheckedDecision {
  requireText('approval id', id, false);
  if (decision === null || typeof decision !== 'object') {
    throw new TypeError(`decision on approval ${id} must be an object, got ${describe(decision)}`);
  }
  const { status } = decision;
  if (status !== 'approved' && status !== 'rejected') {
    throw new TypeError(
      `decision.status on approval ${id} must be "approved" or "rejected", got ${describe(status)}`,
    );
  }
  const checked: CheckedDecision = {
    status,
    // The audit log must say who decided (decision 0017).
    decidedBy: requireText(`decision.decidedBy on approval ${id}`, decision.decidedBy, false),
    decidedAt:
      decision.decidedAt === undefined
        ? now()
        : requireTime(`decision.decidedAt on approval ${id}`, decision.decidedAt),
  };
  if (decision.reason !== undefined) {
    checked.reason = requireText(`decision.reason on approval ${id}`, decision.reason, true);
  }
  return checked;
}

/** Checks a list query; bad filters and foreign page tokens are InvalidParams naming the field. */
export function planApprovalList(query: ApprovalQuery = {}): ApprovalListPlan {
  const { status, pageSize = DEFAULT_APPROVAL_PAGE_SIZE, pageToken } = query;
  if (status !== undefined && !STATUSES.includes(status)) {
    throw invalidParams('/status', `must be one of ${STATUSES.join(', ')}, got ${describe(status)}`);
  }
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_APPROVAL_PAGE_SIZE) {
    throw invalidParams(
      '/pageSize',
      `must be an integer from 1 to ${MAX_APPROVAL_PAGE_SIZE}, got ${describe(pageSize)}`,
    );
  }
  // An empty token is the first page, as for ListTasks (an unset proto string is '').
  const afterSeq = pageToken === undefined || pageToken === '' ? 0 : decodeApprovalPageToken(pageToken);
  return { status, pageSize, afterSeq };
}

/**
 * Encodes the cursor after the approval with creation sequence `seq`. Keyset, not offset: the
 * queue only grows at its end and decisions never reorder it, so a cursor stays exact while
 * approvals are added or decided between pages.
 */
export function encodeApprovalPageToken(seq: number): string {
  return Buffer.from(JSON.stringify({ approvalsAfter: seq }), 'utf8').toString('base64url');
}

function decodeApprovalPageToken(token: unknown): number {
  const refuse = (): never => {
    throw invalidParams('/pageToken', 'is not a page token issued by this approval store');
  };
  // Buffer's base64url decoder skips bad characters instead of failing, so check the alphabet.
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]+$/.test(token)) return refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return refuse();
  }
  if (parsed === null || typeof parsed !== 'object' || Object.keys(parsed).length !== 1) return refuse();
  const seq = (parsed as { approvalsAfter?: unknown }).approvalsAfter;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return refuse();
  return seq;
}
