/**
 * The transport-neutral request handler: one method per A2A operation (A2A 1.0 §3.1), taking
 * and returning the canonical model. Bindings decode into it and encode out of it; nothing here
 * knows about HTTP, JSON-RPC or wire versions beyond the version-dependent semantics that the
 * digest §12 settles (historyLength, terminal-task errors, stream closing, resubscribe).
 */
import { newId } from './ids.js';
import {
  A2AError,
  invalidParams,
  isTerminalState,
  taskNotFound,
  type AgentCard,
  type CancelTaskRequest,
  type GetExtendedAgentCardRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type SendMessageResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
  type TaskPushNotificationConfigRef,
} from '../protocol/internal.js';
import {
  IdempotencyKeyConflictError,
  type ApprovalEvent,
  type ApprovalPage,
  type ApprovalQuery,
  type ApprovalRecord,
  type StoredTask,
  type TaskScope,
  type TaskStore,
} from '../store/internal.js';
import {
  decideApproval,
  holdForApproval,
  type ApprovalDecision,
  type ApprovalFlowDeps,
} from './approval-flow.js';
import type { AgentExecutor, AgentSender } from './agent-executor.js';
import type { ContractGate } from './contract-gate.js';
import type { CallContext } from './call-context.js';
import type { AcceptedSend, ServerExtension } from './server-extension.js';
import { EventHub, type HubSubscription } from './event-hub.js';
import { applyHistoryLength, withoutArtifacts } from './history-length.js';
import { checkSendMediaTypes } from './input-modes.js';
import { terminalTaskError } from './task-state-machine.js';
import {
  empty,
  finishedTaskError,
  liveEvents,
  parseEventId,
  resumeEvents,
  singleMessage,
  singleTask,
  withFirst,
  type GapFill,
  type StreamItem,
} from './task-streams.js';
import type { TaskRunner, StartOptions } from './task-runner.js';
import { cancelTask } from './task-cancel.js';
import type { Cluster } from './cluster/cluster.js';
import type { ClusterNode } from './cluster/cluster-node.js';
import { setUpExecution, type ExecutionSetup } from './execution-setup.js';
import type { OrphanPolicy } from './orphan-settling.js';
import { IdempotentSends, type IdempotencyOptions } from './idempotent-sends.js';
import type { TaskExecution } from './task-execution.js';
import type { PushNotifications } from './push/push-notifications.js';
import { createConfig, deleteConfig, getConfig, inlineConfig, listConfigs } from './push/push-operations.js';

/** What the handler is built from. */
export interface RequestHandlerOptions {
  /** The public card; its capabilities gate streaming, push and the extended card. */
  agentCard: AgentCard;
  executor: AgentExecutor;
  store: TaskStore;
  /** The card for authenticated callers (A2A 1.0 §3.1.11). */
  extendedAgentCard?: AgentCard;
  /** Receives errors that have no caller (agent crashes, store failures). Never throws. */
  onError?: (error: unknown, where: string) => void;
  hub?: EventHub;
  /** Which sends are retries: the `Idempotency-Key`, and the messageId if asked (decision 0133). */
  idempotency?: IdempotencyOptions;
  /** Checks every send before it creates or continues a task; see `MessageAdmission`. */
  admitMessage?: MessageAdmission;
  /** The agent's typed message contracts: gate on the way in, output check on the way out. */
  contracts?: ContractGate;
  /** Given to executors as `context.agents`, to send to other agents. */
  agents?: AgentSender;
  /** A2A extensions run on every send, after `admitMessage` (server-extension.ts). */
  extensions?: readonly ServerExtension[];
  /** Push notifications; without them every push operation is PushNotificationNotSupported. */
  push?: PushNotifications;
  /** The cluster this server is an instance of (decision 0110); absent for a single process. */
  cluster?: Cluster;
  /** The key of this agent on the cluster's bus: servers sharing a store share it (default `''`). */
  clusterKey?: string;
  /** A single server's tasks left running by an earlier process of its store (decision 0119). */
  orphans?: OrphanPolicy;
  /** Settling them starts once this settles (default: at once). */
  recoverAfter?: Promise<unknown>;
}

