/**
 * `historyLength` semantics differ by version (A2A 1.0 §3.2.4; decision 0005): in 1.0, 0 means no
 * history and N the N most recent messages; in 0.3 (proto comment, a2a-python) 0 means no limit.
 */
import type { ProtocolVersion, Task } from '../../protocol/index.js';

/** The task with its history cut to what the request asked for. */
export function applyHistoryLength(
  task: Task,
  historyLength: number | undefined,
  version: ProtocolVersion,
): Task {
  if (historyLength === undefined) return task;
  if (historyLength === 0) {
    if (version === '0.3' || task.history === undefined) return task;
    const { history: _omitted, ...rest } = task;
    return rest;
  }
  if (task.history === undefined || task.history.length <= historyLength) return task;
  return Object.assign({}, task, { history: task.history.slice(-historyLength) });
}

/** The task without artifacts (ListTasks omits them unless asked, A2A 1.0 §3.1.4). */
export function withoutArtifacts(task: Task): Task {
  if (task.artifacts === undefined) return task;
  const { artifacts: _omitted, ...rest } = task;
  return rest;
}
