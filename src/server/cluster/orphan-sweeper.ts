/**
 * Settles the tasks of instances that stopped (decision 0114). Every instance sweeps: it asks the
 * bus for runs whose instance's heartbeat expired, and for each task still submitted or working
 * either commits TASK_STATE_FAILED with a status message saying the instance stopped (the default),
 * or, with `orphans: 'resume'`, takes the run over and runs the executor again with the task's last
 * user message. Commits are optimistic (TaskStore versions), so when several sweepers race, one
 * commit wins and the others see a terminal task and stop; `claimRun` lets one instance resume.
 */
import type { StoredTask, TaskScope, TaskStore } from '../../store/index.js';
import { failOrphan, resumeOrphan, settledState } from '../task-run/orphan-settling.js';
import type { TaskRunner } from '../task-run/task-runner.js';
import type { RunRecord } from './cluster-bus.js';
import type { Cluster } from './cluster.js';

/** What a sweeper works with. */
export interface OrphanSweeperOptions {
  cluster: Cluster;
  agent: string;
  store: TaskStore;
  runner: TaskRunner;
  onError: (error: unknown, where: string) => void;
}

/** The status text of a task failed because its instance stopped. */
export function stoppedInstanceText(instanceId: string): string {
  return `The Concord instance running this task (${instanceId}) stopped before the task finished.`;
}

/** Periodic settlement of orphaned runs for one agent. */
export class OrphanSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(private readonly options: OrphanSweeperOptions) {}

  /** Sweeps every `intervalMs` (after the cluster is ready). */
  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.sweep(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One sweep; resolves when every orphan found is settled (or reported). */
  sweep(): Promise<void> {
    this.sweeping ??= this.run().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async run(): Promise<void> {
    const { cluster, agent, onError } = this.options;
    try {
      await cluster.ready;
      if (cluster.closed) return;
      const orphans = await cluster.bus.orphanedRuns(agent);
      for (const run of orphans) {
        try {
          await this.settle(run);
        } catch (error) {
          onError(error, `settling task ${run.taskId} of stopped instance ${run.instanceId}`);
        }
      }
    } catch (error) {
      onError(error, 'looking for tasks of stopped instances');
    }
  }

  private async settle(run: RunRecord): Promise<void> {
    const { cluster, store } = this.options;
    const scope: TaskScope = { tenant: run.tenant, owner: run.owner };
    const stored = await store.get(run.taskId, scope);
    // Nothing to settle: never committed, already ended, or waiting for the client (no executor).
    if (stored === undefined || settledState(stored.task.status.state)) {
      await cluster.bus.removeRun(run.agent, run.taskId, run.instanceId);
      return;
    }
    if (cluster.settings.orphans === 'resume') {
      if (!(await cluster.bus.claimRun(run, cluster.instanceId))) return;
      if (resumeOrphan(this.options.runner, stored, scope)) return;
      await this.fail(stored, scope, run.instanceId);
      await cluster.bus.removeRun(run.agent, run.taskId, cluster.instanceId);
      return;
    }
    await this.fail(stored, scope, run.instanceId);
    await cluster.bus.removeRun(run.agent, run.taskId, run.instanceId);
  }

  private fail(stored: StoredTask, scope: TaskScope, instanceId: string): Promise<void> {
    return failOrphan(this.options.runner, stored, scope, stoppedInstanceText(instanceId));
  }
}
