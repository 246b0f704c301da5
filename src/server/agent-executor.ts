/**
 * The contract between Concord and agent code. An executor receives the user's message with its
 * task context and reports progress through a TaskUpdater; it never touches storage or the wire.
 */
import type {
  Message,
  Metadata,
  SendMessageConfiguration,
  SendMessageResponse,
  Task,
} from '../protocol/index.js';
import type { NamedContractSpec } from '../contracts/index.js';
import type { Context } from '../telemetry/index.js';
import type { CallContext } from './call-context.js';
import type { ContractInvocation } from './contracts/contract-gate.js';
import type { TaskUpdater } from './task-run/task-updater.js';

/** What an executor knows about the request it serves. */
export interface RequestContext {
  /** The incoming message, with `taskId` and `contextId` filled in. */
  readonly message: Message;
  readonly taskId: string;
  readonly contextId: string;
  /** The task as stored before this message, for follow-ups to an existing task. */
  readonly task: Task | undefined;
  /** True when this message creates the task. */
  readonly isNewTask: boolean;
  readonly configuration: SendMessageConfiguration | undefined;
  /** Request-level metadata (`SendMessageRequest.metadata`). */
  readonly metadata: Metadata | undefined;
  /** Aborted when the task is canceled; long-running work should stop. */
  readonly signal: AbortSignal;
  readonly call: CallContext;
  /** The contract the message invokes, when it is a valid structured contract message. */
  readonly contract?: ContractInvocation;
  /** Sends to other agents (by host id or URL), when the server was given a sender (the host does). */
  readonly agents?: AgentSender;
  /** What the server's A2A extensions offer the agent, by extension URI (`ServerExtension.service`). */
  readonly extensions: ReadonlyMap<string, unknown>;
  /**
   * The OpenTelemetry context of this execution (decision 0157): its `invoke_agent` span, below
   * the operation that delivered the message. An executor that makes spans of its own (model and
   * tool calls) starts them under it; it is also active while `execute` runs, for a context
   * manager. Absent on contexts not built by Concord's runner.
   */
  readonly trace?: Context;
}

/** What an agent sends to another: text, a contract invocation, or a whole message. */
export type AgentMessageInput =
  string | { contract: string; payload: unknown; correlationId?: string } | Message;

/**
 * Agent-to-agent send (OpenClaw PR #19293 a2a-contracts.md "Sending structured messages", the `sessions_send`
 * equivalent): the target's contract gate runs before delivery, and a refusal is thrown as the
 * A2AError the target answered.
 */
export interface AgentSender {
  send(
    target: string,
    input: AgentMessageInput,
    options?: { contextId?: string; taskId?: string; signal?: AbortSignal },
  ): Promise<SendMessageResponse>;
  /**
   * What a remote agent (a URL) publishes about itself: its card's name and description and its
   * contracts, so a model can be told how to address it. Absent when the sender cannot reach URLs.
   */
  describe?(target: string, options?: { signal?: AbortSignal }): Promise<AgentDescription>;
  /**
   * The sender the executor handling `message` gets as `context.agents`: a host binds the
   * message so the sends it causes continue its agent-to-agent hop count (decision 0148).
   * Without it, every request gets this sender as it is. `trace` is the OpenTelemetry context of
   * the agent's execution (decision 0157): the sends are traced below it and carry it on.
   */
  forMessage?(message: Message, trace?: Context): AgentSender;
}

/** An agent as it describes itself to senders (its card and published contracts, decision 0018). */
export interface AgentDescription {
  name: string;
  description: string;
  allowFreeform: boolean;
  /** Its contracts in declaration order, with their schemas. */
  contracts: NamedContractSpec[];
}

/** Agent logic. `execute` may return before the task ends if it keeps using the updater. */
export interface AgentExecutor {
  /** Handles one message. Throwing fails the task (or the call, if nothing was produced yet). */
  execute(context: RequestContext, updater: TaskUpdater): Promise<void> | void;
  /**
   * Optional cancel hook. Without it, Concord aborts `context.signal` and marks the task
   * canceled itself; with it, the hook decides (it may call `updater.cancel()` or refuse by
   * throwing TaskNotCancelableError).
   */
  cancel?(context: RequestContext, updater: TaskUpdater): Promise<void> | void;
}