/**
 * A check run on each `SendMessage` / `SendStreamingMessage` after the protocol checks and
 * before the agent sees the message: per-skill authorization, contract validation, mandate
 * evaluation. It receives the stored task for a follow-up (undefined for a new task) and refuses by
 * throwing an A2AError, so nothing is created or changed for a refused message.
 */
export type MessageAdmission = (
  request: SendMessageRequest,
  call: CallContext,
  task: Task | undefined,
) => Promise<void> | void;

/** A stream of task events; closing it stops the flow (the client went away). */
export type EventStream = AsyncIterable<StreamItem>;

/** Implements every A2A operation over a TaskStore and an AgentExecutor. */
export class RequestHandler {
  private card: AgentCard;
  private readonly store: TaskStore;
  private readonly hub: EventHub;
  private readonly runner: TaskRunner;
  private extendedAgentCard: AgentCard | undefined;
  private readonly admitMessage: MessageAdmission | undefined;
  private readonly contracts: ContractGate | undefined;
  private readonly extensions: readonly ServerExtension[];
  private readonly push: PushNotifications | undefined;
  /** This server's part in a cluster, when it has one. */
  private readonly node: ClusterNode | undefined;
  private readonly execution: ExecutionSetup;
  private readonly loader = (id: string, call: CallContext): Promise<StoredTask> => this.load(id, call);
  private readonly sends: IdempotentSends;

  constructor(options: RequestHandlerOptions) {
    this.push = options.push;
    this.admitMessage = options.admitMessage;
    this.extensions = options.extensions ?? [];
    this.contracts = options.contracts;
    this.card = options.agentCard;
    this.store = options.store;
    this.hub = options.hub ?? new EventHub();
    this.extendedAgentCard = options.extendedAgentCard;
    this.sends = new IdempotentSends(this.store, this.loader, options.idempotency);
    this.execution = setUpExecution({
      store: this.store,
      replies: this.sends.replies,
      hub: this.hub,
      executor: options.executor,
      agents: options.agents,
      extensions: this.extensions,
      onError: options.onError ?? (() => undefined),
      cluster: options.cluster,
      clusterKey: options.clusterKey,
      orphans: options.orphans,
      recoverAfter: options.recoverAfter,
    });
    this.runner = this.execution.runner;
    this.node = this.execution.node;
  }

  /** Stops this server's part in its cluster and its restart recovery; the store is closed by its owner. */
  close(): void {
    this.execution.close();
  }

  /** The public card; its capabilities gate what the handler serves. */
  get agentCard(): AgentCard {
    return this.card;
  }

  /** Replaces the cards (the base URL became known, or the agent's definition changed). */
  replaceCards(agentCard: AgentCard, extendedAgentCard?: AgentCard): void {
    this.card = agentCard;
    this.extendedAgentCard = extendedAgentCard;
  }

  /** `SendMessage` / `message/send` (A2A 1.0 §3.1.1); a retried send answers as the first did. */
  async sendMessage(request: SendMessageRequest, call: CallContext): Promise<SendMessageResponse> {
    const config = request.configuration;
    const found = await this.sends.startOrFind(request, call, scopeOf(call), (key) =>
      this.startRun(request, call, undefined, key),
    );
    if ('stored' in found) return this.answerRetry(found.stored, request, call);
    if ('reply' in found) return { message: found.reply };
    let execution: TaskExecution;
    try {
      execution = await ('run' in found ? found.run : found.started);
      // Blocking is the default (A2A 1.0 §3.2.2, digest §12 item 5).
      if (config?.returnImmediately === true) await execution.waitFor(() => execution.hasCommitted);
      else await execution.waitFor(() => execution.reachedStop());
    } catch (error) {
      if (!(error instanceof IdempotencyKeyConflictError)) throw error;
      // Another process recorded this send first: its task is the answer (decision 0091).
      return this.answerRetry(await this.sends.earlierTask(error.taskId, request, call), request, call);
    } finally {
      if ('release' in found) found.release();
    }
    const reply = execution.replyMessage;
    if (reply !== undefined) return { message: reply };
    const task = execution.task;
    if (task === undefined) throw new A2AError('InvalidAgentResponseError', 'the agent produced no task');
    return { task: applyHistoryLength(task, config?.historyLength, call.version) };
  }

