/**
 * The ClusterBus port: what several Concord instances sharing one task store need from each other
 * (decision 0110). Messages are best-effort hints — a lost `committed` only delays a stream, since
 * followers re-read the durable event log on a timer and after a reconnect — while liveness
 * (heartbeats with a TTL) and the run registry (which instance runs which task) are durable enough
 * to survive the instance that wrote them. Implementations live outside the core:
 * `concord-a2a/cluster/postgres` (LISTEN/NOTIFY and two tables) and `concord-a2a/cluster/redis` (pub/sub and
 * keys with a TTL); `createMemoryBus` serves several servers in one process.
 */

/** A task's event log grew: its last event is now `version` (TaskStore versions, decision 0007). */
export interface CommittedMessage {
  type: 'committed';
  /** The servers sharing a store share this key (the host uses the agent id). */
  agent: string;
  taskId: string;
  version: number;
  /** The instance that committed. */
  from: string;
}

/** Asks instance `to`, which runs the task's executor, to cancel it (A2A 1.0 §3.1.5). */
export interface CancelMessage {
  type: 'cancel';
  agent: string;
  taskId: string;
  to: string;
  from: string;
}

/**
 * The answer of an instance asked to cancel a task it does not run (any more: the run ended while
 * the request travelled, or the registry was stale): the asking instance `to` commits the cancel
 * itself at once instead of waiting out its bound (decision 0113).
 */
export interface CancelDeclinedMessage {
  type: 'cancel-declined';
  agent: string;
  taskId: string;
  to: string;
  from: string;
}

/** Everything instances tell each other. */
export type ClusterMessage = CommittedMessage | CancelMessage | CancelDeclinedMessage;

/** Which instance runs a task's executor, with the scope the task is read under. */
export interface RunRecord {
  agent: string;
  taskId: string;
  instanceId: string;
  tenant: string;
  owner: string;
}

/** The instance that runs a task, and whether its heartbeat is current. */
export interface Runner {
  instanceId: string;
  alive: boolean;
}

/** What a bus reports to its instance. */
export interface BusListener {
  /** A message from any instance (this one's own messages may come back too). */
  message(message: ClusterMessage): void;
  /** The bus was disconnected and is back: messages may have been lost meanwhile. */
  reconnected(): void;
  /** A failure with no caller (a lost connection, a malformed message). */
  error(error: unknown, where: string): void;
}

/** Messages, heartbeats and the run registry shared by the instances of a cluster. */
export interface ClusterBus {
  /** Connects and starts delivering messages to `listener`; resolves once listening. */
  open(listener: BusListener): Promise<void>;
  /** Sends a message to every instance listening on this bus. */
  publish(message: ClusterMessage): Promise<void>;
  /** Marks `instanceId` alive for `ttlMs` from now, measured by the shared server's clock. */
  beat(instanceId: string, ttlMs: number): Promise<void>;
  /** Withdraws `instanceId`'s heartbeat at once (a clean stop): its runs become orphans. */
  leave(instanceId: string): Promise<void>;
  /** Records that `run.instanceId` runs the task (replacing any earlier record of that task). */
  recordRun(run: RunRecord): Promise<void>;
  /** Forgets the run of a task, if `instanceId` still holds it. */
  removeRun(agent: string, taskId: string, instanceId: string): Promise<void>;
  /** Who runs a task, if anyone is recorded. */
  runnerOf(agent: string, taskId: string): Promise<Runner | undefined>;
  /** The runs whose instance's heartbeat expired (or was withdrawn). */
  orphanedRuns(agent: string): Promise<RunRecord[]>;
  /** Moves an orphaned run to `instanceId`; false when another instance took or removed it first. */
  claimRun(run: RunRecord, instanceId: string): Promise<boolean>;
  /** Stops listening and closes connections. */
  close(): Promise<void>;
  /**
   * Readiness probe (`concord serve`'s /readyz, decision 0158): false while the connection that
   * delivers messages is down (it reconnects by itself). Optional: a bus without one is taken as up.
   */
  listening?(): boolean;
}

/** Checks a decoded message's shape: a bus carries JSON from other processes. */
export function isClusterMessage(value: unknown): value is ClusterMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (typeof m.agent !== 'string' || typeof m.taskId !== 'string' || typeof m.from !== 'string') return false;
  if (m.type === 'committed') return typeof m.version === 'number' && Number.isSafeInteger(m.version);
  return (m.type === 'cancel' || m.type === 'cancel-declined') && typeof m.to === 'string';
}

/**
 * Hands a payload from the wire to `listener`: a well-formed message to `message`, anything else
 * to `error` (a bus carries text from other processes, which may run another version).
 */
export function deliverPayload(payload: string, listener: BusListener): void {
  let message: unknown;
  try {
    message = JSON.parse(payload);
  } catch (error) {
    listener.error(error, 'cluster bus: a message that is not JSON');
    return;
  }
  if (isClusterMessage(message)) listener.message(message);
  else listener.error(new Error(`not a cluster message: ${payload.slice(0, 200)}`), 'cluster bus');
}
