/**
 * Starts executions and keeps the live ones by task id, so a cancel can reach the running agent
 * (A2A 1.0 §3.1.5) and follow-up messages find the task. An execution leaves the registry once
 * its task is terminal or interrupted and everything it emitted is committed.
 */
import {
  isInterruptedState,
  isTerminalState,
  type Message,
  type Metadata,
  type SendMessageConfiguration,
  type SendMessageRequest,
  type Task,
} from '../../protocol/index.js';
import type { PushConfigRecord, StoredTask, TaskScope } from '../../store/index.js';
import type { AgentExecutor, AgentSender, RequestContext } from '../agent-executor.js';
import type { CallContext } from '../call-context.js';
import { TaskExecution, type ExecutionDeps, type ExecutionInit } from './task-execution.js';
import { TaskUpdater } from './task-updater.js';
import {
  invocationMetadata,
  type ContractGate,
  type ContractInvocation,
} from '../contracts/contract-gate.js';
import { OutputCheckingSink } from '../contracts/output-checking-sink.js';
import { ReleasingMap } from '../common/releasing-map.js';
import {
  ATTR,
  endSpan,
  runWithin,
  SPAN,
  SpanKind,
  startSpan,
  withSpan,
  type Context,
  type Span,
} from '../../telemetry/index.js';

/** A started execution with the context its executor got. */
export interface RunningTask {
  execution: TaskExecution;
  context: RequestContext;
  updater: TaskUpdater;
}

/** Options for starting a run. */
export interface StartOptions {
  taskId: string;
  contextId: string;
  scope: TaskScope;
  message: Message;
  request: SendMessageRequest;
  call: CallContext;
  stored?: StoredTask;
  /** Called after registration and before the executor starts (streams subscribe here). */
  beforeStart?: (execution: TaskExecution) => void;
  /** The contract the message invokes, and the gate that checks the reply against it. */
  contract?: ContractInvocation;
  contracts?: ContractGate | undefined;
  /** The message is already in the stored task's history (resumed after an approval). */
  messageRecorded?: boolean;
  /** Push configs given with the send, created with the run's first commit. */
  pushConfigs?: PushConfigRecord[];
  /** The send's idempotency key, recorded with the commit of its message (decision 0091). */
  idempotencyKey?: string;
}

/**
 * The executor's view of its request. A class rather than an object literal: the lazy `signal`
 * getter then lives once on the prototype instead of being created for every message.
 */
class ExecutionContext implements RequestContext {
  readonly message: Message;
  readonly taskId: string;
  readonly contextId: string;
  readonly task: Task | undefined;
  readonly isNewTask: boolean;
  readonly configuration: SendMessageConfiguration | undefined;
  readonly metadata: Metadata | undefined;
  readonly call: CallContext;
  readonly contract?: ContractInvocation;
  readonly agents?: AgentSender;
  readonly extensions: ReadonlyMap<string, unknown>;
  readonly trace: Context;
  readonly #execution: TaskExecution;

  constructor(
    execution: TaskExecution,
    options: StartOptions,
    agents: AgentSender | undefined,
    extensions: ReadonlyMap<string, unknown>,
    trace: Context,
  ) {
    this.#execution = execution;
    this.message = options.message;
    this.taskId = options.taskId;
    this.contextId = options.contextId;
    this.task = options.stored?.task;
    this.isNewTask = options.stored === undefined;
    this.configuration = options.request.configuration;
    this.metadata = options.request.metadata;
    this.call = options.call;
    if (options.contract !== undefined) this.contract = options.contract;
    this.trace = trace;
    // Bound to this message, so its sends carry on the hop count it arrived with (decision 0148),
    // and are traced below the agent's execution (decision 0157).
    if (agents !== undefined) this.agents = agents.forMessage?.(options.message, trace) ?? agents;
    this.extensions = extensions;
  }

  get signal(): AbortSignal {
    return this.#execution.signal;
  }
}

/** The registry of live executions. */
export class TaskRunner {
  /**
   * Task id → its live run (a ReleasingMap: runs come and go with requests; docs/performance.md,
   * 'Releasing registries').
   */
  private readonly live = new ReleasingMap<string, RunningTask>();

  constructor(
    private readonly deps: ExecutionDeps,
    private readonly executor: AgentExecutor,
    private readonly agents?: AgentSender,
    /** The services of the server's extensions, shared by every context (server-extension.ts). */
    private readonly extensions: ReadonlyMap<string, unknown> = new Map(),
  ) {}

  /** The live run of a task, if its agent is still at work in this process. */
  get(taskId: string): RunningTask | undefined {
    return this.live.get(taskId);
  }

  /** Every live run of this process, by task id. */
  entries(): IterableIterator<[string, RunningTask]> {
    return this.live.entries();
  }

