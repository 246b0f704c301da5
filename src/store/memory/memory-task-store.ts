/**
 * The in-memory TaskStore: for tests, examples and single-process servers that need no restart
 * safety. Snapshots are kept as given (the model is immutable once built, see model.ts), so a
 * commit costs a map lookup and a few pushes. Everything is synchronous underneath; promises are
 * created already settled, and a commit is checked and applied in one synchronous step, so of two
 * commits from the same version exactly one wins.
 *
 * Memory is bounded: past `maxTasks` tasks, the oldest-created tasks in a terminal state are
 * forgotten (decision 0010). Tasks still in progress are never dropped, whatever their age. A task
 * that reaches a terminal state is kept as JSON text outside the JavaScript heap (text-archive.ts;
 * docs/performance.md, 'Frozen memory-store tasks'), and read back like the durable stores read
 * their rows.
 */
import { isTerminalState, type Task, type TaskState } from '../../protocol/model.js';
import { isAfterCursor, planList } from '../list-plan.js';
import { encodePageToken } from '../page-token.js';
import { taskStatusKey } from '../status-time.js';
import {
  IdempotencyKeyConflictError,
  VersionConflictError,
  type StoredTask,
  type StoredTaskHead,
  type TaskCommit,
  type TaskEventRecord,
  type TaskPage,
  type TaskQuery,
  type TaskScope,
  type TaskStore,
  scopedIdempotencyKey,
  visibleIn,
} from '../task-store.js';
import { FirstInOrder } from './first-in-order.js';
import { MemoryApprovalStore } from './memory-approval-store.js';
import { MemoryEvidenceStore } from './memory-evidence-store.js';
import { MemoryPushStore } from './memory-push-store.js';
import { MemoryReplyStore } from './memory-reply-store.js';
import { TextArchive, type TextPlace } from './text-archive.js';

/** One per task, updated in place by commits. */
interface Entry {
  // Copies of what `list` filters and sorts on, so its scan reads one object per task.
  readonly id: string;
  /** Fixed at creation. */
  readonly tenant: string;
  readonly owner: string;
  contextId: string;
  state: TaskState;
  /** Sequence number of the task's last event. */
  version: number;
  /** Returned by `get` as is; replaced (never mutated) on every commit. Unset while frozen. */
  stored: StoredTask | undefined;
  /** Sortable status time (status-time.ts). */
  statusKey: string;
  /**
   * `events[i].seq === i + 1`: the log has no gaps, so `afterSeq` is an index. Unset while
   * frozen.
   */
  events: TaskEventRecord[] | undefined;
  /**
   * A terminal task's snapshot and log as JSON text, one after the other (see `freeze`); `stored`
   * and `events` are unset meanwhile. `taskBytes` is where the snapshot ends.
   */
  frozen: TextPlace | undefined;
  taskBytes: number;
  /** Set once the entry left the map; `created` drops it at its next compaction. */
  evicted: boolean;
  /**
   * Idempotency keys this task holds (scoped, see `scopedKey`), forgotten with it. Present from
   * the start (undefined), so setting it later keeps the entry's shape and needs no extra storage.
   */
  keys: string[] | undefined;
}

/** Options of the in-memory store. */
export interface MemoryTaskStoreOptions {
  /**
   * How many tasks to keep (default 10,000). Beyond it, the oldest terminal tasks are dropped;
   * `Infinity` keeps everything (memory then grows with every task).
   */
  maxTasks?: number;
}

/** Tasks kept by default: plenty for development and tests, bounded for a long-running process. */
export const DEFAULT_MAX_TASKS = 10_000;

