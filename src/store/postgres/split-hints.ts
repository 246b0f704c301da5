/**
 * Where this process's last commit left each task's split rows (decision 0164, heavy-tasks.ts),
 * so the next commit of a task this process is running needs no round trip to learn it. Only a
 * hint: the commit statement checks the row's `history_rows` itself, and a hint that is stale (the
 * task was written elsewhere) makes the commit a version conflict, which the server rebases, as
 * for any other writer. Bounded, and finished tasks are forgotten at once.
 */
import { isTerminalState, type TaskState } from '../../protocol/model.js';

interface Hint {
  version: number;
  /** Null while the task is whole in its row. */
  history: number | null;
  artifacts: number | null;
}

/** Tasks remembered at most; past it the oldest hint goes (insertion order). */
const MAX_HINTS = 10_000;

/** See the file comment. */
export class SplitHints {
  private readonly hints = new Map<string, Hint>();

  /** Records a commit's outcome; a finished task's hint is dropped. */
  remember(
    taskId: string,
    version: number,
    history: number | null,
    artifacts: number | null,
    state: TaskState,
  ): void {
    this.hints.delete(taskId);
    if (isTerminalState(state)) return;
    this.hints.set(taskId, { version, history, artifacts });
    if (this.hints.size > MAX_HINTS) this.hints.delete(this.hints.keys().next().value!);
  }

  /**
   * The split rows at exactly `version` when known: null while whole, counts once split;
   * undefined when this process does not know (the caller reads the row).
   */
  at(taskId: string, version: number): { history: number; artifacts: number } | null | undefined {
    const hint = this.hints.get(taskId);
    if (hint === undefined || hint.version !== version) return undefined;
    return hint.history === null ? null : { history: hint.history, artifacts: hint.artifacts ?? 0 };
  }

  delete(taskId: string): void {
    this.hints.delete(taskId);
  }
}
