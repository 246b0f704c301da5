/**
 * What every operation group of the RequestHandler shares: the store, the live runs and their
 * hub, the cards (replaced when the base URL becomes known), and the lookups all of them make: a
 * task in the caller's scope, a subscription that follows a task across a cluster (decision 0111).
 */
import { A2AError, taskNotFound, type AgentCard } from '../../protocol/internal.js';
import type { StoredTask, StoredTaskHead, TaskReadOptions, TaskScope, TaskStore } from '../../store/index.js';
import type { CallContext } from '../call-context.js';
import type { ClusterNode } from '../cluster/cluster-node.js';
import type { ContractGate } from '../contracts/contract-gate.js';
import type { PushNotifications } from '../push/push-notifications.js';
import type { ServerExtension } from '../server-extension.js';
import { EventHub, type HubSubscription } from '../task-run/event-hub.js';
import { setUpExecution, type ExecutionSetup } from '../task-run/execution-setup.js';
import type { TaskRunner } from '../task-run/task-runner.js';
import type { StreamLog } from '../task-run/stream-log.js';
import type { StreamItem } from '../task-run/task-streams.js';
import type { MessageAdmission, RequestHandlerOptions } from './handler-options.js';
import { IdempotentSends } from './idempotent-sends.js';

/** A stream of task events; closing it stops the flow (the client went away). */
export type EventStream = AsyncIterable<StreamItem>;

/** The handler's state and shared lookups, built once per RequestHandler. */
export class HandlerContext {
  /** The public card; its capabilities gate what the handler serves. */
  card: AgentCard;
  extendedAgentCard: AgentCard | undefined;
  readonly store: TaskStore;
  readonly hub: EventHub;
  readonly runner: TaskRunner;
  readonly admitMessage: MessageAdmission | undefined;
  readonly contracts: ContractGate | undefined;
  readonly extensions: readonly ServerExtension[];
  readonly push: PushNotifications | undefined;
  /** This server's part in a cluster, when it has one. */
  readonly node: ClusterNode | undefined;
  readonly execution: ExecutionSetup;
  readonly loader = (id: string, call: CallContext): Promise<StoredTask> => this.load(id, call);
  /** Which sends are retries of earlier ones (decisions 0091, 0133, 0147). */
  readonly sends: IdempotentSends;

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
      // Read per run: the card is replaced when the base URL becomes known.
      agentName: () => this.card.name,
    });
    this.runner = this.execution.runner;
    this.node = this.execution.node;
  }

  /** The caller's task, or TaskNotFoundError (another caller's task is not found either). */
  async load(taskId: string, call: CallContext, read?: TaskReadOptions): Promise<StoredTask> {
    const stored = await this.store.get(taskId, scopeOf(call), read);
    if (stored === undefined) throw taskNotFound(taskId);
    return stored;
  }

  /**
   * The caller's task's head (version and state), read without its snapshot where the store can
   * (TaskStore `head`), or TaskNotFoundError as `load`.
   */
  async loadHead(taskId: string, call: CallContext): Promise<StoredTaskHead> {
    const scope = scopeOf(call);
    if (this.store.head === undefined) {
      const stored = await this.load(taskId, call);
      return {
        tenant: stored.tenant,
        owner: stored.owner,
        version: stored.version,
        state: stored.task.status.state,
      };
    }
    const head = await this.store.head(taskId, scope);
    if (head === undefined) throw taskNotFound(taskId);
    return head;
  }

  /**
   * A hub subscription; on a cluster it also follows the task, so events committed by other
   * instances reach it (decision 0111), and `seen` tells the follower what the caller read.
   */
  subscribe(taskId: string, scope: TaskScope): HubSubscription {
    return this.node === undefined ? this.hub.subscribe(taskId) : this.node.subscribe(taskId, scope);
  }

  /**
   * The task's durable log as its streams read it (stream-log.ts): pages of its events, fresh
   * subscriptions, and on a cluster the gaps filled.
   */
  streamLog(taskId: string, scope: TaskScope): StreamLog {
    return {
      read: (after, limit) => this.store.readEvents(taskId, after, scope, limit),
      subscribe: () => this.subscribe(taskId, scope),
      fillsGaps: this.node !== undefined,
    };
  }

  requireStreaming(): void {
    if (this.card.capabilities.streaming !== true) {
      throw new A2AError(
        'UnsupportedOperationError',
        'This operation is not supported: this agent does not stream',
      );
    }
  }
}

/** The store scope of a call: its tenant and its caller. */
export function scopeOf(call: CallContext): TaskScope {
  return { tenant: call.tenant, owner: call.user?.name ?? '' };
}
