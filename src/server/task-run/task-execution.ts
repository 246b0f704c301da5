/**
 * One run of an executor against one task. It checks each event the executor emits against the
 * state machine, batches the events emitted in the same tick into one store commit (so a quick
 * agent costs one write), and publishes them to live streams only once they are durable.
 * All writes for a task in this process go through its single execution, so commits are ordered;
 * a VersionConflictError means another process wrote, and the execution rebases on what it wrote.
 */
import { newId } from '../common/ids.js';
import { nowIso } from './status-clock.js';
import {
  A2AError,
  isInterruptedState,
  isTerminalState,
  type Message,
  type Metadata,
  type StreamResponse,
  type Task,
  type TaskState,
} from '../../protocol/index.js';
import {
  IdempotencyKeyConflictError,
  VersionConflictError,
  type PushConfigRecord,
  type ReplyStore,
  type StoredTask,
  type TaskCommit,
  type TaskScope,
  type TaskStore,
} from '../../store/internal.js';
import type { EventHub } from './event-hub.js';
import { keepReply } from '../operations/kept-replies.js';
import { appendMessage, applyEvents, withoutArtifactParts } from './task-projection.js';
import { assertTransition } from './task-state-machine.js';
import type { TaskEventSink } from './task-updater.js';
import type { Context } from '../../telemetry/index.js';
import { countTransitions, tracedCommit } from './commit-telemetry.js';

/**
 * What executions tell the other instances of a cluster (decision 0110); absent for a single
 * process, which then pays nothing for it.
 */
export interface ExecutionCluster {
  /** A run of the executor starts here; resolves once recorded (the run's first commit waits). */
  runStarted(taskId: string, scope: TaskScope): Promise<void>;
  /** The run left the registry (its task ended, or waits for the client). */
  runEnded(taskId: string): void;
  /** A commit of the task is durable: announce its new version. */
  committed(taskId: string, version: number): void;
}

/** What an execution needs from the server. */
export interface ExecutionDeps {
  store: TaskStore;
  hub: EventHub;
  /** Reports errors that have no caller to go to (agent crashes, store failures). */
  onError: (error: unknown, where: string) => void;
  /** The cluster this server is an instance of, if any. */
  cluster?: ExecutionCluster;
  /** Where direct Message replies to keyed sends are kept before they are answered (0147). */
  replies?: ReplyStore;
  /** The agent card's name, for the `invoke_agent` span (decision 0157). */
  agentName?: (() => string) | undefined;
}

/** The initial state of an execution. */
export interface ExecutionInit {
  taskId: string;
  contextId: string;
  scope: TaskScope;
  /** The incoming user message (with taskId/contextId set); absent for cancel-only runs. */
  userMessage?: Message;
  /** The stored task for follow-up messages; absent for a new task. */
  stored?: StoredTask;
  /** Metadata the task carries from its creation (e.g. the contract it was invoked under). */
  metadata?: Metadata;
  /** The user message is already in the stored history (a run resumed after an approval). */
  messageRecorded?: boolean;
  /** Push configs given with the send: created by this run's first commit (TaskCommit `pushConfigs`). */
  pushConfigs?: PushConfigRecord[];
  /** The send's idempotency key: recorded by the commit that records `userMessage` (decision 0091). */
  idempotencyKey?: string;
  /**
   * The OpenTelemetry context the run's work is traced under (the agent's `invoke_agent` span, or
   * the call's operation span): its commits are spans below it (decision 0157).
   */
  trace?: Context | undefined;
}

interface Waiter {
  test: () => boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Runs and records one executor invocation; see the file comment. */
export class TaskExecution implements TaskEventSink {
  readonly taskId: string;
  readonly contextId: string;
  readonly scope: TaskScope;
  // Created on first use: most runs are never canceled, and AbortController is costly to make.
  private controller: AbortController | undefined;
  private aborted = false;

