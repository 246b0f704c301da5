/**
 * One server's part in a cluster (decisions 0110-0114): it records the runs its executor starts,
 * announces every commit, follows the tasks its streams watch (TaskFeed), cancels on behalf of
 * other instances, asks the running instance to cancel when it does not run a task itself, and
 * settles the tasks of instances that stopped (OrphanSweeper).
 */
import { isTerminalState, type Task } from '../../protocol/index.js';
import type { StoredTask, TaskScope, TaskStore } from '../../store/index.js';
import type { EventHub } from '../task-run/event-hub.js';
import type { ExecutionCluster } from '../task-run/task-execution.js';
import type { TaskRunner } from '../task-run/task-runner.js';
import { cancelRun, type RemoteCancel } from '../task-run/task-cancel.js';
import { stateOf } from '../task-run/task-streams.js';
import type { ClusterMessage } from './cluster-bus.js';
import type { Cluster, ClusterMember } from './cluster.js';
import { OrphanSweeper } from './orphan-sweeper.js';
import { TaskFeed, type FollowedSubscription } from './task-feed.js';

/** What a node is made of. */
export interface ClusterNodeOptions {
  cluster: Cluster;
  /** The key the servers sharing this store share (the host's agent id; `''` by default). */
  agent: string;
  store: TaskStore;
  hub: EventHub;
  onError: (error: unknown, where: string) => void;
}

/** See the file comment. */
export class ClusterNode implements ExecutionCluster, ClusterMember, RemoteCancel {
  readonly agent: string;
  readonly feed: TaskFeed;
  private readonly cluster: Cluster;
  private readonly store: TaskStore;
  private runner: TaskRunner | undefined;
  private sweeper: OrphanSweeper | undefined;
  private leave: (() => void) | undefined;
  private recheck: NodeJS.Timeout | undefined;
  /** Ends of the waits of this instance's remote cancels, per task, for 'cancel-declined'. */
  private readonly declined = new Map<string, Set<() => void>>();
  /** Registry writes per task, chained so a run's removal never overtakes the next run's record. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly onError: (error: unknown, where: string) => void;

  constructor(options: ClusterNodeOptions) {
    this.cluster = options.cluster;
    this.agent = options.agent;
    this.store = options.store;
    this.onError = options.onError;
    this.feed = new TaskFeed(options.store, options.hub, options.onError);
  }

  /** Starts taking part: messages, the re-check timer and the sweeper. */
  attach(runner: TaskRunner): void {
    this.runner = runner;
    const { settings } = this.cluster;
    this.sweeper = new OrphanSweeper({
      cluster: this.cluster,
      agent: this.agent,
      store: this.store,
      runner,
      onError: this.onError,
    });
    this.leave = this.cluster.join(this);
    this.recheck = setInterval(() => this.feed.recheck(), settings.recheckMs);
    this.recheck.unref();
    this.sweeper.start(settings.sweepMs);
  }

  /** The instance id of this process. */
  get instanceId(): string {
    return this.cluster.instanceId;
  }

  runStarted(taskId: string, scope: TaskScope): Promise<void> {
    const { bus, instanceId } = this.cluster;
    return this.chain(taskId, async () => {
      // A run may start before the first heartbeat is written; it must not be seen as an orphan.
      await this.cluster.ready;
      await bus.recordRun({ agent: this.agent, taskId, instanceId, ...scope });
    });
  }

  runEnded(taskId: string): void {
    const { bus, instanceId } = this.cluster;
    this.chain(taskId, () => bus.removeRun(this.agent, taskId, instanceId)).catch((error: unknown) =>
      this.onError(error, `forgetting the run of task ${taskId}`),
    );
  }

  committed(taskId: string, version: number): void {
    this.cluster.announce({ type: 'committed', agent: this.agent, taskId, version, from: this.instanceId });
  }

  /** A hub subscription that also receives the task's events committed by other instances. */
  subscribe(taskId: string, scope: TaskScope): FollowedSubscription {
    return this.feed.subscribe(taskId, scope);
  }

