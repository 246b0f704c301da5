/**
 * The two send operations (A2A 1.0 §3.1.1 `SendMessage`, §3.1.2 `SendStreamingMessage`): each
 * admits and starts a run (admission.ts) unless the send is a retry of an earlier one, which
 * answers as the first attempt did, from its task or its kept reply (decisions 0091, 0147).
 */
import { A2AError, type SendMessageRequest, type SendMessageResponse } from '../../protocol/index.js';
import { IdempotencyKeyConflictError, type StoredTask } from '../../store/internal.js';
import type { CallContext } from '../call-context.js';
import type { HubSubscription } from '../task-run/event-hub.js';
import type { TaskExecution } from '../task-run/task-execution.js';
import { liveEvents, resumeEvents, singleMessage, withFirst } from '../task-run/task-streams.js';
import { startRun } from './admission.js';
import { scopeOf, type EventStream, type HandlerContext } from './handler-context.js';
import { applyHistoryLength } from './history-length.js';

/** `SendMessage` / `message/send` (A2A 1.0 §3.1.1); a retried send answers as the first did. */
export async function sendMessage(
  context: HandlerContext,
  request: SendMessageRequest,
  call: CallContext,
): Promise<SendMessageResponse> {
  const config = request.configuration;
  const found = await context.sends.startOrFind(request, call, scopeOf(call), (key) =>
    startRun(context, request, call, undefined, key),
  );
  if ('stored' in found) return answerRetry(context, found.stored, request, call);
  if ('reply' in found) return { message: found.reply };
  let execution: TaskExecution;
  try {
    execution = await ('run' in found ? found.run : found.started);
    // Blocking is the default (A2A 1.0 §3.2.2; decision 0005).
    if (config?.returnImmediately === true) await execution.waitFor(() => execution.hasCommitted);
    else await execution.waitFor(() => execution.reachedStop());
  } catch (error) {
    if (!(error instanceof IdempotencyKeyConflictError)) throw error;
    // Another process recorded this send first: its task is the answer (decision 0091).
    return answerRetry(context, await context.sends.earlierTask(error.taskId, request, call), request, call);
  } finally {
    if ('release' in found) found.release();
  }
  const reply = execution.replyMessage;
  if (reply !== undefined) return { message: reply };
  const task = await execution.fullTask();
  if (task === undefined) throw new A2AError('InvalidAgentResponseError', 'the agent produced no task');
  return { task: applyHistoryLength(task, config?.historyLength, call.version) };
}

/** `SendStreamingMessage` / `message/stream` (A2A 1.0 §3.1.2). Errors before the first event throw. */
export async function sendStreamingMessage(
  context: HandlerContext,
  request: SendMessageRequest,
  call: CallContext,
): Promise<EventStream> {
  context.requireStreaming();
  let subscription: HubSubscription | undefined;
  // A follow-up's task as stored before this run: the stream's first event.
  let initial: StoredTask | undefined;
  const found = await context.sends.startOrFind(request, call, scopeOf(call), (key) =>
    startRun(
      context,
      request,
      call,
      (run) => {
        subscription = context.subscribe(run.taskId, run.scope);
        if (run.task !== undefined)
          initial = Object.assign({}, run.scope, { task: run.task, version: run.committedVersion });
      },
      key,
    ),
  );
  // A retry gets the first attempt's stream from its start (decision 0091).
  if ('stored' in found) return replay(context, found.stored.task.id, call);
  if ('reply' in found) return singleMessage(found.reply);
  let execution: TaskExecution;
  try {
    execution = await ('run' in found ? found.run : found.started);
    await execution.waitFor(() => execution.hasCommitted);
  } catch (error) {
    subscription?.close();
    if (!(error instanceof IdempotencyKeyConflictError)) throw error;
    return replay(context, (await context.sends.earlierTask(error.taskId, request, call)).task.id, call);
  } finally {
    if ('release' in found) found.release();
  }
  const reply = execution.replyMessage;
  if (reply !== undefined) {
    subscription?.close();
    return singleMessage(reply);
  }
  if ('run' in found) return replay(context, execution.taskId, call);
  const sub = subscription!;
  // A follow-up to an existing task starts with the task as it was (A2A 1.0 §3.1.2: the
  // first event is the Task); a new task's log starts with its own Task event.
  const log = context.streamLog(execution.taskId, execution.scope);
  if (initial !== undefined)
    return withFirst(
      { id: String(initial.version), event: { task: initial.task } },
      liveEvents(sub, initial.version, call.version, log, call.signal),
    );
  return liveEvents(sub, 0, call.version, log, call.signal);
}

/** A retried send's answer: the first attempt's task, once it stops if the retry blocks (0091). */
async function answerRetry(
  context: HandlerContext,
  stored: StoredTask,
  request: SendMessageRequest,
  call: CallContext,
): Promise<SendMessageResponse> {
  const config = request.configuration;
  let task = stored.task;
  const live = context.runner.get(task.id)?.execution;
  if (live !== undefined && config?.returnImmediately !== true) {
    await live.waitFor(() => live.reachedStop());
    task = (await live.fullTask()) ?? task;
  }
  return { task: applyHistoryLength(task, config?.historyLength, call.version) };
}

/** A task's whole stream, replayed from its durable log and then live (a retried stream). */
function replay(context: HandlerContext, taskId: string, call: CallContext): EventStream {
  const scope = scopeOf(call);
  const subscription = context.subscribe(taskId, scope);
  return resumeEvents(context.streamLog(taskId, scope), 0, subscription, call.version, call.signal);
}
