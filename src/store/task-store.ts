/**
 * The TaskStore port. A task is stored as its latest snapshot plus an append-only event log; the
 * task's `version` is the sequence number of its last event, so "one more event" and "one more
 * version" are the same thing. Every write names the version it was computed from and fails with
 * VersionConflictError if another writer got there first: a lost update is impossible.
 */
import type { Artifact, StreamResponse, Task, TaskState } from '../protocol/index.js';
import type { ApprovalStore } from './approval-store.js';
import type { EvidenceStore } from './evidence-store.js';
import type { PushConfigRecord, PushStore } from './push-store.js';
import type { ReplyStore } from './reply-store.js';

/** Who may see a task, and under which tenant it lives. Empty strings mean "none". */
export interface TaskScope {
  /** A2A 1.0 §4.4.6 tenant; `''` when the request named none. */
  tenant: string;
  /** The authenticated principal that created the task; `''` for anonymous callers. */
  owner: string;
}

/**
 * An idempotency key within its caller's scope (decision 0091), as one string; NUL cannot occur in
 * a tenant or principal name.
 */
export function scopedIdempotencyKey(key: string, scope: TaskScope): string {
  return `${scope.tenant}\u0000${scope.owner}\u0000${key}`;
}

/**
 * Whether a task created in `task`'s scope is visible in `scope`: same tenant, and created
 * anonymously or by the same principal (A2A 1.0 §13.1). Every store reads an invisible task as
 * absent, so its existence never leaks.
 */
export function visibleIn(task: TaskScope, scope: TaskScope): boolean {
  return task.tenant === scope.tenant && (task.owner === '' || task.owner === scope.owner);
}

/** A snapshot as read back from the store. */
export interface StoredTask extends TaskScope {
  task: Task;
  /** Sequence number of the last event appended; 0 never occurs for a stored task. */
  version: number;
  /**
   * The task's artifacts, read from the store as they are consumed, when the read asked for them
   * apart (`TaskReadOptions.artifactsApart`) and the store keeps them in rows; `task.artifacts` is
   * then absent. Read once, soon: a store may read its rows as of when the task was read.
   */
  artifacts?: AsyncIterable<ArtifactPiece> | undefined;
}

/**
 * One stored artifact update, as a read apart yields them (decision 0172): each artifact's updates
 * come together, in the order its artifact takes in the task, the first of them with `append`
 * false and the rest true, so that joining each `append` to the artifact before it (A2A 1.0
 * §4.2.2) gives the task's artifacts. An update that a later one replaced is not yielded.
 */
export interface ArtifactPiece {
  artifact: Artifact;
  append: boolean;
}

/**
 * What a task's row says without its snapshot: who may see it, its version and its state. A
 * resumed stream needs no more (A2A 1.0 §3.1.6), and reading it costs the same whatever the task's
 * history and artifacts weigh (issue 27: a task of 100,000 events resumed from a recent cursor).
 */
export interface StoredTaskHead extends TaskScope {
  version: number;
  state: TaskState;
}

/**
 * What a read of one task needs (a hint: a store may return more, and the caller trims). A long
 * task's GetTask with `historyLength` then costs the messages it returns (issue 27).
 */
export interface TaskReadOptions {
  /** Only the newest this many history messages are needed (a whole number over 0). */
  historyLength?: number | undefined;
  /**
   * The artifacts may come apart, as `StoredTask.artifacts` (decision 0172): the reader writes
   * them out as it reads them, so a task of hundreds of megabytes is never held whole.
   */
  artifactsApart?: boolean | undefined;
}

/** One persisted event. `seq` starts at 1 per task and has no gaps. */
export interface TaskEventRecord {
  seq: number;
  event: StreamResponse;
}

/** An atomic write: the new snapshot and the events that produced it. */
export interface TaskCommit extends TaskScope {
  /** The snapshot after applying `events`. */
  task: Task;
  /** The version the writer read; 0 creates the task (and fails if it exists). */
  expectedVersion: number;
  /** At least one event; they get `expectedVersion + 1 ...` as sequence numbers. */
  events: StreamResponse[];
  /**
   * Push configs created in the same transaction, before the commit's deliveries are queued (a
   * config given inline with a send gets the task's first events too). Only for stores with `push`.
   */
  pushConfigs?: PushConfigRecord[];
  /**
   * The idempotency key of the send whose message this commit records (decision 0091). The store
   * keeps it, unique per (tenant, owner), pointing at `task.id`, for as long as it keeps the task;
   * if another task already holds it, the commit writes nothing and throws
   * IdempotencyKeyConflictError.
   */
  idempotencyKey?: string;
  /**
   * The W3C trace context headers (`traceparent`, `tracestate`) of the operation that produced the
   * events (decision 0157): stored with each outbox entry the commit queues, so the delivery is
   * traced below it. Absent when nothing is traced.
   */
  traceContext?: Record<string, string> | undefined;
  /**
   * `task.history` holds the task's messages from this index on: the ones before it are already
   * in the store's rows (decision 0164), and a long-running task need not copy them into every
   * commit. Only for a task the store said it keeps apart (`keepsArtifactUpdates`); a store that
   * does not keep it so refuses the commit as stale (VersionConflictError). Absent or 0: whole.
   */
  historyFrom?: number;
}

/** Filters for `list`, already validated by the caller (A2A 1.0 §3.1.4). */
export interface TaskQuery extends TaskScope {
  contextId?: string;
  status?: TaskState;
  /** RFC 3339; keeps tasks whose status timestamp is strictly later. */
  statusTimestampAfter?: string;
  pageSize: number;
  pageToken?: string;
}