  private snapshot: Task | undefined;
  /**
   * The snapshot's artifacts carry no parts: the store keeps them and rebuilds them from the
   * commits' events (decision 0164). Answers that return the task read it back (`fullTask`).
   */
  private shed = false;
  /**
   * Once shed, the snapshot's history holds only the messages from this index on; the ones before
   * are in the store's rows (TaskCommit.historyFrom), so a commit of a task with 100,000 messages
   * does not copy them all (decision 0164).
   */
  private historyFrom = 0;
  /** The history length at which the run next asks whether the store keeps the task apart. */
  private askAtHistory = 32;
  private version: number;
  private projected: TaskState;
  /** Ids of the artifacts sent so far, made on the first artifact. */
  private artifactIds: Set<string> | undefined;
  private queue: StreamResponse[] = [];
  private flushing = false;
  private pendingUserMessage: Message | undefined;
  private readonly userMessage: Message | undefined;
  private readonly initialMetadata: Metadata | undefined;
  /**
   * When a new task was submitted: taken as the run starts, not at its first commit, which comes
   * after whatever the executor emitted synchronously and would date `submitted` after the
   * statuses that follow it. Empty for a follow-up to a stored task.
   */
  private readonly submittedAt: string;
  /** Configs to create with the next commit; cleared once one succeeded. */
  private pushConfigs: PushConfigRecord[] | undefined;
  /** Recorded with the commit that records the user message; cleared once one succeeded. */
  private idempotencyKey: string | undefined;
  /** The executor's direct Message reply, as it gave it. */
  private replied: Message | undefined;
  /**
   * The reply the caller gets: `replied` once it is kept (a keyed send; decision 0147), or at once.
   * Waiters wait for this, so no caller is answered with a reply a retry could not find.
   */
  private answer: Message | undefined;
  /** True while the reply is being kept. */
  private keeping = false;
  private executorDone = false;
  /** True once any event was queued, committed or not. */
  private emitted = false;
  private commits = 0;
  private failure: unknown;
  private waiters: Waiter[] = [];
  /** Settles once the run is recorded in the cluster; the first commit waits for it. */
  private recorded: Promise<void> | undefined;
  /** Called after every commit, reply or settle; the runner uses it to release finished runs. */
  onChange: (() => void) | undefined;
  /** The context commits are traced under (ExecutionInit `trace`); the runner sets it once known. */
  trace: Context | undefined;

  constructor(
    private readonly deps: ExecutionDeps,
    init: ExecutionInit,
  ) {
    this.taskId = init.taskId;
    this.contextId = init.contextId;
    this.scope = init.scope;
    this.userMessage = init.userMessage;
    this.initialMetadata = init.metadata;
    this.submittedAt = init.stored === undefined ? nowIso() : '';
    this.pushConfigs = init.pushConfigs;
    this.idempotencyKey = init.idempotencyKey;
    this.trace = init.trace;
    if (init.stored !== undefined) {
      this.snapshot = init.stored.task;
      this.version = init.stored.version;
      this.projected = init.stored.task.status.state;
      this.pendingUserMessage = init.messageRecorded === true ? undefined : init.userMessage;
      const artifacts = init.stored.task.artifacts;
      if (artifacts !== undefined && artifacts.length > 0) {
        this.artifactIds = new Set(artifacts.map((artifact) => artifact.artifactId));
      }
    } else {
      this.version = 0;
      this.projected = 'TASK_STATE_SUBMITTED';
    }
  }

  /** Aborted on cancel; handed to the executor as `context.signal`. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Aborts the executor's signal (cancel, or the task ended elsewhere). */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
  }

  /**
   * The last committed snapshot (undefined until the first commit of a new task). Its artifacts
   * may have no parts (see `shed`): status and ids are exact, but a caller that answers with the
   * task takes `fullTask()`.
   */
  get task(): Task | undefined {
    return this.snapshot;
  }

  /** The last committed task whole, read back from the store when the run let go of its parts. */
  async fullTask(): Promise<Task | undefined> {
    if (!this.shed) return this.snapshot;
    return (await this.deps.store.get(this.taskId, this.scope))?.task ?? this.snapshot;
  }

  /** The version of the last committed snapshot. */
  get committedVersion(): number {
    return this.version;
  }

  /** The direct Message reply, when the executor answered without a task (once kept, if keyed). */
  get replyMessage(): Message | undefined {
    return this.answer;
  }

  /** True once the executor returned and everything it emitted or replied is recorded. */
  get settled(): boolean {
    return this.executorDone && this.queue.length === 0 && !this.flushing && !this.keeping;
  }

  /** The state after all emitted (possibly not yet committed) events. */
  get projectedState(): TaskState {
    return this.projected;
  }

  emit(event: StreamResponse): void {
    if (this.replied !== undefined) {
      throw new A2AError(
        'InvalidAgentResponseError',
        'the agent already answered with a Message; it cannot also update a task',
      );
    }
    if ('statusUpdate' in event) {
      const to = event.statusUpdate.status.state;
      assertTransition(this.taskId, this.projected, to);
      this.projected = to;
    } else if ('artifactUpdate' in event) {
      if (isTerminalState(this.projected)) assertTransition(this.taskId, this.projected, this.projected);
      const { artifact, append } = event.artifactUpdate;
      if (append === true && this.artifactIds?.has(artifact.artifactId) !== true) {
        throw new A2AError('InvalidAgentResponseError', `append to unknown artifact ${artifact.artifactId}`, {
          metadata: { taskId: this.taskId, artifactId: artifact.artifactId },
        });
      }
      (this.artifactIds ??= new Set()).add(artifact.artifactId);
    }
    this.queue.push(event);
    this.emitted = true;
    this.schedule();
  }

