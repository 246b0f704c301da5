/**
 * Which trace each task's first traced call belongs to, so the console can link a task to its
 * trace (decision 0159). Fed by the listeners' access entries — the trace id of the operation's
 * span, present only while tracing records — and bounded: the oldest tasks are forgotten first.
 * It lives in the process, so it knows the tasks this instance served since it started.
 */
import type { AccessEntry } from '../../server/internal.js';

const AGENT_PATH = /^\/agents\/([^/]+)\//;

export class TraceIndex {
  private readonly traces = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  /** Records the entry's task and trace, keeping the first trace seen for a task. */
  record(entry: AccessEntry): void {
    const { taskId, traceId } = entry;
    if (taskId === undefined || traceId === undefined) return;
    const agent = AGENT_PATH.exec(entry.target)?.[1] ?? '';
    const key = `${agent}\u0000${taskId}`;
    if (this.traces.has(key)) return;
    if (this.traces.size >= this.capacity) this.traces.delete(this.traces.keys().next().value!);
    this.traces.set(key, traceId);
  }

  /** The trace of `taskId` at agent `agent` (its id as the URL spells it), if known. */
  traceOf(agent: string, taskId: string): string | undefined {
    return (
      this.traces.get(`${encodeURIComponent(agent)}\u0000${taskId}`) ?? this.traces.get(`\u0000${taskId}`)
    );
  }
}
