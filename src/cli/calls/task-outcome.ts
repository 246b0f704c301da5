/**
 * A task's outcome as the calling commands report it (a2a-cli SPEC §6.3, §7.1, §9.6): which
 * states end a wait (terminal, or interrupted: waiting for input or auth), the task a stream's
 * events add up to, and the warning on stderr that names an outcome other than success. The
 * outcome never changes the exit code: a turn conducted and reported exits 0 (decision 0169).
 */
import type { Message, StreamResponse, Task, TaskStatus } from '../../protocol/index.js';

const TERMINAL = new Set<string>([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
const INTERRUPTED = new Set<string>(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);

/** A terminal state: the task will not change again. */
export function isTerminal(state: string): boolean {
  return TERMINAL.has(state);
}

/** An interrupted state: the task waits for the caller (input or authentication). */
export function isInterrupted(state: string): boolean {
  return INTERRUPTED.has(state);
}

/**
 * True when a wait ends at this state. Anything else (submitted, working, TASK_STATE_UNSPECIFIED,
 * a state this version does not know) is neither terminal nor interrupted: the wait goes on.
 */
export function endsWait(state: string): boolean {
  return TERMINAL.has(state) || INTERRUPTED.has(state);
}

/**
 * The task a stream's events add up to: the first `Task`, then each status replacing the status
 * and each artifact update adding, replacing or (with `append`) extending an artifact. A direct
 * reply is kept as the message.
 */
export class TaskFold {
  task: Task | undefined;
  message: Message | undefined;

  /** Folds one event in. */
  apply(event: StreamResponse): void {
    if ('task' in event) {
      this.task = structuredClone(event.task);
    } else if ('message' in event) {
      this.message = event.message;
    } else if ('statusUpdate' in event) {
      const update = event.statusUpdate;
      this.ensure(update.taskId, update.contextId, update.status).status = update.status;
    } else {
      const update = event.artifactUpdate;
      const task = this.ensure(update.taskId, update.contextId);
      const artifacts = (task.artifacts ??= []);
      const index = artifacts.findIndex((a) => a.artifactId === update.artifact.artifactId);
      const known = index < 0 ? undefined : artifacts[index];
      if (known === undefined) artifacts.push(structuredClone(update.artifact));
      else if (update.append === true) known.parts.push(...structuredClone(update.artifact.parts));
      else artifacts[index] = structuredClone(update.artifact);
    }
  }

  private ensure(taskId: string, contextId: string, status?: TaskStatus): Task {
    this.task ??= {
      id: taskId,
      contextId,
      status: status ?? { state: 'TASK_STATE_SUBMITTED' },
    };
    return this.task;
  }
}

/**
 * The warning that names a non-success or paused outcome (SPEC §9.6), or undefined for a task that
 * completed or is still running.
 */
export function outcomeWarning(task: Task): string | undefined {
  const state = task.status.state as string;
  if (state === 'TASK_STATE_COMPLETED' || !endsWait(state)) return undefined;
  const note = statusNote(task.status);
  const why = note === '' ? '' : `: ${note}`;
  if (isInterrupted(state))
    return `warning: task ${task.id} is paused at ${state}${why} (resume it with send --task-id ${task.id})`;
  return `warning: task ${task.id} ended ${state}${why}`;
}

/** The text of a status message on one line, or ''. */
export function statusNote(status: TaskStatus): string {
  const parts = status.message?.parts ?? [];
  return parts
    .map((part) => part.text ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
