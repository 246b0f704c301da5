/**
 * The in-memory ApprovalStore, for tests, examples and the in-memory TaskStore (which exposes one
 * as `approvals`). Everything is synchronous underneath, so a decision is checked and applied in
 * one step: of two decisions on the same approval exactly one wins. Approvals are rare (one per
 * held message), so all of them are kept for the life of the process.
 */
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

interface Entry {
  /** Creation order, from 1: `queue[seq - 1]` is this entry, so a cursor is an index. */
  readonly seq: number;
  /** Frozen; replaced, never mutated, by the decision. */
  record: Readonly<ApprovalRecord>;
  /** The audit log, append-only (frozen entries). */
  readonly events: Readonly<ApprovalEvent>[];
}

/** An ApprovalStore in process memory; see the file comment. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly byId = new Map<string, Entry>();
  private readonly latestByTask = new Map<string, Entry>();
  private readonly queue: Entry[] = [];
  private closed = false;

  create(approval: NewApproval): Promise<ApprovalRecord> {
    return this.attempt(() => {
      const checked = checkNewApproval(approval);
      if (this.byId.has(checked.id)) throw new ApprovalExistsError(checked.id);
      const record: Readonly<ApprovalRecord> = Object.freeze(
        Object.assign({}, checked, { status: 'pending' as const }),
      );
      const entry: Entry = {
        seq: this.queue.length + 1,
        record,
        events: [Object.freeze({ at: record.requestedAt, action: 'requested' as const })],
      };
      this.byId.set(record.id, entry);
      this.latestByTask.set(record.taskId, entry);
      this.queue.push(entry);
      return { ...record };
    });
  }

  get(id: string): Promise<ApprovalRecord | undefined> {
    return this.attempt(() => copy(this.byId.get(id)));
  }

  findByTask(taskId: string): Promise<ApprovalRecord | undefined> {
    return this.attempt(() => copy(this.latestByTask.get(taskId)));
  }

  list(query: ApprovalQuery): Promise<ApprovalPage> {
    return this.attempt(() => {
      const { status, pageSize, afterSeq } = planApprovalList(query);
      const approvals: ApprovalRecord[] = [];
      let last: Entry | undefined;
      // Sequence numbers are positions in `queue`, so the page starts at index `afterSeq`.
      for (let i = afterSeq; i < this.queue.length; i++) {
        const entry = this.queue[i]!;
        if (status !== undefined && entry.record.status !== status) continue;
        if (approvals.length === pageSize) {
          // One more match exists past a full page: hand out a cursor to it.
          return { approvals, nextPageToken: encodeApprovalPageToken(last!.seq) };
        }
        approvals.push({ ...entry.record });
        last = entry;
      }
      return { approvals, nextPageToken: '' };
    });
  }

  decide(id: string, decision: ApprovalDecisionInput): Promise<ApprovalRecord> {
    return this.attempt(() => {
      const checked = checkDecision(id, decision);
      const entry = this.byId.get(id);
      if (entry === undefined) throw new ApprovalNotFoundError(id);
      if (entry.record.status !== 'pending') throw new ApprovalConflictError({ ...entry.record });
      const { status, decidedAt, decidedBy, reason } = checked;
      const extra = reason === undefined ? {} : { reason };
      entry.record = Object.freeze(Object.assign({}, entry.record, { status, decidedAt, decidedBy }, extra));
      entry.events.push(Object.freeze({ at: decidedAt, action: status, by: decidedBy, ...extra }));
      return { ...entry.record };
    });
  }

  history(id: string): Promise<ApprovalEvent[]> {
    return this.attempt(() => (this.byId.get(id)?.events ?? []).map((event) => ({ ...event })));
  }

  /** Refuses every further call, as a closed durable store would; the in-memory TaskStore calls it. */
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  /** Runs `work` unless closed, turning throws into rejections, as the port promises. */
  private attempt<T>(work: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new Error('approval store is closed'));
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function copy(entry: Entry | undefined): ApprovalRecord | undefined {
  return entry === undefined ? undefined : { ...entry.record };
}

/** Creates an empty in-memory ApprovalStore. */
export function createMemoryApprovalStore(): MemoryApprovalStore {
  return new MemoryApprovalStore();
}
