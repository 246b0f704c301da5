/**
 * The task state machine (A2A 1.0 §4.1.3, life-of-a-task topic): terminal states are final,
 * `submitted` is only ever the first state, interrupted states resume to working or end.
 */
import { A2AError, isTerminalState, type Task, type TaskState } from '../../protocol/index.js';
import type { CallContext } from '../call-context.js';

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

/**
 * The refusal of a message to a finished task: 1.0 answers -32004 (A2A 1.0 §3.1.1); 0.3 names no
 * code, so -32602 as a2a-python does (decision 0005).
 */
export function terminalTaskError(task: Task, call: CallContext): A2AError {
  const message = `Task ${task.id} is ${task.status.state}; a finished task accepts no more messages, start a new task`;
  const metadata = { taskId: task.id, state: task.status.state };
  if (call.version === '1.0') return new A2AError('UnsupportedOperationError', message, { metadata });
  return new A2AError('InvalidParamsError', message, {
    metadata,
    violations: [{ field: '/message/taskId', description: 'refers to a task in a terminal state' }],
  });
}
