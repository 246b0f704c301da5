/**
 * Group commit. `enqueue` serialises the commit at once and parks it; one flush per event-loop
 * turn (setImmediate) writes every parked commit in a single transaction, then settles each
 * promise. One transaction per batch instead of per commit is what lets a single SQLite file keep
 * up with thousands of commits a second: the per-transaction cost (lock, WAL frame, header) is paid
 * once per batch.
 *
 * Versions are still checked per commit, inside the transaction (TaskStore port): a stale commit
 * is rejected with VersionConflictError and the rest of the batch goes ahead. Commits to the same
 * task in one batch are checked in arrival order against the version the earlier ones produced.
 *
 * The write lock is never waited for on the event loop (docs/performance.md, 'Write lock without
 * waiting'). The turn's flush tries BEGIN IMMEDIATE without a busy timeout; when the lock is held
 * (the checkpoint worker restarting the WAL, another process writing) the batch stays parked and
 * the flush is tried again after a short pause, so the loop goes on reading and running requests,
 * whose commits join the batch. SQLite's own busy handler would sleep instead, in steps of 1, 2, 5,
 * 10 ms, while the requests waited. Past the store's busy timeout the batch fails, as a blocking
 * wait would have. Flushes that must happen now (before another store's write, at close) still
 * wait, up to that timeout.
 *
 * Kept replies of keyed sends (sqlite-reply-store.ts, decision 0147) ride in the same batches: a
 * reply costs a row in the turn's transaction rather than a transaction of its own.
 */
import type Database from 'better-sqlite3';
import {
  IdempotencyKeyConflictError,
  scopedIdempotencyKey,
  VersionConflictError,
  visibleIn,
  type TaskCommit,
} from '../task-store.js';
import { taskStatusKey } from '../status-time.js';
import { encodeEventRow } from './event-rows.js';
import type { KeptReply } from '../reply-store.js';
import type { KeyFilter } from './key-filter.js';
import type { SqlitePushStore } from './sqlite-push-store.js';
import type { PendingReply, SqliteReplyStore } from './sqlite-reply-store.js';
import type { Statements, TaskHead } from './statements.js';
import { moreRows, SPLIT_BYTES, splitRows, type PartRows } from '../heavy-tasks.js';
import type { TaskParts } from './task-parts.js';

interface PendingCommit {
  commit: TaskCommit;
  /** The whole task as JSON, or its head when the task is split (task-parts.ts). */
  snapshot: string;
  /** The rows a split task's commit adds; undefined while the task stays whole. */
  parts: PartRows | undefined;
  /** The history rows the commit was computed against (null: the task was whole). */
  partsBase: number | null;
  events: string[];
  statusKey: string;
  resolve: (version: number) => void;
  reject: (error: unknown) => void;
}

interface PendingKeep {
  reply: PendingReply;
  resolve: (kept: KeptReply) => void;
  reject: (error: unknown) => void;
}

type Pending = PendingCommit | PendingKeep;

/** What one entry of a batch came to: a commit's new version, the reply kept, or why it failed. */
type Outcome = number | KeptReply | Error;

/** The longest pause between two tries of a busy lock, in ms. */
const BUSY_MAX_PAUSE_MS = 20;

/** SQLITE_BUSY and its extended codes: the lock is held by someone else. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** `held_keys` with one more [owner, key] (schema 8). */
function holdKey(heldKeys: string | null, owner: string, key: string): string {
  const held = heldKeys === null ? [] : (JSON.parse(heldKeys) as [string, string][]);
  held.push([owner, key]);
  return JSON.stringify(held);
}

/** Batches commits into shared transactions; see the file comment. */
export class WriteQueue {
  private queue: Pending[] = [];
  private timer: NodeJS.Immediate | undefined;
  /** The next try of a busy lock. */
  private retryTimer: NodeJS.Timeout | undefined;
  /** When the parked batch first found the lock busy (performance.now()); unset otherwise. */
  private busySince: number | undefined;
  private closed = false;
  private readonly writeBatch: Database.Transaction<(batch: Pending[]) => Outcome[]>;
  private readonly busyTimeoutMs: number;