  /** Starts the executor for a message. */
  start(options: StartOptions): RunningTask {
    const { contract, contracts, stored } = options;
    const init: ExecutionInit = {
      taskId: options.taskId,
      contextId: options.contextId,
      scope: options.scope,
      userMessage: options.message,
    };
    if (stored !== undefined) init.stored = stored;
    else if (contract !== undefined) init.metadata = invocationMetadata(contract);
    if (options.messageRecorded === true) init.messageRecorded = true;
    if (options.pushConfigs !== undefined) init.pushConfigs = options.pushConfigs;
    if (options.idempotencyKey !== undefined) init.idempotencyKey = options.idempotencyKey;
    // The agent's work, below the operation that sent the message (GenAI `invoke_agent`, 0157).
    const span = this.invokeAgentSpan(options);
    const trace = withSpan(options.call.trace, span);
    init.trace = trace;
    const execution = new TaskExecution(this.deps, init);
    const context = new ExecutionContext(execution, options, this.agents, this.extensions, trace);
    const sink =
      contract !== undefined && contracts !== undefined
        ? new OutputCheckingSink(execution, contracts, contract)
        : execution;
    const running: RunningTask = { execution, context, updater: new TaskUpdater(sink) };
    const cluster = this.deps.cluster;
    if (cluster !== undefined) {
      const recorded = cluster.runStarted(options.taskId, options.scope);
      // A failed record fails the run at its first commit (which reports it); a run that never
      // commits (a direct Message reply) must not leave the rejection unhandled.
      recorded.catch(() => undefined);
      execution.holdCommitsUntil(recorded);
    }
    this.live.set(options.taskId, running);
    this.track(running);
    options.beforeStart?.(execution);
    const finished = (error: unknown): void => {
      endSpan(span, error);
      execution.executorFinished(error);
    };
    let result: Promise<void> | void;
    try {
      // Active for a context manager too, so the agent's own libraries trace below it.
      result = runWithin(trace, () => this.executor.execute(context, running.updater));
    } catch (error) {
      finished(error ?? new Error('executor threw'));
      return running;
    }
    if (result instanceof Promise) {
      result.then(
        () => finished(undefined),
        (error: unknown) => finished(error ?? new Error('executor rejected')),
      );
    } else {
      finished(undefined);
    }
    return running;
  }

  /** The `invoke_agent {agent}` span of a run, child of the call's operation span. */
  private invokeAgentSpan(options: StartOptions): Span {
    const name = this.deps.agentName?.() ?? '';
    const span = startSpan(SPAN.invokeAgent(name), SpanKind.INTERNAL, options.call.trace);
    if (span.isRecording()) {
      span.setAttributes({
        [ATTR.genAiOperation]: 'invoke_agent',
        [ATTR.agentName]: name,
        [ATTR.taskId]: options.taskId,
        [ATTR.contextId]: options.contextId,
      });
    }
    return span;
  }

  /** A run that records a message without running the executor (held for an approval). */
  held(options: {
    taskId: string;
    contextId: string;
    scope: TaskScope;
    message: Message;
    stored?: StoredTask;
    metadata?: Metadata;
    pushConfigs?: PushConfigRecord[];
  }): TaskExecution {
    return new TaskExecution(this.deps, {
      taskId: options.taskId,
      contextId: options.contextId,
      scope: options.scope,
      userMessage: options.message,
      ...(options.pushConfigs === undefined ? {} : { pushConfigs: options.pushConfigs }),
      ...(options.stored === undefined ? {} : { stored: options.stored }),
      ...(options.stored !== undefined || options.metadata === undefined
        ? {}
        : { metadata: options.metadata }),
    }).withoutExecutor();
  }

  /** A run with no executor, for Concord's own updates to an idle task (cancel). */
  idle(stored: StoredTask, scope: TaskScope): TaskExecution {
    return new TaskExecution(this.deps, {
      taskId: stored.task.id,
      contextId: stored.task.contextId,
      scope,
      stored,
    }).withoutExecutor();
  }

  /** The executor's cancel hook, when it has one. */
  get cancelHook(): AgentExecutor['cancel'] {
    return this.executor.cancel?.bind(this.executor);
  }

  private track(running: RunningTask): void {
    const { execution } = running;
    execution.onChange = () => {
      const state = execution.projectedState;
      const finished =
        isTerminalState(state) || isInterruptedState(state) || execution.replyMessage !== undefined;
      // A run that failed or produced nothing is settled too; one whose agent returned early
      // but may still emit (state working) stays, so a cancel can still reach it.
      if (execution.failed || (execution.settled && (finished || execution.task === undefined))) {
        this.release(running);
      }
    };
  }

  private release(running: RunningTask): void {
    const { taskId } = running.context;
    if (this.live.get(taskId) !== running) return;
    this.live.delete(taskId);
    this.deps.cluster?.runEnded(taskId);
  }
}
