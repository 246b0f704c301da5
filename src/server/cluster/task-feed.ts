/**
 * Brings other instances' commits to this instance's streams (decision 0111). For each task some
 * local stream follows, the feed knows the highest event the local hub has published (or that a
 * subscriber read from the store when it started); when another instance announces a higher
 * version, or when the slow re-check timer fires, or after the bus reconnected, it reads the
 * missing events from the durable log and publishes them on the hub, in order, with their
 * sequence numbers as event ids. A lost announcement therefore only delays a stream.
 */
import type { TaskEventRecord, TaskScope, TaskStore } from '../../store/index.js';
import type { EventHub, HubSubscription } from '../task-run/event-hub.js';

interface Follow {
  scope: TaskScope;
  refs: number;
  /** The highest version another instance announced. */
  announced: number;
  /** The highest version a local subscriber read from the store before going live. */
  seen: number;
  pulling: boolean;
  again: boolean;
}

/** A hub subscription that keeps its task followed while it is open. */
export class FollowedSubscription implements HubSubscription {
  private released = false;

  constructor(
    private readonly inner: HubSubscription,
    private readonly feed: TaskFeed,
    private readonly taskId: string,
  ) {}

  get overflowed(): boolean {
    return this.inner.overflowed;
  }

  /** The subscriber read the task at `version` from the store: the feed continues after it. */
  seen(version: number): void {
    if (!this.released) this.feed.seen(this.taskId, version);
  }

  close(): void {
    this.inner.close();
    if (this.released) return;
    this.released = true;
    this.feed.release(this.taskId);
  }

  [Symbol.asyncIterator](): AsyncIterator<TaskEventRecord> {
    return this.inner[Symbol.asyncIterator]();
  }
}

/** Per-instance follower of the tasks its streams watch. */
export class TaskFeed {
  private readonly follows = new Map<string, Follow>();

  constructor(
    private readonly store: TaskStore,
    private readonly hub: EventHub,
    private readonly onError: (error: unknown, where: string) => void,
  ) {}

  /** Subscribes to a task on the hub and follows it until the subscription closes. */
  subscribe(taskId: string, scope: TaskScope): FollowedSubscription {
    const inner = this.hub.subscribe(taskId);
    const follow = this.follows.get(taskId);
    if (follow === undefined) {
      this.follows.set(taskId, { scope, refs: 1, announced: 0, seen: 0, pulling: false, again: false });
    } else {
      follow.refs++;
    }
    return new FollowedSubscription(inner, this, taskId);
  }

  /** Tasks followed now (a subscriber is open on each). */
  get size(): number {
    return this.follows.size;
  }

  /** @internal A subscription closed. */
  release(taskId: string): void {
    const follow = this.follows.get(taskId);
    if (follow === undefined) return;
    if (--follow.refs <= 0) this.follows.delete(taskId);
  }

  /** @internal A subscriber read the task at `version` before going live. */
  seen(taskId: string, version: number): void {
    const follow = this.follows.get(taskId);
    if (follow === undefined) return;
    if (version > follow.seen) follow.seen = version;
    // An announcement that came while the subscriber was reading may be past what it read.
    if (follow.announced > this.position(taskId, follow)) void this.pull(taskId, follow);
  }

  /** Another instance committed `version` of a task. */
  committed(taskId: string, version: number): void {
    const follow = this.follows.get(taskId);
    if (follow === undefined) return;
    if (version > follow.announced) follow.announced = version;
    if (version > this.position(taskId, follow)) void this.pull(taskId, follow);
  }

  /** Reads every followed task's log for events the hub has not published (timer, reconnect). */
  recheck(): void {
    for (const [taskId, follow] of this.follows) void this.pull(taskId, follow);
  }

  private position(taskId: string, follow: Follow): number {
    return Math.max(this.hub.lastPublished(taskId), follow.seen);
  }

  /** One read at a time per task; a trigger during a read makes it read again afterwards. */
  private async pull(taskId: string, follow: Follow): Promise<void> {
    if (follow.pulling) {
      follow.again = true;
      return;
    }
    follow.pulling = true;
    try {
      do {
        follow.again = false;
        const position = this.position(taskId, follow);
        // No subscriber said what it read yet: the newest announced events are enough, since
        // streams fill any gap before them from the log; with nothing announced, `seen` pulls.
        const after = position > 0 ? position : follow.announced - 1;
        if (after < 0) return;
        const records = await this.store.readEvents(taskId, after, follow.scope);
        if (this.follows.get(taskId) !== follow) return;
        const published = this.hub.lastPublished(taskId);
        const fresh = records.filter((record) => record.seq > published);
        if (fresh.length > 0) this.hub.publish(taskId, fresh);
      } while (follow.again);
    } catch (error) {
      this.onError(error, `reading the event log of task ${taskId} for its streams`);
    } finally {
      follow.pulling = false;
    }
  }
}