/** A page of tasks, newest status change first. */
export interface TaskPage {
  tasks: Task[];
  /** `''` on the last page (A2A 1.0 §3.1.4). */
  nextPageToken: string;
  totalSize: number;
}

/** Thrown by `commit` when `expectedVersion` is not the stored version. */
export class VersionConflictError extends Error {
  constructor(
    readonly taskId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(`task ${taskId}: expected version ${expectedVersion}, store has ${actualVersion}`);
    this.name = 'VersionConflictError';
  }
}

/**
 * Thrown by `commit` when its `idempotencyKey` already belongs to another task of the same caller:
 * a retried send was recorded first (by this process or another one sharing the store).
 */
export class IdempotencyKeyConflictError extends Error {
  constructor(
    /** The task that holds the key. */
    readonly taskId: string,
    readonly key: string,
  ) {
    super(`idempotency key already used by task ${taskId}`);
    this.name = 'IdempotencyKeyConflictError';
  }
}

/** A task that an earlier process left submitted or working (`TaskStore.claimUnfinished`). */
export interface UnfinishedTask {
  taskId: string;
  tenant: string;
  owner: string;
}

/** Persistence of tasks and their event logs. */
export interface TaskStore {
  /** Applies a commit atomically; resolves with the new version once it is durable. */
  commit(commit: TaskCommit): Promise<number>;
  /**
   * Reads a task visible in `scope`: same tenant, and either created anonymously (owner `''`) or
   * by `scope.owner`. Invisible tasks read as absent, so their existence never leaks (A2A 1.0 §13.1).
   */
  get(taskId: string, scope: TaskScope, options?: TaskReadOptions): Promise<StoredTask | undefined>;
  /**
   * Reads a task's head as `get` reads the task (invisible reads as absent), without its snapshot.
   * Optional: the server reads a store without it through `get`.
   */
  head?(taskId: string, scope: TaskScope): Promise<StoredTaskHead | undefined>;
  /**
   * Whether the store keeps this task's history and artifact updates apart and rebuilds its task
   * from them (decision 0164): from then on a commit's `task` need not carry the artifacts' parts,
   * nor the history before `TaskCommit.historyFrom`, so the server can let go of them. Optional: a
   * store without it always gets whole tasks.
   */
  keepsArtifactUpdates?(taskId: string): Promise<boolean>;
  /**
   * Reads a task's events with `seq > afterSeq`, in order; with `limit`, the first `limit` of them
   * or more, so a reader of a long log can page through it without holding all of it (issue 27).
   * Fewer than `limit` means the log has no more. A store may give more than `limit` rather than
   * split what it keeps together (SQLite: one commit's events are one row), and a store that
   * ignores `limit` is still correct, only heavier to page through.
   */
  readEvents(taskId: string, afterSeq: number, scope: TaskScope, limit?: number): Promise<TaskEventRecord[]>;
  /**
   * The task that recorded a send with this idempotency key for this caller (`commit`'s
   * `idempotencyKey`), or undefined. Keys are scoped like tasks: same tenant and same owner.
   * It must see every keyed commit of this process that resolved before it answers, even one that
   * resolved while it ran: the server forgets an in-flight send once its commit resolved
   * (decision 0091), so a lookup that missed it would run the agent twice. Synchronous stores get
   * this for free; the PostgreSQL store remembers such commits (postgres/recent-keys.ts).
   */
  findIdempotencyKey(key: string, scope: TaskScope): Promise<string | undefined>;
  /** Lists tasks, newest status timestamp first, with an opaque cursor. */
  list(query: TaskQuery): Promise<TaskPage>;
  /** Flushes and releases resources. */
  close(): Promise<void>;
  /**
   * Readiness probe (`concord serve`'s /readyz, decision 0158): resolves when the store answers and
   * its schema is the one this Concord needs, rejects saying why not. Stores that cannot become
   * unreachable (memory, an open SQLite file) leave it out.
   */
  ping?(): Promise<void>;
  /**
   * The schema versions the store found and left when it opened (`from === to`: nothing to
   * migrate), for `concord serve`'s lifecycle log (decision 0158). Stores without a schema leave
   * it out.
   */
  readonly schemaMigration?: { readonly from: number; readonly to: number } | undefined;
  /**
   * Stores that outlive their process and are served by one process at a time (SQLite) offer this
   * (decision 0119). When no other live process serves the store, it makes the caller the one that
   * does (until `close`) and returns the tasks left submitted or working, whose executors died
   * with an earlier process; once it holds the store, further calls return an empty list. While
   * another live process serves the store, it returns undefined; ask again later.
   */
  claimUnfinished?(): Promise<UnfinishedTask[] | undefined>;
  /**
   * Stores that can persist approvals (`requiresApproval`) expose them here, kept as the tasks are
   * (the same file for SQLite) and closed with this store.
   */
  readonly approvals?: ApprovalStore;
  /**
   * Stores that can persist evidence chains expose them here, kept as the tasks are (the same file
   * for SQLite) and closed with this store.
   */
  readonly evidence?: EvidenceStore;
  /**
   * Stores that keep push-notification configs expose them here. Such a store queues the push
   * deliveries of every commit in that commit's own transaction (push-store.ts).
   */
  readonly push?: PushStore;
  /**
   * Stores that keep the direct Message replies of keyed sends expose them here (decision 0147),
   * kept as the tasks are (the same file for SQLite, the same schema for PostgreSQL). A server on a
   * store without them keeps replies in its own memory only.
   */
  readonly replies?: ReplyStore;
}