  constructor(
    private readonly db: Database.Database,
    private readonly sql: Statements,
    /** Queues each commit's push deliveries inside the batch transaction (push-store.ts). */
    private readonly push: SqlitePushStore,
    /** Learns each key as its commit is queued, before it is durable, so it never misses one. */
    private readonly keys: KeyFilter,
    /** Writes kept replies inside the batch transaction. */
    private readonly replies: SqliteReplyStore,
    /** A split task's history and artifact rows (task-parts.ts). */
    private readonly parts: TaskParts,
  ) {
    this.writeBatch = db.transaction((batch: Pending[]) => this.write(batch));
    this.busyTimeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
  }

  /** Parks a commit for the next flush; resolves with the new version once it is committed. */
  enqueue(commit: TaskCommit): Promise<number> {
    if (this.closed) return Promise.reject(new Error('task store is closed'));
    if (commit.events.length === 0) {
      return Promise.reject(new Error(`commit of task ${commit.task.id} carries no events`));
    }
    let snapshot: string;
    let parts: PartRows | undefined;
    let partsBase: number | null = null;
    const events: string[] = [];
    try {
      // Serialised here, once, outside the transaction: a value JSON cannot hold fails its own
      // commit only, and the write lock is held for SQL work alone.
      for (const event of commit.events) events.push(JSON.stringify(event));
      // A split task writes its head and what the commit adds (decision 0164); a new task is whole.
      const split = commit.expectedVersion > 0 ? this.sql.selectParts.get(commit.task.id) : undefined;
      if (split !== undefined && split.history_rows !== null) {
        partsBase = split.history_rows;
        const counts = { history: split.history_rows, artifacts: split.artifact_rows ?? 0 };
        const more = moreRows(commit.task, counts, commit.events, events, commit.historyFrom);
        if (more === undefined) throw this.stale(commit);
        parts = more;
        snapshot = parts.head;
      } else if ((commit.historyFrom ?? 0) > 0) {
        // Only part of the history, for a task that is whole here: built on some other task.
        throw this.stale(commit);
      } else {
        snapshot = JSON.stringify(commit.task);
        if (snapshot.length > SPLIT_BYTES) {
          parts = splitRows(commit.task);
          snapshot = parts.head;
        }
      }
    } catch (error) {
      return Promise.reject(error);
    }
    const statusKey = taskStatusKey(commit.task.status.timestamp);
    const key = commit.idempotencyKey;
    if (key !== undefined) this.keys.add(scopedIdempotencyKey(key, commit));
    return new Promise<number>((resolve, reject) => {
      this.park({ commit, snapshot, parts, partsBase, events, statusKey, resolve, reject });
    });
  }

  /** A commit built on a task other than the stored one, refused before it is queued. */
  private stale(commit: TaskCommit): VersionConflictError {
    return new VersionConflictError(commit.task.id, commit.expectedVersion, commit.expectedVersion);
  }

  /** Parks a reply to keep for the next flush; resolves with the reply kept once committed. */
  enqueueReply(reply: PendingReply): Promise<KeptReply> {
    if (this.closed) return Promise.reject(new Error('task store is closed'));
    this.keys.add(scopedIdempotencyKey(reply.key, reply));
    return new Promise<KeptReply>((resolve, reject) => this.park({ reply, resolve, reject }));
  }

  private park(pending: Pending): void {
    this.queue.push(pending);
    // While the lock is busy, the retry already scheduled writes this entry too.
    if (this.busySince === undefined) this.timer ??= setImmediate(() => this.flush(false));
  }

