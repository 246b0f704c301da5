/**
 * The in-memory PushStore, exposed by the in-memory TaskStore as `push`. Nothing survives the
 * process, so this is for tests, examples and `--store memory`; within the process it keeps every
 * promise of the port. Outbox entries hold the commit's event and snapshot objects themselves
 * (the model is immutable once built), so queueing a delivery copies nothing.
 *
 * Bounds: configs leave with their task when the task store evicts it (once the task's pending
 * deliveries are settled, so eviction never drops one); the dead letters keep the most recent
 * MAX_MEMORY_DEAD_LETTERS.
 */
import type { StreamResponse, Task } from '../../protocol/model.js';
import type {
  DeadLetterPage,
  DeadLetterQuery,
  PushConfigRecord,
  PushDeadLetter,
  PushOutboxEntry,
  PushSettlement,
  PushStore,
} from '../push-store.js';
import { checkPushConfig, encodeDeadLetterToken, planDeadLetterList } from '../push-rules.js';

/** Dead letters kept in memory; older ones are dropped first. */
export const MAX_MEMORY_DEAD_LETTERS = 1000;

interface Pending {
  entry: PushOutboxEntry;
  /** Epoch ms from which the entry may be claimed. */
  dueAt: number;
}

/** A PushStore in process memory; see the file comment. */
export class MemoryPushStore implements PushStore {
  /** Configs by task id, then by config id (insertion order is creation order). */
  private readonly configs = new Map<string, Map<string, PushConfigRecord>>();
  /** Pending entries by id; a Map iterates in insertion order, which is id order. */
  private outbox = new Map<number, Pending>();
  private deadLetters: PushDeadLetter[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  /** Evicted tasks whose configs stay until their last pending delivery is settled. */
  private readonly evicted = new Set<string>();

  /** `taskExists` tells whether the task store holds a task (configs belong to existing tasks). */
  constructor(private readonly taskExists: (taskId: string) => boolean = () => true) {}

  /** True when the task has at least one config (the task store asks on every commit). */
  hasConfigs(taskId: string): boolean {
    return this.configs.size !== 0 && this.configs.has(taskId);
  }

  /**
   * Called by the task store inside its commit: adds `created` configs, then queues one entry per
   * config of the task. Returns true when an entry was queued.
   */
  recordCommit(
    task: Task,
    firstSeq: number,
    events: StreamResponse[],
    created: PushConfigRecord[] | undefined,
    traceContext?: Record<string, string> | undefined,
  ): boolean {
    if (created !== undefined) for (const config of created) this.store(checkPushConfig(config));
    const configs = this.configs.get(task.id);
    if (configs === undefined || configs.size === 0) return false;
    const createdAt = new Date().toISOString();
    const lastSeq = firstSeq + events.length - 1;
    for (const config of configs.values()) {
      const id = this.nextId++;
      const entry: PushOutboxEntry = {
        id,
        taskId: task.id,
        configId: config.id,
        firstSeq,
        lastSeq,
        // A copy of the array (not of the events): the caller may reuse its array.
        events: events.slice(),
        task,
        deliveredSeq: firstSeq - 1,
        attempts: 0,
        createdAt,
      };
      // The producing operation's trace context, for the delivery's span (decision 0157).
      if (traceContext?.traceparent !== undefined) entry.traceContext = traceContext;
      this.outbox.set(id, { entry, dueAt: 0 });
    }
    return true;
  }

  /** Tells the listeners that entries were queued (after the commit that queued them). */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Forgets the configs of a task the task store evicted, once nothing is pending for it. */
  forgetTask(taskId: string): void {
    if (!this.configs.has(taskId)) return;
    if (this.hasPending(taskId)) this.evicted.add(taskId);
    else this.configs.delete(taskId);
  }

  private hasPending(taskId: string): boolean {
    for (const pending of this.outbox.values()) if (pending.entry.taskId === taskId) return true;
    return false;
  }

  putConfig(config: PushConfigRecord): Promise<void> {
    return attempt(() => {
      const checked = checkPushConfig(config);
      if (!this.taskExists(checked.taskId)) throw new Error(`no task ${checked.taskId}`);
      this.store(checked);
    });
  }

  getConfig(taskId: string, id: string): Promise<PushConfigRecord | undefined> {
    const config = this.configs.get(taskId)?.get(id);
    return Promise.resolve(config === undefined ? undefined : { ...config });
  }

  listConfigs(taskId: string): Promise<PushConfigRecord[]> {
    return Promise.resolve([...(this.configs.get(taskId)?.values() ?? [])].map((c) => ({ ...c })));
  }

  deleteConfig(taskId: string, id: string): Promise<boolean> {
    const configs = this.configs.get(taskId);
    const existed = configs?.delete(id) === true;
    if (configs !== undefined && configs.size === 0) this.configs.delete(taskId);
    for (const [key, pending] of this.outbox) {
      if (pending.entry.taskId === taskId && pending.entry.configId === id) this.outbox.delete(key);
    }
    return Promise.resolve(existed);
  }

  claimDue(now: number, limit: number, leaseMs: number): Promise<PushOutboxEntry[]> {
    const claimed: PushOutboxEntry[] = [];
    const seen = new Set<string>();
    for (const pending of this.outbox.values()) {
      if (claimed.length >= limit) break;
      const key = `${pending.entry.taskId}\u0000${pending.entry.configId}`;
      // Only the oldest entry of a (task, config) may go: the others wait behind it.
      if (seen.has(key)) continue;
      seen.add(key);
      if (pending.dueAt > now) continue;
      pending.dueAt = now + leaseMs;
      pending.entry = Object.assign({}, pending.entry, { attempts: pending.entry.attempts + 1 });
      claimed.push(pending.entry);
    }
    return Promise.resolve(claimed);
  }

  nextDueAt(): Promise<number | undefined> {
    let earliest: number | undefined;
    const seen = new Set<string>();
    for (const pending of this.outbox.values()) {
      const key = `${pending.entry.taskId}\u0000${pending.entry.configId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (earliest === undefined || pending.dueAt < earliest) earliest = pending.dueAt;
    }
    return Promise.resolve(earliest);
  }

  listPending(taskId: string): Promise<PushOutboxEntry[]> {
    const pending: PushOutboxEntry[] = [];
    // Insertion order is id order (requeueing keeps it so), which is the port's oldest first.
    for (const { entry } of this.outbox.values()) if (entry.taskId === taskId) pending.push({ ...entry });
    return Promise.resolve(pending);
  }

  settle(entryId: number, settlement: PushSettlement): Promise<void> {
    const pending = this.outbox.get(entryId);
    if (pending === undefined) return Promise.resolve();
    const { entry } = pending;
    this.settleEntry(entryId, pending, settlement);
    const ended = settlement.outcome === 'delivered' || settlement.outcome === 'dead';
    if (ended && this.evicted.has(entry.taskId) && !this.hasPending(entry.taskId)) {
      this.evicted.delete(entry.taskId);
      this.configs.delete(entry.taskId);
    }
    return Promise.resolve();
  }

  private settleEntry(entryId: number, pending: Pending, settlement: PushSettlement): void {
    const { entry } = pending;
    switch (settlement.outcome) {
      case 'delivered':
        this.outbox.delete(entryId);
        return;
      case 'retry':
        pending.entry = Object.assign({}, entry, {
          deliveredSeq: settlement.deliveredSeq,
          attempts: settlement.attempts ?? entry.attempts,
          lastError: settlement.error,
        });
        pending.dueAt = settlement.nextAttemptAt;
        return;
      case 'dead':
        this.outbox.delete(entryId);
        this.bury(
          Object.assign({}, entry, {
            deliveredSeq: settlement.deliveredSeq,
            attempts: settlement.attempts ?? entry.attempts,
          }),
          settlement,
        );
        return;
      case 'skip': {
        // The one event, under a new id: the entry keeps its own id, and with it its place.
        const { seq } = settlement;
        const single = Object.assign({}, entry, {
          id: this.nextId++,
          firstSeq: seq,
          lastSeq: seq,
          events: entry.events.slice(seq - entry.firstSeq, seq - entry.firstSeq + 1),
          deliveredSeq: seq - 1,
          attempts: settlement.attempts,
        });
        this.bury(single, settlement);
        const { lastError: _lastError, ...rest } = entry;
        pending.entry = Object.assign(rest, { deliveredSeq: seq, attempts: 0 });
        pending.dueAt = settlement.nextAttemptAt;
        return;
      }
    }
  }

  /** Files a dead letter in id order (the order pages are read in), dropping the oldest past the bound. */
  private bury(entry: PushOutboxEntry, settlement: { url: string; reason: string }): void {
    const letter: PushDeadLetter = Object.assign({}, entry, {
      url: settlement.url,
      reason: settlement.reason,
      failedAt: new Date().toISOString(),
    });
    let at = this.deadLetters.length;
    while (at > 0 && this.deadLetters[at - 1]!.id > letter.id) at--;
    this.deadLetters.splice(at, 0, letter);
    if (this.deadLetters.length > MAX_MEMORY_DEAD_LETTERS) this.deadLetters.shift();
  }

  listDeadLetters(query?: DeadLetterQuery): Promise<DeadLetterPage> {
    return attempt(() => {
      const { pageSize, afterId } = planDeadLetterList(query);
      const rows = this.deadLetters.filter((d) => d.id > afterId).slice(0, pageSize + 1);
      const page = rows.slice(0, pageSize);
      const nextPageToken = rows.length > pageSize ? encodeDeadLetterToken(page[pageSize - 1]!.id) : '';
      return { deadLetters: page.map((d) => ({ ...d })), nextPageToken };
    });
  }

  requeueDeadLetter(id: number): Promise<boolean> {
    const index = this.deadLetters.findIndex((d) => d.id === id);
    if (index === -1) return Promise.resolve(false);
    const [dead] = this.deadLetters.splice(index, 1);
    const { url: _url, reason: _reason, failedAt: _failedAt, lastError: _lastError, ...entry } = dead!;
    // Back at its own place in id order, so it goes before later entries of the same config.
    const rest = [...this.outbox];
    this.outbox = new Map([
      ...rest.filter(([key]) => key < id),
      [id, { entry: Object.assign({}, entry, { attempts: 0 }), dueAt: 0 }],
      ...rest.filter(([key]) => key > id),
    ]);
    this.notify();
    return Promise.resolve(true);
  }

  onOutbox(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private store(config: PushConfigRecord): void {
    let configs = this.configs.get(config.taskId);
    if (configs === undefined) {
      configs = new Map();
      this.configs.set(config.taskId, configs);
    }
    configs.set(config.id, config);
  }
}

function attempt<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}
