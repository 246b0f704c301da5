/**
 * `CancelTask` (A2A 1.0 §3.1.5): the running agent is told (its cancel hook, then its abort
 * signal) and Concord commits TASK_STATE_CANCELED. On a cluster, a task whose executor runs on
 * another instance is canceled there, through the bus, so the agent hears of it; if that instance
 * does not answer in time, this one commits the cancel itself, optimistically (decision 0113).
 */
import { A2AError, isTerminalState, type Task } from '../../protocol/index.js';
import type { StoredTask, TaskScope } from '../../store/index.js';
import type { RunningTask, TaskRunner } from './task-runner.js';
import type { TaskExecution } from './task-execution.js';

/** Cancels a task on the instance that runs it, when that is another live instance. */
export interface RemoteCancel {
  /**
   * Resolves with the task once it is terminal (canceled there, or ended meanwhile), or
   * undefined when no other live instance runs it or it did not answer in time.
   */
  cancelRemote(stored: StoredTask, scope: TaskScope): Promise<Task | undefined>;
}

/** What a cancel needs from the handler. */
export interface CancelDeps {
  runner: TaskRunner;
  remote?: RemoteCancel | undefined;
}

/** Cancels a stored, visible task and resolves with the canceled task. */
export async function cancelTask(deps: CancelDeps, stored: StoredTask, scope: TaskScope): Promise<Task> {
  if (isTerminalState(stored.task.status.state)) throw notCancelable(stored.task);
  const { runner } = deps;
  let running = runner.get(stored.task.id);
  if (running === undefined && deps.remote !== undefined) {
    const ended = await deps.remote.cancelRemote(stored, scope);
    if (ended !== undefined) return canceledOrRefused(ended);
    // The run may have moved here meanwhile (a follow-up message); else commit from here.
    running = runner.get(stored.task.id);
  }
  if (running !== undefined) return canceledOrRefused(await cancelRun(running, runner), stored.task);
  const execution = runner.idle(stored, scope);
  return canceledOrRefused(await commitCancel(execution), stored.task);
}

/**
 * The local cancel of a running executor: its cancel hook, its abort signal, then the canceled
 * state, committed. Resolves with the task as committed (another writer may have ended it first).
 */
export async function cancelRun(running: RunningTask, runner: TaskRunner): Promise<Task | undefined> {
  const hook = runner.cancelHook;
  if (hook !== undefined) await hook(running.context, running.updater);
  return commitCancel(running.execution);
}

async function commitCancel(execution: TaskExecution): Promise<Task | undefined> {
  execution.abort();
  execution.forceStatus('TASK_STATE_CANCELED');
  await execution.waitFor(() => {
    const state = execution.task?.status.state;
    return state !== undefined && isTerminalState(state);
  });
  return execution.fullTask();
}

function canceledOrRefused(task: Task | undefined, fallback?: Task): Task {
  if (task === undefined || task.status.state !== 'TASK_STATE_CANCELED')
    throw notCancelable(task ?? fallback!);
  return task;
}

/** TaskNotCancelableError for a task in `task`'s state (A2A 1.0 §3.1.5). */
export function notCancelable(task: Task): A2AError {
  return new A2AError(
    'TaskNotCancelableError',
    `Task ${task.id} is ${task.status.state} and cannot be canceled`,
    {
      metadata: { taskId: task.id, state: task.status.state },
    },
  );
}
