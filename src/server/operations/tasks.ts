/**
 * The task operations (A2A 1.0 §3.1.3-3.1.6): read one task, list the caller's tasks, cancel a
 * task, and follow a task's events (`SubscribeToTask` / `tasks/resubscribe`, resumable with
 * `Last-Event-ID`). Each reaches only the caller's own tasks (the store scope of the call).
 */
import {
  isTerminalState,
  type CancelTaskRequest,
  type GetTaskRequest,
  type ListTasksRequest,
  type ListTasksResponse,
  type SubscribeToTaskRequest,
  type Task,
} from '../../protocol/index.js';
import type { ArtifactPiece } from '../../store/index.js';
import type { CallContext } from '../call-context.js';
import { cancelTask as cancel } from '../task-run/task-cancel.js';
import {
  empty,
  finishedTaskError,
  liveEvents,
  parseEventId,
  resumeEvents,
  singleTask,
  withFirst,
} from '../task-run/task-streams.js';
import { scopeOf, type EventStream, type HandlerContext } from './handler-context.js';
import { applyHistoryLength, withoutArtifacts } from './history-length.js';

/** `GetTask` / `tasks/get` (A2A 1.0 §3.1.3). */
export async function getTask(
  context: HandlerContext,
  request: GetTaskRequest,
  call: CallContext,
): Promise<Task> {
  return (await readTask(context, request, call, false)).task;
}

/**
 * GetTask's answer for a binding that writes it as it goes out (decision 0172): the task, with its
 * artifacts apart when the store keeps them in rows, to be read as they are written.
 */
export interface TaskAnswer {
  task: Task;
  artifacts?: AsyncIterable<ArtifactPiece> | undefined;
}

/** `GetTask` / `tasks/get`, with the artifacts apart (`apart`) where the store can give them so. */
export async function readTask(
  context: HandlerContext,
  request: GetTaskRequest,
  call: CallContext,
  apart = true,
): Promise<TaskAnswer> {
  // Only the newest messages are read where the store keeps them apart (decision 0164); the
  // version's own rules for 0 and absent (history-length.ts) are applied to what comes back.
  const { historyLength } = request;
  const read = historyLength !== undefined && historyLength > 0 ? { historyLength } : {};
  const stored = await context.load(
    request.id,
    call,
    apart ? Object.assign(read, { artifactsApart: true }) : read,
  );
  return { task: applyHistoryLength(stored.task, historyLength, call.version), artifacts: stored.artifacts };
}

/** `ListTasks` (A2A 1.0 §3.1.4): only the caller's tasks, newest first, paged. */
export async function listTasks(
  context: HandlerContext,
  request: ListTasksRequest,
  call: CallContext,
): Promise<ListTasksResponse> {
  const pageSize = request.pageSize ?? 50;
  const page = await context.store.list(
    Object.assign(
      {},
      scopeOf(call),
      { pageSize },
      request.contextId === undefined ? {} : { contextId: request.contextId },
      request.status === undefined ? {} : { status: request.status },
      request.statusTimestampAfter === undefined
        ? {}
        : { statusTimestampAfter: request.statusTimestampAfter },
      request.pageToken === undefined || request.pageToken === '' ? {} : { pageToken: request.pageToken },
    ),
  );
  const tasks = page.tasks.map((task) => {
    const trimmed = applyHistoryLength(task, request.historyLength, call.version);
    return request.includeArtifacts === true ? trimmed : withoutArtifacts(trimmed);
  });
  return { tasks, nextPageToken: page.nextPageToken, pageSize, totalSize: page.totalSize };
}

/** `CancelTask` / `tasks/cancel` (A2A 1.0 §3.1.5): reaches the running agent, here or on another instance. */
export async function cancelTask(
  context: HandlerContext,
  request: CancelTaskRequest,
  call: CallContext,
): Promise<Task> {
  const stored = await context.load(request.id, call);
  return cancel({ runner: context.runner, remote: context.node }, stored, scopeOf(call));
}

/** `SubscribeToTask` / `tasks/resubscribe` (A2A 1.0 §3.1.6), resumable with `Last-Event-ID`. */
export async function subscribeToTask(
  context: HandlerContext,
  request: SubscribeToTaskRequest,
  call: CallContext,
  lastEventId?: string,
): Promise<EventStream> {
  context.requireStreaming();
  const scope = scopeOf(call);
  // Checked before the subscription opens: a malformed cursor is refused with nothing to undo.
  const after = lastEventId === undefined ? undefined : parseEventId(lastEventId);
  const subscription = context.subscribe(request.id, scope);
  const log = context.streamLog(request.id, scope);
  if (after !== undefined) {
    // A resumed stream starts with the events after the cursor, not the Task (§3.1.6): the head
    // is enough, so the cost is the events after the cursor, whatever the task weighs (issue 27).
    const head = await closingOnFailure(subscription, context.loadHead(request.id, call));
    subscription.seen?.(head.version);
    if (after >= head.version && isTerminalState(head.state)) {
      subscription.close();
      return empty();
    }
    return resumeEvents(log, after, subscription, call.version, call.signal);
  }
  const stored = await closingOnFailure(subscription, context.load(request.id, call));
  subscription.seen?.(stored.version);
  const state = stored.task.status.state;
  if (isTerminalState(state)) {
    subscription.close();
    // 1.0 says error (§3.1.6); the 0.3 proto returns the task and closes (decision 0004).
    if (call.version === '1.0') throw finishedTaskError(request.id, state);
    return singleTask(stored);
  }
  return withFirst(
    { id: String(stored.version), event: { task: stored.task } },
    liveEvents(subscription, stored.version, call.version, log, call.signal),
  );
}

/** What `read` resolves to; when it fails, `subscription` is closed first, since no stream will own it. */
async function closingOnFailure<T>(subscription: { close(): void }, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    subscription.close();
    throw error;
  }
}
