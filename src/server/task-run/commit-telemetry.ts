/**
 * The telemetry of a task commit (decision 0157): a `concord.store.commit` span below the
 * operation or execution that produced the events, the commit's duration, the states entered
 * (`concord.tasks.transitions`), and the trace context stored with the commit's push outbox
 * entries, so their deliveries are traced below the same operation even after a restart.
 */
import type { StreamResponse } from '../../protocol/index.js';
import type { TaskCommit, TaskStore } from '../../store/internal.js';
import { stateOf } from './task-streams.js';
import {
  ATTR,
  contextHeaders,
  endSpan,
  instruments,
  SPAN,
  SpanKind,
  startSpan,
  tracingOn,
  type Context,
} from '../../telemetry/index.js';

/**
 * Commits `commit` to `store` in a span under `trace`; resolves with the task's new version.
 * Without a tracer or meter provider it is the store's commit itself, with no frame of its own.
 */
export function tracedCommit(
  store: TaskStore,
  commit: TaskCommit,
  trace: Context | undefined,
): Promise<number> {
  if (!tracingOn() && !instruments().on) return store.commit(commit);
  return observedCommit(store, commit, trace);
}

async function observedCommit(
  store: TaskStore,
  commit: TaskCommit,
  trace: Context | undefined,
): Promise<number> {
  const span = startSpan(SPAN.commit, SpanKind.INTERNAL, trace);
  const meters = instruments();
  const started = meters.on ? performance.now() : 0;
  if (span.isRecording()) {
    span.setAttribute(ATTR.taskId, commit.task.id);
    span.setAttribute(ATTR.commitEvents, commit.events.length);
    // The producing operation's context, not the commit's: the delivery is that operation's work.
    const headers = contextHeaders(trace);
    if (headers.traceparent !== undefined) commit.traceContext = headers;
  }
  try {
    const version = await store.commit(commit);
    span.end();
    return version;
  } catch (error) {
    endSpan(span, error);
    throw error;
  } finally {
    if (meters.on) meters.storeCommitDuration.record((performance.now() - started) / 1000);
  }
}

/** Counts the states a committed batch of events entered (`concord.tasks.transitions`). */
export function countTransitions(events: readonly StreamResponse[]): void {
  const meters = instruments();
  if (!meters.on) return;
  for (const event of events) {
    const state = stateOf(event);
    if (state !== undefined) meters.taskTransitions.add(1, { [ATTR.taskState]: state });
  }
}
