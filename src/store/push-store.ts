/**
 * The PushStore port: push-notification configs of tasks (A2A 1.0 §3.1.7-3.1.10) and the durable
 * outbox their deliveries are made from (docs/decisions/0087-push-outbox.md).
 *
 * The promise that makes push reliable lives in `TaskStore.commit`, not here: a store exposing
 * `push` writes, in the same transaction as each task commit, one outbox entry per config the task
 * has (after adding the commit's own `pushConfigs`), carrying the commit's events and the snapshot
 * they produced. So an acknowledged event is never without its pending delivery, and a commit of a
 * task without configs writes nothing more than before. The server's dispatcher then claims due
 * entries, delivers them, and settles each as delivered, to retry later, or dead.
 *
 * Entries of one config are delivered in order: `claimDue` only hands out the oldest pending entry
 * of each (task, config), and a claimed entry stays in place (leased until `now + leaseMs`) until
 * it is settled, so the next one waits for it. A claim that is never settled (the process died)
 * becomes due again when its lease runs out: delivery is at least once.
 *
 * Tries are counted per delivery, not per entry (decision 0145): an entry's `attempts` belongs to
 * the delivery it owes next, each settlement says what that count now is, and a delivery that runs
 * out of tries in the middle of an entry is given up alone (`skip`) while the rest goes on.
 */
import type { StreamResponse, Task } from '../protocol/index.js';

/** A push config as stored. Secrets are sealed by the server; the store never sees them in clear. */
export interface PushConfigRecord {
  taskId: string;
  /** Unique per task. */
  id: string;
  /** The task's tenant (A2A 1.0 §4.4.6); `''` for none. */
  tenant: string;
  /** The webhook, checked against the SSRF guard when the config was made. */
  url: string;
  /** The protocol version the config was created with (`0.3`, `1.0`): it decides the payload shape. */
  protocolVersion: string;
  /** The HTTP authentication scheme to use (not secret), when the config names one. */
  authScheme?: string;
  /** The token and the credentials, sealed (encrypted and authenticated) by the server. */
  sealedSecrets?: string;
  /** RFC 3339. */
  createdAt: string;
}

/** One pending delivery: the events of one commit, for one config. */
export interface PushOutboxEntry {
  /** Store-wide, increasing in commit order. */
  id: number;
  taskId: string;
  configId: string;
  /** Sequence numbers of the commit's first and last event (the task's version after it). */
  firstSeq: number;
  lastSeq: number;
  /** The commit's events, `firstSeq` to `lastSeq`. */
  events: StreamResponse[];
  /** The task as the commit left it. */
  task: Task;
  /** Events up to this sequence number are delivered (`firstSeq - 1` when none is). */
  deliveredSeq: number;
  /**
   * Tries of the delivery the entry owes next (the first event after `deliveredSeq`), this claim
   * included: a claim adds one, and a settlement after progress starts it again (decision 0145).
   */
  attempts: number;
  /** Why the last attempt failed. */
  lastError?: string;
  /** RFC 3339: when the commit was made. */
  createdAt: string;
  /**
   * The trace context headers of the commit's operation (TaskCommit `traceContext`, decision
   * 0157); outbox entries only (a dead letter requeued starts a trace of its own).
   */
  traceContext?: Record<string, string> | undefined;
}

/** An entry given up on after its last attempt, kept for inspection and requeueing. */
export interface PushDeadLetter extends PushOutboxEntry {
  /** The webhook it was addressed to (kept even if the config is deleted later). */
  url: string;
  /** Why it was given up: the last failure, or why it could never succeed. */
  reason: string;
  /** RFC 3339. */
  failedAt: string;
}

/**
 * An entry or dead letter without the events, the task snapshot and the trace context it holds:
 * what the host's push deliveries API answers and the console shows (decision 0159).
 */
export type PushDeliveryView = Omit<PushOutboxEntry, 'events' | 'task' | 'traceContext'>;
export type PushDeadLetterView = Omit<PushDeadLetter, 'events' | 'task' | 'traceContext'>;

/**
 * How a claimed entry ended. `attempts` is the count of the delivery the entry owes next (the one
 * that failed): after an event went out during the claim it is no longer the claim's count, which
 * stands when `attempts` is absent (decision 0145).
 */
export type PushSettlement =
  | { outcome: 'delivered' }
  /** Events up to `deliveredSeq` went out; the next one is tried again at `nextAttemptAt`. */
  | { outcome: 'retry'; deliveredSeq: number; attempts?: number; nextAttemptAt: number; error: string }
  /** What the entry still owes is given up: the entry moves to the dead letters under its id. */
  | { outcome: 'dead'; deliveredSeq: number; attempts?: number; reason: string; url: string }
  /**
   * Event `seq` alone is given up while the entry owes events after it (those before it went
   * out): it becomes a dead letter of its own (`firstSeq = lastSeq = seq`) under a new id, since
   * the entry keeps its id and so its place in the order; the entry goes on after it, its count
   * back to 0, due at `nextAttemptAt`.
   */
  | { outcome: 'skip'; seq: number; attempts: number; nextAttemptAt: number; reason: string; url: string };

/** Page size of `listDeadLetters` when the query names none. */
export const DEFAULT_DEAD_LETTER_PAGE_SIZE = 50;

/** Paging of `listDeadLetters`. */
export interface DeadLetterQuery {
  /** 1 to 500; default DEFAULT_DEAD_LETTER_PAGE_SIZE. */
  pageSize?: number;
  /** A `nextPageToken` from an earlier page. */
  pageToken?: string;
}

/** Dead letters, oldest first. */
export interface DeadLetterPage {
  deadLetters: PushDeadLetter[];
  /** `''` on the last page. */
  nextPageToken: string;
}

/** Push configs and their delivery outbox; see the file comment. */
export interface PushStore {
  /** Creates or replaces the config `(taskId, id)`. */
  putConfig(config: PushConfigRecord): Promise<void>;
  getConfig(taskId: string, id: string): Promise<PushConfigRecord | undefined>;
  /** Every config of the task, oldest first. */
  listConfigs(taskId: string): Promise<PushConfigRecord[]>;
  /** Deletes the config and its pending deliveries (no notification follows a delete, A2A 1.0 §3.1.10). */
  deleteConfig(taskId: string, id: string): Promise<boolean>;
  /**
   * The oldest pending entry of each (task, config) that is due at `now` (epoch ms), at most
   * `limit`, oldest first; each is leased until `now + leaseMs` and its `attempts` counted.
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<PushOutboxEntry[]>;
  /** When the earliest entry that `claimDue` could hand out becomes due (epoch ms), if any. */
  nextDueAt(): Promise<number | undefined>;
  /**
   * The entries still owed for the task (every config), oldest first, as they stand: read only,
   * nothing is claimed or counted. For the owner's view of pending deliveries (decision 0159).
   */
  listPending(taskId: string): Promise<PushOutboxEntry[]>;
  /** Ends a claim: removes a delivered entry, reschedules it, or moves it to the dead letters. */
  settle(entryId: number, settlement: PushSettlement): Promise<void>;
  listDeadLetters(query?: DeadLetterQuery): Promise<DeadLetterPage>;
  /**
   * Puts a dead letter back in the outbox under its id (before the later entries of its config that
   * are still pending), due now, its attempts reset; false if unknown.
   */
  requeueDeadLetter(id: number): Promise<boolean>;
  /** Calls `listener` after each commit of this process that wrote outbox entries; returns an unsubscribe. */
  onOutbox(listener: () => void): () => void;
}