  receive(message: ClusterMessage): void {
    if (message.type === 'committed') {
      // Our own commits were published on the hub already; the feed skips what it has.
      this.feed.committed(message.taskId, message.version);
      return;
    }
    if (message.to !== this.instanceId) return;
    if (message.type === 'cancel-declined') {
      for (const stop of this.declined.get(message.taskId) ?? []) stop();
      return;
    }
    const running = this.runner?.get(message.taskId);
    if (running === undefined || this.runner === undefined) {
      // Not (or no longer) running here: say so, and the asking instance commits the cancel now.
      const { taskId, from } = message;
      this.cluster.bus
        .publish({ type: 'cancel-declined', agent: this.agent, taskId, to: from, from: this.instanceId })
        .catch((error: unknown) => this.onError(error, `declining the cancel of task ${taskId}`));
      return;
    }
    cancelRun(running, this.runner).catch((error: unknown) =>
      this.onError(error, `cancel of task ${message.taskId} asked by instance ${message.from}`),
    );
  }

  reconnected(): void {
    this.feed.recheck();
    // A bus that lost its state while away (a Redis restart without persistence) lost this
    // instance's run records with it: record every live run again, idempotently, so the sweeper
    // still finds them should this instance die (decisions 0112, 0116).
    if (this.runner === undefined) return;
    const { bus, instanceId } = this.cluster;
    for (const [taskId, running] of this.runner.entries()) {
      const { scope } = running.execution;
      this.chain(taskId, () => bus.recordRun({ agent: this.agent, taskId, instanceId, ...scope })).catch(
        (error: unknown) => this.onError(error, `recording the run of task ${taskId} again`),
      );
    }
  }

  async cancelRemote(stored: StoredTask, scope: TaskScope): Promise<Task | undefined> {
    const taskId = stored.task.id;
    const runner = await this.cluster.bus.runnerOf(this.agent, taskId);
    if (runner === undefined || !runner.alive || runner.instanceId === this.instanceId) return undefined;
    const subscription = this.feed.subscribe(taskId, scope);
    const stop = (): void => subscription.close();
    const timer = setTimeout(stop, this.cluster.settings.cancelTimeoutMs);
    // A 'cancel-declined' answer ends the wait as the timer would, only sooner.
    const stops = this.declined.get(taskId) ?? new Set<() => void>();
    this.declined.set(taskId, stops.add(stop));
    try {
      subscription.seen(stored.version);
      // The task may have ended between the caller's read and the subscription.
      const now = await this.store.get(taskId, scope);
      if (now === undefined || isTerminalState(now.task.status.state)) return now?.task;
      await this.cluster.bus.publish({
        type: 'cancel',
        agent: this.agent,
        taskId,
        to: runner.instanceId,
        from: this.instanceId,
      });
      for await (const record of subscription) {
        const state = stateOf(record.event);
        if (state !== undefined && isTerminalState(state)) break;
      }
    } catch (error) {
      this.onError(error, `asking instance ${runner.instanceId} to cancel task ${taskId}`);
    } finally {
      clearTimeout(timer);
      stops.delete(stop);
      if (stops.size === 0 && this.declined.get(taskId) === stops) this.declined.delete(taskId);
      subscription.close();
    }
    const after = await this.store.get(taskId, scope);
    return after !== undefined && isTerminalState(after.task.status.state) ? after.task : undefined;
  }

  /** Stops taking part (the server is closing); the process's Cluster stays open. */
  close(): void {
    clearInterval(this.recheck);
    this.sweeper?.stop();
    this.leave?.();
  }

  private chain(taskId: string, step: () => Promise<void>): Promise<void> {
    const previous = this.chains.get(taskId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(step);
    this.chains.set(taskId, next);
    const forget = (): void => {
      if (this.chains.get(taskId) === next) this.chains.delete(taskId);
    };
    next.then(forget, forget);
    return next;
  }
}
