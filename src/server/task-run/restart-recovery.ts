/**
 * A single server's recovery of the tasks an earlier process of its store left running (decision
 * 0119). When the server starts, it asks the store to claim the file (`claimUnfinished`); a store
 * still served by another live process answers undefined, and the server asks again every few
 * seconds until that process is gone. Each task found submitted or working is then failed with a
 * status message saying the server stopped, or, with `orphans: 'resume'`, run again with its last
 * user message. A cluster does the same through its bus instead (decision 0114).
 */
import type { TaskScope, TaskStore, UnfinishedTask } from '../../store/index.js';
import { failOrphan, resumeOrphan, settledState, type OrphanPolicy } from './orphan-settling.js';
import type { TaskRunner } from './task-runner.js';

/** The status text of a task failed because the server running it stopped. */
export const STOPPED_SERVER_TEXT = 'The Concord server running this task stopped before the task finished.';

/** How often a server whose store another live process holds asks again. */
const RETRY_MS = 5_000;

/** What a recovery works with. */
export interface RestartRecoveryOptions {
  store: TaskStore;
  /** The store's `claimUnfinished`. */
  claim: () => Promise<UnfinishedTask[] | undefined>;
  runner: TaskRunner;
  policy: OrphanPolicy;
  onError: (error: unknown, where: string) => void;
  /** Recovery starts once this settles (a host: once every agent is mounted). */
  after?: Promise<unknown> | undefined;
}

/** Claims the store and settles what an earlier process left; see the file comment. */
export class RestartRecovery {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: RestartRecoveryOptions) {
    // A host's agent resumed before its siblings are mounted could not send to them.
    const start = (): void => void this.attempt();
    if (options.after === undefined) start();
    else options.after.then(start, start);
  }

  /** Stops asking; the store releases its claim when it closes. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private async attempt(): Promise<void> {
    if (this.closed) return;
    let unfinished: UnfinishedTask[] | undefined;
    try {
      unfinished = await this.options.claim();
    } catch (error) {
      if (this.closed) return;
      // A store closed under a server that was never closed (a failed start): nothing to retry.
      if (error instanceof Error && error.message === 'task store is closed') return;
      this.options.onError(error, 'claiming the task store after a restart');
    }
    if (unfinished === undefined) {
      if (this.closed) return;
      this.timer = setTimeout(() => void this.attempt(), RETRY_MS);
      this.timer.unref();
      return;
    }
    for (const task of unfinished) {
      if (this.closed) break;
      try {
        await this.settle(task);
      } catch (error) {
        this.options.onError(error, `settling task ${task.taskId} left by a stopped server`);
      }
    }
  }

  private async settle(task: UnfinishedTask): Promise<void> {
    const { store, runner, policy } = this.options;
    // A task this process runs already (the claim came late, after this server started work).
    if (runner.get(task.taskId) !== undefined) return;
    const scope: TaskScope = { tenant: task.tenant, owner: task.owner };
    const stored = await store.get(task.taskId, scope);
    if (stored === undefined || settledState(stored.task.status.state)) return;
    // Asked again after the read: a client's follow-up may have started a run meanwhile.
    if (runner.get(task.taskId) !== undefined) return;
    if (policy === 'resume' && resumeOrphan(runner, stored, scope)) return;
    await failOrphan(runner, stored, scope, STOPPED_SERVER_TEXT);
  }
}
