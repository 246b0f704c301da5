/**
 * In-process fan-out of committed task events. Every live stream of a task subscribes here and
 * gets each event once, in commit order (A2A 1.0 §3.5.2: concurrent streams see the same events
 * in the same order; closing one does not affect the others). Events are published only after
 * they are durable, so a subscriber that falls behind can always be cut off: its stream reads what
 * it missed from the store (stream-log.ts).
 */
import type { Part, StreamResponse } from '../../protocol/index.js';
import type { TaskEventRecord } from '../../store/index.js';
import { ReleasingMap } from '../common/releasing-map.js';

/** A live subscription; iterate it, or `close()` it. */
export interface HubSubscription extends AsyncIterable<TaskEventRecord> {
  /** Stops the subscription and releases its queue. */
  close(): void;
  /** True when the subscriber fell too far behind and was cut off. */
  readonly overflowed: boolean;
  /**
   * On a cluster: the subscriber read the task's log up to `version` before going live, so the
   * follower continues after it (decision 0111). Absent on a single process.
   */
  seen?(version: number): void;
}

/** Options for the hub. */
export interface EventHubOptions {
  /** Events a slow subscriber may have queued before it is cut off (default 10,000). */
  maxQueuedEvents?: number;
  /**
   * Bytes of part content (text, raw, url) a slow subscriber may have queued before it is cut
   * off (default 64 MiB): a count of events alone let one slow reader of a large artifact sent in
   * megabyte chunks hold the whole artifact in the server (issue 27).
   */
  maxQueuedBytes?: number;
}

/** The default `maxQueuedBytes`. */
export const MAX_QUEUED_BYTES = 64 * 1024 * 1024;

/** What an event's parts weigh, roughly: the strings that can be large. Everything else is small. */
function partsWeight(parts: readonly Part[] | undefined): number {
  let bytes = 0;
  if (parts === undefined) return bytes;
  for (const part of parts) {
    bytes += (part.text?.length ?? 0) + (part.raw?.length ?? 0) + (part.url?.length ?? 0);
  }
  return bytes;
}

/** An event's weight in a queue or a page: its parts, and a fixed share for the rest of it. */
export function eventWeight(event: StreamResponse): number {
  if ('artifactUpdate' in event) return 256 + partsWeight(event.artifactUpdate.artifact.parts);
  if ('statusUpdate' in event) return 256 + partsWeight(event.statusUpdate.status.message?.parts);
  return 256;
}

class Subscriber implements HubSubscription {
  private queue: TaskEventRecord[] = [];
  /** What the records not yet handed on weigh (`eventWeight`). */
  private queuedBytes = 0;
  private waiter: (() => void) | undefined;
  private closed = false;
  overflowed = false;

  constructor(
    private readonly limit: number,
    private readonly byteLimit: number,
    private readonly detach: (s: Subscriber) => void,
  ) {}

  deliver(records: readonly TaskEventRecord[]): void {
    if (this.closed) return;
    for (const record of records) {
      this.queue.push(record);
      this.queuedBytes += eventWeight(record.event);
    }
    // Cut off, its stream reads on from the durable log, which holds every event anyway
    // (stream-log.ts), so nothing queued here needs keeping.
    if (this.queue.length > this.limit || this.queuedBytes > this.byteLimit) {
      this.overflowed = true;
      this.queue = [];
      this.queuedBytes = 0;
      this.close();
      return;
    }
    this.wake();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.detach(this);
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TaskEventRecord> {
    try {
      for (;;) {
        if (this.queue.length > 0) {
          const batch = this.queue;
          this.queue = [];
          // A record weighs on the budget until it is handed on, not only while it waits here.
          for (const record of batch) {
            this.queuedBytes -= eventWeight(record.event);
            yield record;
          }
          continue;
        }
        if (this.closed) return;
        await new Promise<void>((resolve) => (this.waiter = resolve));
      }
    } finally {
      this.close();
    }
  }
}

interface Topic {
  subscribers: Set<Subscriber>;
  /** The highest sequence number published while someone listened (0 before the first). */
  last: number;
}

/** Per-task publish/subscribe of committed events. */
export class EventHub {
  /**
   * Task id → its listeners; topics come and go with streams (docs/performance.md, 'Releasing
   * registries').
   */
  private readonly topics = new ReleasingMap<string, Topic>();
  private readonly limit: number;
  private readonly byteLimit: number;

  constructor(options: EventHubOptions = {}) {
    this.limit = options.maxQueuedEvents ?? 10_000;
    this.byteLimit = options.maxQueuedBytes ?? MAX_QUEUED_BYTES;
  }

  /** Subscribes to a task's future events. */
  subscribe(taskId: string): HubSubscription {
    let topic = this.topics.get(taskId);
    if (topic === undefined) {
      topic = { subscribers: new Set(), last: 0 };
      this.topics.set(taskId, topic);
    }
    const subscriber = new Subscriber(this.limit, this.byteLimit, (s) => {
      const current = this.topics.get(taskId);
      if (current === undefined) return;
      current.subscribers.delete(s);
      if (current.subscribers.size === 0) this.topics.delete(taskId);
    });
    topic.subscribers.add(subscriber);
    return subscriber;
  }

  /** Delivers committed events to every subscriber of the task. */
  publish(taskId: string, records: readonly TaskEventRecord[]): void {
    const topic = this.topics.get(taskId);
    if (topic === undefined || records.length === 0) return;
    const last = records[records.length - 1]!.seq;
    if (last > topic.last) topic.last = last;
    for (const subscriber of [...topic.subscribers]) subscriber.deliver(records);
  }

  /**
   * The highest event sequence number published for a task since it was last without
   * subscribers (0 when none was). A cluster follower reads the durable log after it.
   */
  lastPublished(taskId: string): number {
    return this.topics.get(taskId)?.last ?? 0;
  }

  /** True when someone listens to the task (lets the runner skip work when nobody does). */
  hasSubscribers(taskId: string): boolean {
    return this.topics.has(taskId);
  }
}