  /**
   * Writes everything parked now (synchronously) and settles its promises. With `wait` false (the
   * turn's own flush), a busy write lock leaves the batch parked for a later try instead.
   */
  flush(wait = true): void {
    if (this.timer !== undefined) {
      clearImmediate(this.timer);
      this.timer = undefined;
    }
    if (this.retryTimer !== undefined) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    const batch = this.queue;
    if (batch.length === 0) return;
    let outcomes: Outcome[] | undefined;
    if (!wait) {
      try {
        outcomes = this.tryWrite(batch);
      } catch (error) {
        // Not a busy lock (a constraint, a full disk): commit by commit, rejecting what fails.
        if (!isBusy(error)) return this.settle(batch, this.writeOneByOne(batch));
        const busySince = (this.busySince ??= performance.now());
        const waited = performance.now() - busySince;
        if (waited < this.busyTimeoutMs) {
          this.retryLater(waited);
          return;
        }
        // Held past the busy timeout: the batch fails, as a blocking wait would have.
        outcomes = batch.map(() => error as Error);
      }
    }
    this.settle(batch, outcomes ?? this.writeWaiting(batch));
  }

  /** Takes the batch off the queue and settles each commit's promise with its outcome. */
  private settle(batch: Pending[], outcomes: Outcome[]): void {
    this.busySince = undefined;
    this.queue = [];
    for (let i = 0; i < batch.length; i++) {
      const outcome = outcomes[i]!;
      const pending = batch[i]!;
      if (outcome instanceof Error) pending.reject(outcome);
      else if ('reply' in pending) pending.resolve(outcome as KeptReply);
      else pending.resolve(outcome as number);
    }
    this.push.afterBatch();
  }

