/**
 * What becomes of a task whose executor died with its process (decisions 0114 and 0119): it is
 * failed with a status message saying why, or, for agents written to be re-entered, its executor
 * runs again with the task's last user message. Shared by the cluster's sweeper and by a single
 * server's recovery after a restart.
 */
import { isInterruptedState, isTerminalState, type Message, type TaskState } from '../../protocol/index.js';
import type { StoredTask, TaskScope } from '../../store/index.js';
import type { TaskRunner } from './task-runner.js';

/** What to do with such tasks: fail them (the default) or run their executor again. */
export type OrphanPolicy = 'fail' | 'resume';

/** True for a task that needs no settling: ended, or waiting for its client rather than an executor. */
export function settledState(state: TaskState): boolean {
  return isTerminalState(state) || isInterruptedState(state);
}

/** Commits TASK_STATE_FAILED with `text`; resolves once committed or found ended by another writer. */
export async function failOrphan(
  runner: TaskRunner,
  stored: StoredTask,
  scope: TaskScope,
  text: string,
): Promise<void> {
  const execution = runner.idle(stored, scope);
  execution.forceStatus('TASK_STATE_FAILED', text);
  await execution.waitFor(() => false);
}

/** Runs the executor again with the task's last user message; false when the task has none. */
export function resumeOrphan(runner: TaskRunner, stored: StoredTask, scope: TaskScope): boolean {
  const message = lastUserMessage(stored.task.history);
  if (message === undefined) return false;
  const { task } = stored;
  const user = scope.owner === '' ? undefined : { name: scope.owner };
  runner.start({
    taskId: task.id,
    contextId: task.contextId,
    scope,
    message,
    request: { message },
    // The original call's transport facts are gone; the task's tenant and owner are not.
    call: {
      version: '1.0',
      tenant: scope.tenant,
      activatedExtensions: [],
      ...(user === undefined ? {} : { user }),
    },
    stored,
    messageRecorded: true,
  });
  return true;
}

function lastUserMessage(history: readonly Message[] | undefined): Message | undefined {
  if (history === undefined) return undefined;
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === 'ROLE_USER') return history[i];
  return undefined;
}