  reply(message: Message): void {
    if (this.snapshot !== undefined || this.queue.length > 0 || this.pendingUserMessage !== undefined) {
      throw new A2AError(
        'InvalidAgentResponseError',
        'a direct Message reply is only possible before any task update, for a message that starts no task',
      );
    }
    if (this.replied !== undefined)
      throw new A2AError('InvalidAgentResponseError', 'the agent already replied');
    this.replied = message;
    const { replies } = this.deps;
    const key = this.idempotencyKey;
    if (replies === undefined || key === undefined || this.userMessage === undefined) {
      this.answer = message;
      this.checkWaiters();
      return;
    }
    // A keyed send: the reply is kept before anyone is answered with it (decision 0147).
    this.keeping = true;
    void keepReply(
      { replies, key, scope: this.scope, request: this.userMessage, reply: message },
      this.deps.onError,
    ).then((answer) => {
      this.answer = answer;
      this.keeping = false;
      this.checkWaiters();
    });
  }

  /**
   * Holds commits until `recorded` settles: a task must never be durable on a cluster before the
   * registry says who runs it, or the instance's death would leave it unswept (decision 0112).
   */
  holdCommitsUntil(recorded: Promise<void>): void {
    this.recorded = recorded;
  }

  /** Marks a run that has no executor (Concord's own cancel of an idle task). */
  withoutExecutor(): this {
    this.executorDone = true;
    return this;
  }

  /** Called when the executor's promise settles. */
  executorFinished(error: unknown): void {
    if (error instanceof A2AError && this.replied === undefined && !this.emitted) {
      // An A2AError thrown before any output refuses the message: the client gets that error
      // (e.g. an extension's "vehicle not found"), as from `admitMessage`, and no task is made.
      this.failure = error;
    } else if (error !== undefined) {
      this.deps.onError(error, `executor of task ${this.taskId}`);
      // The agent's own error text may hold internals; the client gets a neutral message.
      if (this.replied === undefined && !isTerminalState(this.projected)) {
        this.forceStatus('TASK_STATE_FAILED', 'The agent failed while handling the message.');
      }
    } else if (this.replied === undefined && !this.emitted) {
      this.failure = new A2AError(
        'InvalidAgentResponseError',
        'the agent finished without a reply or a task update',
      );
    }
    this.executorDone = true;
    this.checkWaiters();
  }

  /** Emits a status on Concord's own behalf (cancel, agent crash), bypassing executor checks. */
  forceStatus(state: TaskState, text?: string): void {
    if (isTerminalState(this.projected)) return;
    this.projected = state;
    const status: Task['status'] = { state, timestamp: nowIso() };
    if (text !== undefined) {
      status.message = {
        messageId: newId(),
        role: 'ROLE_AGENT',
        parts: [{ text }],
        taskId: this.taskId,
        contextId: this.contextId,
      };
    }
    this.queue.push({ statusUpdate: { taskId: this.taskId, contextId: this.contextId, status } });
    this.emitted = true;
    this.schedule();
  }

