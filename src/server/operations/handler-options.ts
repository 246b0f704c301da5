/**
 * What a RequestHandler is built from, and the one hook a host gives it on every send
 * (`MessageAdmission`). Kept apart from the handler so its operation modules can name them.
 */
import type { AgentCard, SendMessageRequest, Task } from '../../protocol/index.js';
import type { TaskStore } from '../../store/index.js';
import type { AgentExecutor, AgentSender } from '../agent-executor.js';
import type { CallContext } from '../call-context.js';
import type { Cluster } from '../cluster/cluster.js';
import type { ContractGate } from '../contracts/contract-gate.js';
import type { PushNotifications } from '../push/push-notifications.js';
import type { ServerExtension } from '../server-extension.js';
import type { EventHub } from '../task-run/event-hub.js';
import type { OrphanPolicy } from '../task-run/orphan-settling.js';
import type { IdempotencyOptions } from './idempotent-sends.js';

/** What the handler is built from. */
export interface RequestHandlerOptions {
  /** The public card; its capabilities gate streaming, push and the extended card. */
  agentCard: AgentCard;
  executor: AgentExecutor;
  store: TaskStore;
  /** The card for authenticated callers (A2A 1.0 §3.1.11). */
  extendedAgentCard?: AgentCard | undefined;
  /** Receives errors that have no caller (agent crashes, store failures). Never throws. */
  onError?: ((error: unknown, where: string) => void) | undefined;
  hub?: EventHub | undefined;
  /** Which sends are retries: the `Idempotency-Key`, and the messageId if asked (decision 0133). */
  idempotency?: IdempotencyOptions | undefined;
  /** Checks every send before it creates or continues a task; see `MessageAdmission`. */
  admitMessage?: MessageAdmission | undefined;
  /** The agent's typed message contracts: gate on the way in, output check on the way out. */
  contracts?: ContractGate | undefined;
  /** Given to executors as `context.agents`, to send to other agents. */
  agents?: AgentSender | undefined;
  /** A2A extensions run on every send, after `admitMessage` (server-extension.ts). */
  extensions?: readonly ServerExtension[] | undefined;
  /** Push notifications; without them every push operation is PushNotificationNotSupported. */
  push?: PushNotifications | undefined;
  /** The cluster this server is an instance of (decision 0110); absent for a single process. */
  cluster?: Cluster | undefined;
  /** The key of this agent on the cluster's bus: servers sharing a store share it (default `''`). */
  clusterKey?: string | undefined;
  /** A single server's tasks left running by an earlier process of its store (decision 0119). */
  orphans?: OrphanPolicy | undefined;
  /** Settling them starts once this settles (default: at once). */
  recoverAfter?: Promise<unknown> | undefined;
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