  /**
   * The batch in one transaction, if the write lock is free right now; throws SQLITE_BUSY if it
   * is not, having written nothing. Inside the transaction nothing else waits for a lock: the
   * write lock is held, and WAL readers take none.
   */
  private tryWrite(batch: Pending[]): Outcome[] {
    // Not a prepared statement: SQLite applies this pragma when it compiles it, not when it runs.
    this.db.pragma('busy_timeout = 0');
    try {
      return this.writeBatch.immediate(batch);
    } finally {
      this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
  }

  /**
   * Tries the busy lock again after a pause of a quarter of the time waited so far (at least 1 ms,
   * at most BUSY_MAX_PAUSE_MS). Not on the next turn: on a server pinned to one core, the holder
   * (the checkpoint worker) needs that core to finish, and retrying every turn cost throughput.
   */
  private retryLater(waited: number): void {
    const pause = Math.min(BUSY_MAX_PAUSE_MS, Math.max(1, Math.ceil(waited / 4)));
    this.retryTimer = setTimeout(() => this.flush(false), pause);
  }

  /** The batch in one transaction, waiting for the lock up to the busy timeout. */
  private writeWaiting(batch: Pending[]): Outcome[] {
    try {
      // IMMEDIATE takes the write lock up front, so another process's writer makes us wait
      // (busy_timeout) at BEGIN rather than fail halfway through the batch.
      return this.writeBatch.immediate(batch);
    } catch (error) {
      // A lock held past the busy timeout fails the batch at once: one more wait per commit would
      // hold the event loop for as many timeouts as the batch has commits.
      if (isBusy(error)) return batch.map(() => error as Error);
      return this.writeOneByOne(batch);
    }
  }

  /**
   * Something other than a version conflict failed the batch (a constraint, a full disk) and it
   * rolled back: each commit is retried alone, so only the ones that really fail are rejected.
   */
  private writeOneByOne(batch: Pending[]): Outcome[] {
    return batch.map((one) => {
      try {
        return this.writeBatch.immediate([one])[0]!;
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    });
  }

  /** Flushes what is parked and refuses further commits. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  /** Runs inside the transaction. */
  private write(batch: Pending[]): Outcome[] {
    const { selectHead, insertTask, updateTask, insertEvents, selectKey, insertKey } = this.sql;
    // Heads written earlier in this batch: the next commit to the same task is checked against them
    // (and the SELECT is saved).
    const written = new Map<string, TaskHead>();
    const outcomes: Outcome[] = [];
    let now: number | undefined;
    for (const p of batch) {
      if ('reply' in p) {
        outcomes.push(this.replies.writeInBatch(p.reply, (now ??= Date.now())));
        continue;
      }
      const { task, expectedVersion } = p.commit;
      const head = written.get(task.id) ?? selectHead.get(task.id);
      // A task the writer may not see counts as absent, as for `get`; a create still fails on it,
      // since the id is taken.
      let actual = 0;
      if (head !== undefined && (expectedVersion === 0 || visibleIn(head, p.commit))) actual = head.version;
      // A split the commit did not see (or saw that is gone) makes its rows wrong: it is stale.
      if (actual !== expectedVersion || (head?.history_rows ?? null) !== p.partsBase) {
        outcomes.push(new VersionConflictError(task.id, expectedVersion, actual));
        continue;
      }
      const key = p.commit.idempotencyKey;
      let heldKeys = head?.held_keys ?? null;
      // The key first, before anything else of this commit is written, so a conflict writes
      // nothing. INSERT OR IGNORE probes the key's B-tree page once; only a key that is already
      // there (a conflict, or this task's own retry) costs a second look to read its holder.
      if (key !== undefined) {
        if (insertKey.run(p.commit.tenant, p.commit.owner, key, task.id).changes === 0) {
          const holder = selectKey.get(p.commit.tenant, p.commit.owner, key)?.task_id;
          if (holder !== undefined && holder !== task.id) {
            outcomes.push(new IdempotencyKeyConflictError(holder, key));
            continue;
          }
        } else {
          heldKeys = holdKey(heldKeys, p.commit.owner, key);
        }
      }
      const version = expectedVersion + p.events.length;
      const state = task.status.state;
      const counts = p.parts === undefined ? undefined : this.parts.write(task.id, p.parts);
      const historyRows = counts?.history ?? null;
      const artifactRows = counts?.artifacts ?? null;
      let after: TaskHead;
      if (head === undefined) {
        const { tenant, owner } = p.commit;
        insertTask.run(
          task.id,
          tenant,
          owner,
          task.contextId,
          state,
          p.statusKey,
          version,
          p.snapshot,
          heldKeys,
          historyRows,
          artifactRows,
        );
        after = {
          tenant,
          owner,
          version,
          push_configs: 0,
          held_keys: heldKeys,
          history_rows: historyRows,
          artifact_rows: artifactRows,
        };
      } else {
        // Tenant and owner stay as created: a follow-up by another visible caller (an anonymous
        // task continued by a signed-in user) must not take the task over.
        updateTask.run(
          task.contextId,
          state,
          p.statusKey,
          version,
          p.snapshot,
          heldKeys,
          historyRows,
          artifactRows,
          task.id,
        );
        after = {
          tenant: head.tenant,
          owner: head.owner,
          version,
          push_configs: head.push_configs,
          held_keys: heldKeys,
          history_rows: historyRows,
          artifact_rows: artifactRows,
        };
      }
      // The commit's events in one row, keyed by the last one's sequence number (event-rows.ts).
      insertEvents.run(task.id, version, encodeEventRow(p.events));
      // The outbox in the same transaction; a task without configs skips this on the count it
      // already read with its head.
      const { pushConfigs } = p.commit;
      if (after.push_configs > 0 || pushConfigs !== undefined) {
        after.push_configs = this.push.recordCommit(
          task.id,
          expectedVersion + 1,
          p.events,
          // Push bodies carry the whole task (0.3): a split task's is read back from its rows for
          // them alone, since the server may have let go of its artifacts' parts (decision 0164).
          p.parts === undefined
            ? p.snapshot
            : JSON.stringify(this.parts.read(task.id, p.snapshot, historyRows!)),
          pushConfigs,
          after.push_configs,
          p.commit.traceContext,
        );
      }
      written.set(task.id, after);
      outcomes.push(version);
    }
    return outcomes;
  }
}