  /**
   * Resolves once `test()` holds after a commit, or once the execution settled (whatever the
   * state then); rejects if the store failed or the agent produced nothing.
   */
  waitFor(test: () => boolean): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (test() || this.settled || this.answer !== undefined) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ test, resolve, reject }));
  }

  /** True once this run committed at least once (a follow-up's stored snapshot does not count). */
  get hasCommitted(): boolean {
    return this.commits > 0;
  }

  /** True when this run's committed task is terminal or interrupted (A2A 1.0 §3.2.2 blocking rule). */
  reachedStop(): boolean {
    if (this.commits === 0) return false;
    const state = this.snapshot?.status.state;
    return state !== undefined && (isTerminalState(state) || isInterruptedState(state));
  }

  private schedule(): void {
    if (this.flushing) return;
    this.flushing = true;
    // A microtask lets every event the executor emits synchronously join one commit.
    queueMicrotask(() => void this.flush());
  }

  private async flush(): Promise<void> {
    try {
      if (this.recorded !== undefined) {
        await this.recorded;
        this.recorded = undefined;
      }
      while (this.queue.length > 0) {
        const events = this.queue;
        this.queue = [];
        await this.commit(events);
      }
    } catch (error) {
      this.failure = error;
      this.abort();
      // A lost idempotency race is no fault: the caller answers with the winner's task.
      if (!(error instanceof IdempotencyKeyConflictError))
        this.deps.onError(error, `store commit of task ${this.taskId}`);
    } finally {
      this.flushing = false;
      this.checkWaiters();
    }
  }

  private async commit(events: StreamResponse[]): Promise<void> {
    for (;;) {
      let base: Task;
      if (this.snapshot === undefined) {
        base = {
          id: this.taskId,
          contextId: this.contextId,
          status: { state: 'TASK_STATE_SUBMITTED', timestamp: this.submittedAt || nowIso() },
        };
        if (this.userMessage !== undefined) base.history = [this.userMessage];
        if (this.initialMetadata !== undefined) base.metadata = this.initialMetadata;
        events.unshift({ task: base });
      } else {
        base = this.snapshot;
        if (this.pendingUserMessage !== undefined) {
          base = Object.assign({}, base, { history: appendMessage(base.history, this.pendingUserMessage) });
        }
      }
      const task = applyEvents(base, events);
      const from = this.version;
      const { tenant, owner } = this.scope;
      const commit: TaskCommit = { tenant, owner, task, expectedVersion: from, events };
      if (this.historyFrom > 0) commit.historyFrom = this.historyFrom;
      // Only a send that carried a push config pays for it; every other commit is as before.
      if (this.pushConfigs !== undefined) commit.pushConfigs = this.pushConfigs;
      if (this.idempotencyKey !== undefined) commit.idempotencyKey = this.idempotencyKey;
      try {
        this.version = await tracedCommit(this.deps.store, commit, this.trace);
      } catch (error) {
        if (!(error instanceof VersionConflictError)) throw error;
        if (!(await this.rebase(events))) return;
        continue;
      }
      // A task the store now keeps apart is held without its artifacts' parts and its committed
      // history, from the second commit on (a quick task commits once and never asks). The run
      // asks after a commit with artifacts, and as the history doubles past 32 messages.
      const messages = task.history?.length ?? 0;
      if (!this.shed && this.commits > 0) {
        const artifacts = events.some((event) => 'artifactUpdate' in event);
        if (artifacts || messages >= this.askAtHistory) {
          if (messages >= this.askAtHistory) this.askAtHistory = messages * 2;
          this.shed = await this.storeKeepsArtifacts();
        }
      }
      if (this.shed) {
        this.historyFrom += messages;
        this.snapshot = Object.assign({}, withoutArtifactParts(task), { history: undefined });
      } else this.snapshot = task;
      this.commits++;
      countTransitions(events);
      this.pendingUserMessage = undefined;
      this.pushConfigs = undefined;
      this.idempotencyKey = undefined;
      const { hub, cluster } = this.deps;
      cluster?.committed(this.taskId, this.version);
      if (hub.hasSubscribers(this.taskId)) {
        hub.publish(
          this.taskId,
          events.map((event, i) => ({ seq: from + 1 + i, event })),
        );
      }
      this.checkWaiters();
      return;
    }
  }

  private async storeKeepsArtifacts(): Promise<boolean> {
    const { store } = this.deps;
    if (store.keepsArtifactUpdates === undefined) return false;
    try {
      return await store.keepsArtifactUpdates(this.taskId);
    } catch {
      // Unanswered, the run keeps the parts: more memory, never a wrong answer.
      return false;
    }
  }

  /** After another writer won: take its snapshot; false if the task ended meanwhile. */
  private async rebase(events: StreamResponse[]): Promise<boolean> {
    const stored = await this.deps.store.get(this.taskId, this.scope);
    if (stored === undefined)
      throw new A2AError('InternalError', `task ${this.taskId} vanished during an update`);
    this.snapshot = stored.task;
    // Read back whole: the next commit carries its history from the start.
    this.historyFrom = 0;
    this.version = stored.version;
    if (events.length > 0 && 'task' in events[0]! && this.snapshot !== undefined) events.shift();
    if (isTerminalState(stored.task.status.state)) {
      // Canceled elsewhere: stop the agent and drop what it still wanted to say.
      this.projected = stored.task.status.state;
      this.abort();
      return false;
    }
    return true;
  }

  /** True when a store write failed or the agent produced nothing. */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  private checkWaiters(): void {
    this.onChange?.();
    if (this.waiters.length === 0) return;
    const remaining: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (this.failure !== undefined) waiter.reject(this.failure);
      else if (waiter.test() || this.settled || this.answer !== undefined) waiter.resolve();
      else remaining.push(waiter);
    }
    this.waiters = remaining;
  }
}