  /** `SendStreamingMessage` / `message/stream` (A2A 1.0 §3.1.2). Errors before the first event throw. */
  async sendStreamingMessage(request: SendMessageRequest, call: CallContext): Promise<EventStream> {
    this.requireStreaming();
    let subscription: HubSubscription | undefined;
    // A follow-up's task as stored before this run: the stream's first event.
    let initial: StoredTask | undefined;
    const found = await this.sends.startOrFind(request, call, scopeOf(call), (key) =>
      this.startRun(
        request,
        call,
        (run) => {
          subscription = this.subscribe(run.taskId, run.scope);
          if (run.task !== undefined)
            initial = Object.assign({}, run.scope, { task: run.task, version: run.committedVersion });
        },
        key,
      ),
    );
    // A retry gets the first attempt's stream from its start (decision 0091).
    if ('stored' in found) return this.replay(found.stored.task.id, call);
    if ('reply' in found) return singleMessage(found.reply);
    let execution: TaskExecution;
    try {
      execution = await ('run' in found ? found.run : found.started);
      await execution.waitFor(() => execution.hasCommitted);
    } catch (error) {
      subscription?.close();
      if (!(error instanceof IdempotencyKeyConflictError)) throw error;
      return this.replay((await this.sends.earlierTask(error.taskId, request, call)).task.id, call);
    } finally {
      if ('release' in found) found.release();
    }
    const reply = execution.replyMessage;
    if (reply !== undefined) {
      subscription?.close();
      return singleMessage(reply);
    }
    if ('run' in found) return this.replay(execution.taskId, call);
    const sub = subscription!;
    // A follow-up to an existing task starts with the task as it was (A2A 1.0 §3.1.2: the
    // first event is the Task); a new task's log starts with its own Task event.
    const fill = this.gapFill(execution.taskId, execution.scope);
    if (initial !== undefined)
      return withFirst(
        { id: String(initial.version), event: { task: initial.task } },
        liveEvents(sub, initial.version, call.version, call.signal, fill),
      );
    return liveEvents(sub, 0, call.version, call.signal, fill);
  }

  /** `GetTask` / `tasks/get` (A2A 1.0 §3.1.3). */
  async getTask(request: GetTaskRequest, call: CallContext): Promise<Task> {
    const stored = await this.load(request.id, call);
    return applyHistoryLength(stored.task, request.historyLength, call.version);
  }

  /** `ListTasks` (A2A 1.0 §3.1.4): only the caller's tasks, newest first, paged. */
  async listTasks(request: ListTasksRequest, call: CallContext): Promise<ListTasksResponse> {
    const pageSize = request.pageSize ?? 50;
    const page = await this.store.list(
      Object.assign(
        {},
        scopeOf(call),
        { pageSize },
        request.contextId === undefined ? {} : { contextId: request.contextId },
        request.status === undefined ? {} : { status: request.status },
        request.statusTimestampAfter === undefined
          ? {}
          : { statusTimestampAfter: request.statusTimestampAfter },
        request.pageToken === undefined || request.pageToken === '' ? {} : { pageToken: request.pageToken },
      ),
    );
    const tasks = page.tasks.map((task) => {
      const trimmed = applyHistoryLength(task, request.historyLength, call.version);
      return request.includeArtifacts === true ? trimmed : withoutArtifacts(trimmed);
    });
    return { tasks, nextPageToken: page.nextPageToken, pageSize, totalSize: page.totalSize };
  }

