/**
 * The one executor object an agent's server keeps for its life, forwarding to the agent's current
 * executor. A reload swaps the executor: new messages run on the new one at once, while messages
 * already running finish on the one they started on (a cancel reaches that one too). A replaced
 * executor is disposed — its MCP connections closed — when its last running message ends.
 */
import type { AgentExecutor, RequestContext, TaskUpdater } from '../server/index.js';

/** An executor with what it holds open (MCP connections); `dispose` releases it. */
export interface DisposableExecutor extends AgentExecutor {
  dispose(): Promise<void>;
  /** Checks what the executor depends on answers (its MCP servers), for `/readyz` (decision 0158). */
  ready?: (() => Promise<void>) | undefined;
}

interface Live {
  executor: DisposableExecutor;
  running: number;
  retired: boolean;
}

/** See the file comment. */
export class ExecutorSlot {
  private current: Live;
  private readonly byTask = new Map<string, Live>();
  private readonly retired = new Set<Live>();
  /** What the server is given. */
  readonly executor: AgentExecutor;

  constructor(
    executor: DisposableExecutor,
    private readonly onError: (error: unknown, where: string) => void,
  ) {
    this.current = { executor, running: 0, retired: false };
    this.executor = {
      execute: (context, updater) => this.execute(context, updater),
      // Without a hook of its own the agent gets Concord's default cancel (abort, then canceled).
      cancel: (context, updater) =>
        (this.byTask.get(context.taskId) ?? this.current).executor.cancel?.(context, updater),
    };
  }

  /** New messages go to `executor` from now on; the old one is disposed once idle. */
  replace(executor: DisposableExecutor): void {
    const old = this.current;
    this.current = { executor, running: 0, retired: false };
    old.retired = true;
    this.retired.add(old);
    this.disposeIfIdle(old);
  }

  /** The current executor's readiness check, when it has one (its MCP servers). */
  get ready(): (() => Promise<void>) | undefined {
    return this.current.executor.ready;
  }

  /** Disposes every executor, running or not (the host is stopping). */
  async close(): Promise<void> {
    const all = [this.current, ...this.retired];
    this.retired.clear();
    for (const live of all) await live.executor.dispose();
  }

  private async execute(context: RequestContext, updater: TaskUpdater): Promise<void> {
    const live = this.current;
    live.running++;
    this.byTask.set(context.taskId, live);
    try {
      await live.executor.execute(context, updater);
    } finally {
      if (this.byTask.get(context.taskId) === live) this.byTask.delete(context.taskId);
      live.running--;
      this.disposeIfIdle(live);
    }
  }

  private disposeIfIdle(live: Live): void {
    if (!live.retired || live.running > 0 || !this.retired.delete(live)) return;
    live.executor.dispose().catch((error: unknown) => this.onError(error, 'disposing a replaced executor'));
  }
}
