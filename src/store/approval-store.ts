/**
 * The ApprovalStore port: persistence of `requiresApproval` decisions (OpenClaw PR #19293 a2a-contracts.md;
 * decision 0017). A message invoking such a contract waits until the agent's owner
 * approves or rejects it; this port keeps the pending request, the one decision that wins, and an
 * append-only audit log of both. Stores that persist tasks durably persist approvals in the same
 * place, so a pending approval survives a restart exactly as its task does.
 */

/** Where an approval stands. Only `pending` may change, and only once. */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected';

/** One approval request and, once made, its decision. */
export interface ApprovalRecord {
  /** Chosen by the caller; unique within the store. */
  id: string;
  /** The task held until the decision. */
  taskId: string;
  contextId: string;
  /** The task's scope: under which tenant, and who asked (`''` for anonymous callers). */
  tenant: string;
  owner: string;
  /** Name of the contract that requires approval. */
  contract: string;
  /** The invocation's correlation id, when the message carried one. */
  correlationId?: string;
  /** When the approval was requested (RFC 3339 / ISO 8601). */
  requestedAt: string;
  status: ApprovalStatus;
  /** Set together by the decision; absent while pending. */
  decidedAt?: string;
  decidedBy?: string;
  reason?: string;
}

/** What `create` takes: a record before any decision. */
export type NewApproval = Omit<ApprovalRecord, 'status' | 'decidedAt' | 'decidedBy' | 'reason'>;

/** The owner's decision, as `decide` takes it. */
export interface ApprovalDecisionInput {
  status: 'approved' | 'rejected';
  /** The authenticated principal deciding; never empty, since the audit log names it. */
  decidedBy: string;
  reason?: string;
  /** RFC 3339; defaults to the time of the call. */
  decidedAt?: string;
}

/** Page size of `list` when the query names none. */
export const DEFAULT_APPROVAL_PAGE_SIZE = 50;
/** The largest page `list` returns; larger requests are refused, not silently cut. */
export const MAX_APPROVAL_PAGE_SIZE = 500;

/** Filters and paging of `list`. */
export interface ApprovalQuery {
  status?: ApprovalStatus;
  /** 1 to MAX_APPROVAL_PAGE_SIZE; default DEFAULT_APPROVAL_PAGE_SIZE. */
  pageSize?: number;
  /** A `nextPageToken` from an earlier page; `''` or absent for the first page. */
  pageToken?: string;
}

/** A page of approvals, oldest request first. */
export interface ApprovalPage {
  approvals: ApprovalRecord[];
  /** `''` on the last page. */
  nextPageToken: string;
}

/** What an audit entry records. */
export type ApprovalAction = 'requested' | 'approved' | 'rejected';

/** One entry of an approval's audit log. */
export interface ApprovalEvent {
  /** When it happened: `requestedAt` for the request, `decidedAt` for the decision. */
  at: string;
  action: ApprovalAction;
  /** Who decided; absent on `requested` (the record's tenant and owner say who asked). */
  by?: string;
  reason?: string;
}

/** Thrown by `decide` on an approval already decided: the first decision stands. */
export class ApprovalConflictError extends Error {
  constructor(
    /** The record as stored, carrying the decision that won. */
    readonly current: ApprovalRecord,
  ) {
    super(`approval ${current.id} was already ${current.status}${by(current)}`);
    this.name = 'ApprovalConflictError';
  }
}

/** Thrown by `decide` for an id the store does not hold. */
export class ApprovalNotFoundError extends Error {
  constructor(readonly approvalId: string) {
    super(`no approval ${approvalId}`);
    this.name = 'ApprovalNotFoundError';
  }
}

/** Thrown by `create` when the id is taken: ids are the caller's, and must be unique. */
export class ApprovalExistsError extends Error {
  constructor(readonly approvalId: string) {
    super(`approval ${approvalId} already exists`);
    this.name = 'ApprovalExistsError';
  }
}

function by(record: ApprovalRecord): string {
  return record.decidedBy === undefined ? '' : ` by ${record.decidedBy}`;
}

/** Persistence of approval requests, their decisions and their audit log. */
export interface ApprovalStore {
  /** Records a pending approval (and its `requested` audit entry); ApprovalExistsError if the id is taken. */
  create(approval: NewApproval): Promise<ApprovalRecord>;
  /** Reads one approval; `undefined` when unknown. */
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** The most recently created approval of a task (a task may be held more than once). */
  findByTask(taskId: string): Promise<ApprovalRecord | undefined>;
  /** Lists approvals in the order they were created (a queue), with a stable cursor. */
  list(query: ApprovalQuery): Promise<ApprovalPage>;
  /**
   * Decides a pending approval, atomically with its audit entry. Exactly one decision ever wins:
   * the next throws ApprovalConflictError; an unknown id throws ApprovalNotFoundError.
   */
  decide(id: string, decision: ApprovalDecisionInput): Promise<ApprovalRecord>;
  /** The approval's audit log, oldest first; `[]` for an unknown id. */
  history(id: string): Promise<ApprovalEvent[]>;
}