  /** `CancelTask` / `tasks/cancel` (A2A 1.0 §3.1.5): reaches the running agent, here or on another instance. */
  async cancelTask(request: CancelTaskRequest, call: CallContext): Promise<Task> {
    const stored = await this.load(request.id, call);
    return cancelTask({ runner: this.runner, remote: this.node }, stored, scopeOf(call));
  }

  /** `SubscribeToTask` / `tasks/resubscribe` (A2A 1.0 §3.1.6), resumable with `Last-Event-ID`. */
  async subscribeToTask(
    request: SubscribeToTaskRequest,
    call: CallContext,
    lastEventId?: string,
  ): Promise<EventStream> {
    this.requireStreaming();
    const scope = scopeOf(call);
    const subscription = this.subscribe(request.id, scope);
    let stored: StoredTask;
    try {
      stored = await this.load(request.id, call);
    } catch (error) {
      subscription.close();
      throw error;
    }
    subscription.seen?.(stored.version);
    const fill = this.gapFill(request.id, scope);
    const state = stored.task.status.state;
    if (lastEventId !== undefined) {
      const after = parseEventId(lastEventId);
      if (after >= stored.version && isTerminalState(state)) {
        subscription.close();
        return empty();
      }
      return resumeEvents(
        this.store,
        request.id,
        scope,
        after,
        subscription,
        call.version,
        call.signal,
        fill,
      );
    }
    if (isTerminalState(state)) {
      subscription.close();
      // 1.0 says error (§3.1.6); the 0.3 proto returns the task and closes (digest §12 item 8).
      if (call.version === '1.0') throw finishedTaskError(request.id, state);
      return singleTask(stored);
    }
    return withFirst(
      { id: String(stored.version), event: { task: stored.task } },
      liveEvents(subscription, stored.version, call.version, call.signal, fill),
    );
  }

  /**
   * A hub subscription; on a cluster it also follows the task, so events committed by other
   * instances reach it (decision 0111), and `seen` tells the follower what the caller read.
   */
  private subscribe(taskId: string, scope: TaskScope): HubSubscription {
    return this.node === undefined ? this.hub.subscribe(taskId) : this.node.subscribe(taskId, scope);
  }

  /** On a cluster, a stream fills gaps from the durable log; a single process has none. */
  private gapFill(taskId: string, scope: TaskScope): GapFill | undefined {
    if (this.node === undefined) return undefined;
    return (after) => this.store.readEvents(taskId, after, scope);
  }

  /** `GetExtendedAgentCard` (A2A 1.0 §3.1.11): authenticated callers only. */
  async getExtendedAgentCard(_request: GetExtendedAgentCardRequest, call: CallContext): Promise<AgentCard> {
    if (this.agentCard.capabilities.extendedAgentCard !== true) {
      // 0.3 has no capability error for this; its card flag maps to -32007 (digest §6.7).
      if (call.version === '0.3') throw new A2AError('ExtendedAgentCardNotConfiguredError');
      throw new A2AError(
        'UnsupportedOperationError',
        'This operation is not supported: this agent declares no extended agent card',
      );
    }
    if (this.extendedAgentCard === undefined) throw new A2AError('ExtendedAgentCardNotConfiguredError');
    if (call.user === undefined)
      throw new A2AError('UnauthenticatedError', 'The extended agent card requires authentication');
    return this.extendedAgentCard;
  }

  /** Approvals of `requiresApproval` contracts, oldest first (decision 0017). */
  async listApprovals(query: ApprovalQuery): Promise<ApprovalPage> {
    return this.approvalDeps().approvals.list(query);
  }

  /** One approval and its audit trail. */
  async getApproval(id: string): Promise<{ approval: ApprovalRecord; history: ApprovalEvent[] }> {
    const { approvals } = this.approvalDeps();
    const approval = await approvals.get(id);
    if (approval === undefined) {
      throw new A2AError('ApprovalNotFoundError', `No approval ${id}`, { metadata: { approvalId: id } });
    }
    return { approval, history: await approvals.history(id) };
  }

