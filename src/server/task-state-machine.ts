/**
 * The task state machine (A2A 1.0 §4.1.3, life-of-a-task topic): terminal states are final,
 * `submitted` is only ever the first state, interrupted states resume to working or end.
 */
import { A2AError, isTerminalState, type TaskState } from '../protocol/index.js';

/** Throws InvalidAgentResponseError if `from -> to` is not a legal transition. */
export function assertTransition(taskId: string, from: TaskState, to: TaskState): void {
  if (isTerminalState(from)) {
    throw new A2AError(
      'InvalidAgentResponseError',
      `task ${taskId} is ${from}; a terminal task never changes (A2A 1.0 §4.1.3)`,
      {
        metadata: { taskId, from, to },
      },
    );
  }
  if (to === 'TASK_STATE_SUBMITTED' && from !== 'TASK_STATE_SUBMITTED') {
    throw new A2AError(
      'InvalidAgentResponseError',
      `task ${taskId} cannot go back from ${from} to submitted`,
      {
        metadata: { taskId, from, to },
      },
    );
  }
}
