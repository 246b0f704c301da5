/**
 * The transport-neutral request handler: one method per A2A operation (A2A 1.0 §3.1), taking
 * and returning the canonical model. Bindings decode into it and encode out of it; nothing here
 * knows about HTTP, JSON-RPC or wire versions beyond the version-dependent semantics that the
 * decisions 0004 and 0005 settle (historyLength, terminal-task errors, stream closing, resubscribe).
 *
 * A facade: each operation group lives in its own module of operations/ (send.ts and
 * admission.ts, tasks.ts, push-configs.ts, approvals.ts, extended-card.ts), over the state they
 * share (handler-context.ts).
 */
import type {
  AgentCard,
  CancelTaskRequest,
  GetExtendedAgentCardRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
  TaskPushNotificationConfigRef,
} from '../protocol/internal.js';
import type { ApprovalEvent, ApprovalPage, ApprovalQuery, ApprovalRecord } from '../store/internal.js';
import type { CallContext } from './call-context.js';
import type { ApprovalDecision } from './operations/approval-flow.js';
import * as approvals from './operations/approvals.js';
import { extendedAgentCard } from './operations/extended-card.js';
import { HandlerContext, type EventStream } from './operations/handler-context.js';
import type { RequestHandlerOptions } from './operations/handler-options.js';
import * as pushConfigs from './operations/push-configs.js';
import * as sends from './operations/send.js';
import * as tasks from './operations/tasks.js';

export type { EventStream } from './operations/handler-context.js';
export type { MessageAdmission, RequestHandlerOptions } from './operations/handler-options.js';

/** Implements every A2A operation over a TaskStore and an AgentExecutor. */
export class RequestHandler {
  private readonly context: HandlerContext;

  constructor(options: RequestHandlerOptions) {
    this.context = new HandlerContext(options);
  }

  /** Stops this server's part in its cluster and its restart recovery; the store is closed by its owner. */
  close(): void {
    this.context.execution.close();
  }

  /** The public card; its capabilities gate what the handler serves. */
  get agentCard(): AgentCard {
    return this.context.card;
  }

  /** Replaces the cards (the base URL became known, or the agent's definition changed). */
  replaceCards(agentCard: AgentCard, extendedAgentCard?: AgentCard): void {
    this.context.card = agentCard;
    this.context.extendedAgentCard = extendedAgentCard;
  }

  /** `SendMessage` / `message/send` (A2A 1.0 §3.1.1); a retried send answers as the first did. */
  sendMessage(request: SendMessageRequest, call: CallContext): Promise<SendMessageResponse> {
    return sends.sendMessage(this.context, request, call);
  }

  /** `SendStreamingMessage` / `message/stream` (A2A 1.0 §3.1.2). Errors before the first event throw. */
  sendStreamingMessage(request: SendMessageRequest, call: CallContext): Promise<EventStream> {
    return sends.sendStreamingMessage(this.context, request, call);
  }

  /** `GetTask` / `tasks/get` (A2A 1.0 §3.1.3). */
  getTask(request: GetTaskRequest, call: CallContext): Promise<Task> {
    return tasks.getTask(this.context, request, call);
  }

  /**
   * `GetTask` as the HTTP bindings answer it: the task, with its artifacts apart when its store
   * keeps them in rows, read as the answer is written (decision 0172).
   */
  readTask(request: GetTaskRequest, call: CallContext): Promise<tasks.TaskAnswer> {
    return tasks.readTask(this.context, request, call);
  }

  /** `ListTasks` (A2A 1.0 §3.1.4): only the caller's tasks, newest first, paged. */
  listTasks(request: ListTasksRequest, call: CallContext): Promise<ListTasksResponse> {
    return tasks.listTasks(this.context, request, call);
  }

  /** `CancelTask` / `tasks/cancel` (A2A 1.0 §3.1.5): reaches the running agent, here or on another instance. */
  cancelTask(request: CancelTaskRequest, call: CallContext): Promise<Task> {
    return tasks.cancelTask(this.context, request, call);
  }

  /** `SubscribeToTask` / `tasks/resubscribe` (A2A 1.0 §3.1.6), resumable with `Last-Event-ID`. */
  subscribeToTask(
    request: SubscribeToTaskRequest,
    call: CallContext,
    lastEventId?: string,
  ): Promise<EventStream> {
    return tasks.subscribeToTask(this.context, request, call, lastEventId);
  }

  /** `GetExtendedAgentCard` (A2A 1.0 §3.1.11): authenticated callers only. */
  async getExtendedAgentCard(_request: GetExtendedAgentCardRequest, call: CallContext): Promise<AgentCard> {
    return extendedAgentCard(this.context, call);
  }

  /** Approvals of `requiresApproval` contracts, oldest first (decision 0017). */
  listApprovals(query: ApprovalQuery): Promise<ApprovalPage> {
    return approvals.listApprovals(this.context, query);
  }

  /** One approval and its audit trail. */
  getApproval(id: string): Promise<{ approval: ApprovalRecord; history: ApprovalEvent[] }> {
    return approvals.getApproval(this.context, id);
  }

  /** The owner's decision on an approval; an approved task runs, a rejected one ends rejected. */
  decideApproval(id: string, decision: ApprovalDecision): ReturnType<typeof approvals.decideApproval> {
    return approvals.decideApproval(this.context, id, decision);
  }

  /** Push config create (A2A 1.0 §3.1.7); gated by `capabilities.pushNotifications`. */
  createTaskPushNotificationConfig(
    config: TaskPushNotificationConfig,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    return pushConfigs.createPushConfig(this.context, config, call);
  }

  /** Push config get (A2A 1.0 §3.1.8): without the token or the credentials (decision 0088). */
  getTaskPushNotificationConfig(
    ref: TaskPushNotificationConfigRef,
    call: CallContext,
  ): Promise<TaskPushNotificationConfig> {
    return pushConfigs.getPushConfig(this.context, ref, call);
  }

  /** Push config list (A2A 1.0 §3.1.9). */
  listTaskPushNotificationConfigs(
    request: ListTaskPushNotificationConfigsRequest,
    call: CallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return pushConfigs.listPushConfigs(this.context, request, call);
  }

  /** Push config delete (A2A 1.0 §3.1.10): idempotent. */
  deleteTaskPushNotificationConfig(ref: TaskPushNotificationConfigRef, call: CallContext): Promise<void> {
    return pushConfigs.deletePushConfig(this.context, ref, call);
  }
}