  /** The owner's decision on an approval; an approved task runs, a rejected one ends rejected. */
  decideApproval(id: string, decision: ApprovalDecision): ReturnType<typeof decideApproval> {
    return decideApproval(this.approvalDeps(), id, decision);
  }

  private approvalDeps(): ApprovalFlowDeps {
    const approvals = this.store.approvals;
    if (approvals === undefined) {
      throw new A2AError('UnsupportedOperationError', "This server's task store keeps no approvals");
    }
    return { store: this.store, approvals, runner: this.runner, contracts: this.contracts };
  }

  /** Push config create (A2A 1.0 §3.1.7); gated by `capabilities.pushNotifications`. */
  async createTaskPushNotificationConfig(
    config: TaskPushNotificationConfig,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    return createConfig(this.requirePush(), this.loader, config, call);
  }

  /** Push config get (A2A 1.0 §3.1.8): without the token or the credentials (decision 0088). */
  async getTaskPushNotificationConfig(
    ref: TaskPushNotificationConfigRef,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    return getConfig(this.requirePush(), this.loader, ref, call);
  }

  /** Push config list (A2A 1.0 §3.1.9). */
  async listTaskPushNotificationConfigs(
    request: ListTaskPushNotificationConfigsRequest,
    call: CallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return listConfigs(this.requirePush(), this.loader, request, call);
  }

  /** Push config delete (A2A 1.0 §3.1.10): idempotent. */
  async deleteTaskPushNotificationConfig(
    ref: TaskPushNotificationConfigRef,
    call: CallContext,
  ): Promise<void> {
    return deleteConfig(this.requirePush(), this.loader, ref, call);
  }

  /** The push machinery, when the card offers push (digest §11 item 39: else -32003). */
  private requirePush(): PushNotifications {
    if (this.push === undefined || this.agentCard.capabilities.pushNotifications !== true) {
      throw new A2AError(
        'PushNotificationNotSupportedError',
        'Push Notification is not supported by this agent',
      );
    }
    return this.push;
  }

  private requireStreaming(): void {
    if (this.agentCard.capabilities.streaming !== true) {
      throw new A2AError(
        'UnsupportedOperationError',
        'This operation is not supported: this agent does not stream',
      );
    }
  }

  /** A retried send's answer: the first attempt's task, once it stops if the retry blocks (0091). */
  private async answerRetry(
    stored: StoredTask,
    request: SendMessageRequest,
    call: CallContext,
  ): Promise<SendMessageResponse> {
    const config = request.configuration;
    let task = stored.task;
    const live = this.runner.get(task.id)?.execution;
    if (live !== undefined && config?.returnImmediately !== true) {
      await live.waitFor(() => live.reachedStop());
      task = live.task ?? task;
    }
    return { task: applyHistoryLength(task, config?.historyLength, call.version) };
  }

  /** A task's whole stream, replayed from its durable log and then live (a retried stream). */
  private replay(taskId: string, call: CallContext): EventStream {
    const scope = scopeOf(call);
    const subscription = this.subscribe(taskId, scope);
    const fill = this.gapFill(taskId, scope);
    return resumeEvents(this.store, taskId, scope, 0, subscription, call.version, call.signal, fill);
  }

  private async load(taskId: string, call: CallContext): Promise<StoredTask> {
    const stored = await this.store.get(taskId, scopeOf(call));
    if (stored === undefined) throw taskNotFound(taskId);
    return stored;
  }