/** A TaskStore that keeps everything in process memory; see the file comment. */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Entry>();
  /** Scoped idempotency key → task id (decision 0091). */
  private readonly keys = new Map<string, string>();
  /** Entries in creation order, so `list` can walk newest-created first (see `page`). */
  private created: Entry[] = [];
  /** Entries of `created` before this index were all looked at by an eviction sweep. */
  private sweepFrom = 0;
  private evictedInCreated = 0;
  private readonly maxTasks: number;
  /** No sweep before the map is this big (raised when a sweep found too few terminal tasks). */
  private sweepAt: number;
  private closed = false;
  /** Where terminal tasks are kept (`freeze`). */
  private readonly archive = new TextArchive();
  /** Approvals of held messages, kept (and closed) alongside the tasks. */
  readonly approvals = new MemoryApprovalStore();
  /** Evidence chains (e.g. AUMP evidence events), kept and closed alongside the tasks. */
  readonly evidence = new MemoryEvidenceStore();
  /** Push configs and their outbox, written in the same step as each commit (push-store.ts). */
  readonly push = new MemoryPushStore((taskId) => this.tasks.has(taskId));
  /** Direct Message replies of keyed sends, bounded (memory-reply-store.ts, decision 0147). */
  readonly replies = new MemoryReplyStore();

  constructor(options: MemoryTaskStoreOptions = {}) {
    const max = options.maxTasks ?? DEFAULT_MAX_TASKS;
    if (!(max >= 1)) throw new RangeError(`maxTasks must be at least 1, got ${max}`);
    this.maxTasks = max;
    this.sweepAt = max;
  }

  commit(commit: TaskCommit): Promise<number> {
    try {
      return Promise.resolve(this.apply(commit));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get(taskId: string, scope: TaskScope): Promise<StoredTask | undefined> {
    const entry = this.tasks.get(taskId);
    if (entry === undefined || !visibleIn(entry, scope)) return Promise.resolve(undefined);
    try {
      return Promise.resolve(entry.stored ?? this.frozenStored(entry));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  head(taskId: string, scope: TaskScope): Promise<StoredTaskHead | undefined> {
    const entry = this.tasks.get(taskId);
    if (entry === undefined || !visibleIn(entry, scope)) return Promise.resolve(undefined);
    const { tenant, owner, version, state } = entry;
    return Promise.resolve({ tenant, owner, version, state });
  }

  readEvents(taskId: string, afterSeq: number, scope: TaskScope, limit?: number): Promise<TaskEventRecord[]> {
    const entry = this.tasks.get(taskId);
    if (entry === undefined || !visibleIn(entry, scope)) return Promise.resolve([]);
    const from = Number.isNaN(afterSeq) ? 0 : Math.max(0, Math.floor(afterSeq));
    try {
      // A copy: the log keeps growing, and the caller must not see (or cause) later changes. A
      // frozen log is parsed afresh, so it is a copy already.
      const { events } = entry;
      if (events !== undefined) {
        const to = limit === undefined ? undefined : from + Math.max(0, Math.floor(limit));
        return Promise.resolve(events.slice(from, to));
      }
      // A frozen log is parsed whole whatever the page: all of it at once, so a reader paging
      // through it parses it once (TaskStore readEvents lets a store give more than `limit`).
      return Promise.resolve(this.frozenEvents(entry).slice(from));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  findIdempotencyKey(key: string, scope: TaskScope): Promise<string | undefined> {
    return Promise.resolve(this.keys.get(scopedIdempotencyKey(key, scope)));
  }

  list(query: TaskQuery): Promise<TaskPage> {
    try {
      return Promise.resolve(this.page(query));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.all([this.approvals.close(), this.evidence.close()]).then(() => undefined);
  }

  private apply(commit: TaskCommit): number {
    if (this.closed) throw new Error('task store is closed');
    const { task, expectedVersion, events } = commit;
    if (events.length === 0) throw new Error(`commit of task ${task.id} carries no events`);
    const entry = this.tasks.get(task.id);
    // A task the writer may not see counts as absent (version 0), as for `get`; a create still
    // fails on it, since the id is taken.
    let actual = 0;
    if (entry !== undefined && (expectedVersion === 0 || visibleIn(entry, commit))) {
      actual = entry.version;
    }
    if (actual !== expectedVersion) throw new VersionConflictError(task.id, expectedVersion, actual);
    // Only part of the history (TaskCommit.historyFrom): this store keeps every task whole.
    if ((commit.historyFrom ?? 0) > 0) throw new VersionConflictError(task.id, expectedVersion, actual);
    let key: string | undefined;
    if (commit.idempotencyKey !== undefined) {
      key = scopedIdempotencyKey(commit.idempotencyKey, commit);
      const holder = this.keys.get(key);
      if (holder !== undefined && holder !== task.id)
        throw new IdempotencyKeyConflictError(holder, commit.idempotencyKey);
    }
    const version = expectedVersion + events.length;
    const statusKey = taskStatusKey(task.status.timestamp);
    // Built at its final length: an array grown from [] by push reserves 17 slots, and the store
    // keeps each task's log for as long as it keeps the task.
    const records = events.map((event, i): TaskEventRecord => ({ seq: expectedVersion + 1 + i, event }));
    if (entry === undefined) {
      const { tenant, owner } = commit;
      const created: Entry = {
        id: task.id,
        tenant,
        owner,
        contextId: task.contextId,
        state: task.status.state,
        version,
        stored: { tenant, owner, task, version },
        statusKey,
        events: records,
        frozen: undefined,
        taskBytes: 0,
        evicted: false,
        keys: undefined,
      };
      this.tasks.set(task.id, created);
      this.created.push(created);
      if (isTerminalState(created.state)) this.freeze(created);
      if (this.tasks.size > this.sweepAt) this.evict();
    } else {
      // A terminal task is not normally committed to again (the server refuses messages to it),
      // but the store does not rely on that: the log is thawed and appended to.
      const log = entry.events ?? this.frozenEvents(entry);
      for (const record of records) log.push(record);
      entry.events = log;
      this.unfreeze(entry);
      // Tenant and owner are fixed when the task is created; a follow-up by another visible caller
      // (an anonymous task continued by a signed-in user) must not take the task over.
      entry.stored = { tenant: entry.tenant, owner: entry.owner, task, version };
      entry.version = version;
      entry.contextId = task.contextId;
      entry.state = task.status.state;
      entry.statusKey = statusKey;
      if (isTerminalState(entry.state)) this.freeze(entry);
    }
    // (A new terminal task may already have been evicted by its own create: then no key stays.)
    const held = key === undefined ? undefined : this.tasks.get(task.id);
    if (held !== undefined) {
      this.keys.set(key!, task.id);
      if (held.keys === undefined) held.keys = [key!];
      else held.keys.push(key!);
    }
    // Tasks without push configs pay one size check here (push-store.ts: the outbox promise).
    const { push } = this;
    if (
      (commit.pushConfigs !== undefined || push.hasConfigs(task.id)) &&
      push.recordCommit(task, expectedVersion + 1, events, commit.pushConfigs, commit.traceContext)
    ) {
      push.notify();
    }
    return version;
  }

  /**
   * Drops the oldest terminal tasks until a tenth of the room is free again, so sweeps are rare
   * and their cost is spread over many creates. The sweep resumes where the last one stopped; the
   * in-progress tasks it passes stay, and are looked at again by the sweep after a compaction or
   * after one that reached the end. Many long-running tasks make the store outgrow `maxTasks`
   * (they are never dropped); sweeps then wait for another tenth of growth each, to stay cheap.
   */
  private evict(): void {
    const target = this.maxTasks - Math.floor(this.maxTasks / 10);
    const { created, tasks } = this;
    let i = this.sweepFrom;
    for (; i < created.length && tasks.size > target; i++) {
      const entry = created[i]!;
      if (entry.evicted || !isTerminalState(entry.state)) continue;
      entry.evicted = true;
      // The entry may stay in `created` until its next compaction; its text need not. (Only
      // terminal entries get here, and those are always frozen: no objects to drop.)
      this.unfreeze(entry);
      tasks.delete(entry.id);
      if (entry.keys !== undefined) for (const key of entry.keys) this.keys.delete(key);
      this.push.forgetTask(entry.id);
      this.evictedInCreated++;
    }
    const room = Math.max(1, Math.floor(this.maxTasks / 10));
    if (tasks.size > target) {
      // Not enough terminal tasks: start over next time, once the store grew by another tenth.
      this.sweepFrom = 0;
      this.sweepAt = tasks.size + room;
    } else {
      this.sweepFrom = i;
      this.sweepAt = this.maxTasks;
    }
    // Compact once most of the array is dead weight (amortised O(1) per create).
    if (this.evictedInCreated * 2 > created.length) {
      this.created = created.filter((entry) => !entry.evicted);
      this.evictedInCreated = 0;
      this.sweepFrom = 0;
    }
  }

  /**
   * Moves a terminal task's snapshot and log into the archive as JSON (docs/performance.md, 'Frozen
   * memory-store tasks'): the same text the durable stores write, and read back the same way. The
   * model is plain JSON data (model.ts), so what comes back equals what went in.
   */
  private freeze(entry: Entry): void {
    const task = JSON.stringify(entry.stored!.task);
    const events = JSON.stringify(entry.events);
    // Each part measured once: the split is needed to read the snapshot alone.
    const taskBytes = Buffer.byteLength(task, 'utf8');
    entry.frozen = this.archive.put(task + events, taskBytes + Buffer.byteLength(events, 'utf8'));
    entry.taskBytes = taskBytes;
    entry.stored = undefined;
    entry.events = undefined;
  }

  /** Releases a frozen entry's text, if it has one. */
  private unfreeze(entry: Entry): void {
    if (entry.frozen === undefined) return;
    this.archive.release(entry.frozen);
    entry.frozen = undefined;
  }

  private frozenTask(entry: Entry): Task {
    return JSON.parse(this.archive.read(entry.frozen!, 0, entry.taskBytes)) as Task;
  }

  private frozenStored(entry: Entry): StoredTask {
    const { tenant, owner, version } = entry;
    return { tenant, owner, task: this.frozenTask(entry), version };
  }

  private frozenEvents(entry: Entry): TaskEventRecord[] {
    return JSON.parse(this.archive.read(entry.frozen!, entry.taskBytes)) as TaskEventRecord[];
  }

  private page(query: TaskQuery): TaskPage {
    const plan = planList(query);
    const { tenant, owner, contextId, status, afterKey, cursor } = plan;
    let totalSize = 0;
    // One more than a page: if it exists, another page follows.
    const first = new FirstInOrder<Entry>(plan.pageSize + 1, newestFirst);
    // Newest-created first: status times mostly follow creation, so the page fills with its final
    // rows early and most older tasks are turned away by a single comparison.
    const { created } = this;
    for (let i = created.length - 1; i >= 0; i--) {
      const entry = created[i]!;
      if (entry.evicted) continue;
      if (entry.tenant !== tenant || (entry.owner !== '' && entry.owner !== owner)) continue;
      if (contextId !== undefined && entry.contextId !== contextId) continue;
      if (status !== undefined && entry.state !== status) continue;
      const { statusKey } = entry;
      if (afterKey !== undefined && statusKey <= afterKey) continue;
      // totalSize counts every match, not only those after the cursor (A2A 1.0 §3.1.4).
      totalSize++;
      if (cursor === undefined || isAfterCursor(statusKey, entry.id, cursor)) first.offer(entry);
    }
    const rows = first.sorted();
    const tasks: Task[] = [];
    const end = Math.min(rows.length, plan.pageSize);
    for (let i = 0; i < end; i++) {
      const row = rows[i]!;
      tasks.push(row.stored?.task ?? this.frozenTask(row));
    }
    const last = rows[end - 1];
    const nextPageToken =
      rows.length > end && last !== undefined
        ? encodePageToken({ statusKey: last.statusKey, taskId: last.id })
        : '';
    return { tasks, nextPageToken, totalSize };
  }
}

function newestFirst(a: Entry, b: Entry): number {
  if (a.statusKey !== b.statusKey) return a.statusKey < b.statusKey ? 1 : -1;
  const x = a.id;
  const y = b.id;
  return x === y ? 0 : x < y ? 1 : -1;
}

/** Creates an empty in-memory TaskStore. */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  return new MemoryTaskStore(options);
}