  /** Validates a send and starts the executor: new task, or follow-up (A2A 1.0 §3.4). */
  private async startRun(
    request: SendMessageRequest,
    call: CallContext,
    beforeStart?: (execution: TaskExecution) => void,
    idempotencyKey?: string,
  ): Promise<TaskExecution> {
    const incoming = request.message;
    if (incoming.role !== 'ROLE_USER')
      throw invalidParams('/message/role', 'a client message must have the user role');
    const push =
      request.configuration?.taskPushNotificationConfig === undefined ? undefined : this.requirePush();
    checkSendMediaTypes(request, this.agentCard);
    const scope = scopeOf(call);
    let stored: StoredTask | undefined;
    let taskId: string;
    let contextId: string;
    if (incoming.taskId !== undefined && incoming.taskId !== '') {
      stored = await this.load(incoming.taskId, call);
      const state = stored.task.status.state;
      if (isTerminalState(state)) throw terminalTaskError(stored.task, call);
      if (
        incoming.contextId !== undefined &&
        incoming.contextId !== '' &&
        incoming.contextId !== stored.task.contextId
      ) {
        throw invalidParams(
          '/message/contextId',
          `does not match the context ${stored.task.contextId} of task ${stored.task.id}`,
        );
      }
      taskId = stored.task.id;
      contextId = stored.task.contextId;
    } else {
      taskId = newId();
      contextId =
        incoming.contextId !== undefined && incoming.contextId !== '' ? incoming.contextId : newId();
    }
    // The contract gate first (seeds/a2a-contracts.md "Validation behavior"), then the host's checks.
    const invocation = this.contracts?.admit(incoming);
    if (invocation?.requiresApproval === true && this.store.approvals === undefined) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Contract "${invocation.name}" requires approval by the agent's owner, and this server's store keeps no approvals`,
        { metadata: { contract: invocation.name } },
      );
    }
    if (this.admitMessage !== undefined) await this.admitMessage(request, call, stored?.task);
    const pushConfigs =
      push === undefined
        ? undefined
        : await inlineConfig(
            push,
            request,
            { taskId, tenant: stored?.tenant ?? scope.tenant, existing: stored !== undefined },
            call,
          );
    const message: Message =
      incoming.taskId === taskId && incoming.contextId === contextId
        ? incoming
        : Object.assign({}, incoming, { taskId, contextId });
    if (this.extensions.length > 0) {
      await this.runExtensions({ request, call, task: stored?.task, message, taskId, contextId });
    }
    if (invocation?.requiresApproval === true) {
      return holdForApproval(this.approvalDeps(), {
        taskId,
        contextId,
        scope,
        message,
        invocation,
        ...(stored === undefined ? {} : { stored }),
        ...(beforeStart === undefined ? {} : { beforeStart }),
        ...(pushConfigs === undefined ? {} : { pushConfigs }),
      });
    }
    // Optional members set one by one: conditional spreads would build throwaway objects per send.
    const options: StartOptions = { taskId, contextId, scope, message, request, call };
    if (idempotencyKey !== undefined) options.idempotencyKey = idempotencyKey;
    if (stored !== undefined) options.stored = stored;
    if (beforeStart !== undefined) options.beforeStart = beforeStart;
    if (invocation !== undefined) {
      options.contract = invocation;
      options.contracts = this.contracts;
    }
    if (pushConfigs !== undefined) options.pushConfigs = pushConfigs;
    return this.runner.start(options).execution;
  }

  /**
   * Every extension's `admit`, then (all having admitted) every `accepted`: an extension records a
   * send only once no other check can still refuse it (decision 0054).
   */
  private async runExtensions(accepted: Omit<AcceptedSend, 'activated'>): Promise<void> {
    const sends = this.extensions.map((extension) => ({
      extension,
      send: Object.assign({}, accepted, {
        activated: accepted.call.activatedExtensions.includes(extension.declaration.uri),
      }),
    }));
    for (const { extension, send } of sends) {
      const { message: _m, taskId: _t, contextId: _c, ...checked } = send;
      await extension.admit?.(checked);
    }
    for (const { extension, send } of sends) await extension.accepted?.(send);
  }
}

/** The store scope of a call: its tenant and its caller. */
export function scopeOf(call: CallContext): TaskScope {
  return { tenant: call.tenant, owner: call.user?.name ?? '' };
}
