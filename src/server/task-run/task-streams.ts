/**
 * The event sequences behind streaming calls (A2A 1.0 §3.1.2, §3.1.6, §3.5.2): a task
 * stream starts with the Task, carries every committed event in order, and ends when the task
 * reaches a state that closes streams for the negotiated version. Each item carries the event's
 * sequence number as its SSE id, so a dropped client resumes with `Last-Event-ID` and misses
 * nothing: missed events are replayed from the durable log before live ones.
 */
import {
  A2AError,
  isTerminalState,
  type Message,
  type ProtocolVersion,
  type StreamResponse,
  type TaskState,
} from '../../protocol/index.js';
import type { StoredTask, TaskEventRecord, TaskScope, TaskStore } from '../../store/index.js';
import type { HubSubscription } from './event-hub.js';

/** One streamed item; `id` is the task event sequence number, when there is one. */
export interface StreamItem {
  id?: string;
  event: StreamResponse;
}

/**
 * Whether a state ends streams: terminal states always; input-required too; auth-required only
 * in 0.3 (decision 0004: 1.0 keeps the stream open for out-of-band credentials).
 */
export function closesStream(state: TaskState, version: ProtocolVersion): boolean {
  if (isTerminalState(state) || state === 'TASK_STATE_INPUT_REQUIRED') return true;
  return version === '0.3' && state === 'TASK_STATE_AUTH_REQUIRED';
}

/** The task state an event reports, if it reports one. */
export function stateOf(event: StreamResponse): TaskState | undefined {
  if ('statusUpdate' in event) return event.statusUpdate.status.state;
  if ('task' in event) return event.task.status.state;
  return undefined;
}

/**
 * Reads the events after a sequence number from the durable log. Given to streams of a cluster,
 * where another instance's events reach the hub by a follower that may skip ahead (decision 0111).
 */
export type GapFill = (after: number) => Promise<TaskEventRecord[]>;

/**
 * Live events from a subscription, skipping those already sent (seq <= after), until a closing
 * state. With `fill`, a gap (an event past the next expected one) is filled from the log first,
 * so a stream never skips an event id.
 */
export async function* liveEvents(
  subscription: HubSubscription,
  after: number,
  version: ProtocolVersion,
  signal?: AbortSignal,
  fill?: GapFill,
): AsyncGenerator<StreamItem> {
  let last = after;
  // A client that goes away must not leave its subscription parked until the next event.
  const onAbort = (): void => subscription.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted === true) subscription.close();
  try {
    for await (const record of subscription) {
      if (record.seq <= last) continue;
      if (fill !== undefined && record.seq > last + 1) {
        for (const missed of await fill(last)) {
          if (missed.seq <= last || missed.seq >= record.seq) continue;
          last = missed.seq;
          yield { id: String(missed.seq), event: missed.event };
          const state = stateOf(missed.event);
          if (state !== undefined && closesStream(state, version)) return;
        }
      }
      last = record.seq;
      yield { id: String(record.seq), event: record.event };
      const state = stateOf(record.event);
      if (state !== undefined && closesStream(state, version)) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    subscription.close();
  }
}

/**
 * Replays the durable log after `lastEventId`, then continues live. The subscription must be
 * opened before the log is read, so no event falls between the two.
 */
export async function* resumeEvents(
  store: TaskStore,
  taskId: string,
  scope: TaskScope,
  lastEventId: number,
  subscription: HubSubscription,
  version: ProtocolVersion,
  signal?: AbortSignal,
  fill?: GapFill,
): AsyncGenerator<StreamItem> {
  let last = lastEventId;
  let records: TaskEventRecord[];
  try {
    records = await store.readEvents(taskId, lastEventId, scope);
  } catch (error) {
    subscription.close();
    throw error;
  }
  // A cluster's follower continues after what was read (decision 0111).
  subscription.seen?.(records.at(-1)?.seq ?? lastEventId);
  for (const record of records) {
    last = record.seq;
    yield { id: String(record.seq), event: record.event };
    const state = stateOf(record.event);
    if (state !== undefined && closesStream(state, version)) {
      subscription.close();
      return;
    }
  }
  yield* liveEvents(subscription, last, version, signal, fill);
}

/** The sequence number in a `Last-Event-ID` header (A2A 1.0 §3.1.6). */
export function parseEventId(value: string): number {
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw new A2AError(
      'InvalidParamsError',
      `Last-Event-ID must be an event id from this stream, got ${JSON.stringify(value)}`,
      {
        violations: [{ field: 'Last-Event-ID', description: 'expected a non-negative integer' }],
      },
    );
  }
  return Number(value.trim());
}

/** SubscribeToTask of a finished task in 1.0 (A2A 1.0 §3.1.6). */
export function finishedTaskError(taskId: string, state: TaskState): A2AError {
  return new A2AError(
    'UnsupportedOperationError',
    `This operation is not supported: task ${taskId} is ${state}, and a finished task cannot be subscribed to`,
    { metadata: { taskId } },
  );
}

/** A stream that starts with `first`. */
export async function* withFirst(
  first: StreamItem,
  rest: AsyncGenerator<StreamItem>,
): AsyncGenerator<StreamItem> {
  try {
    yield first;
    yield* rest;
  } finally {
    await rest.return(undefined);
  }
}

/** A stream of one Message (a direct reply). */
export async function* singleMessage(message: Message): AsyncGenerator<StreamItem> {
  yield { event: { message } };
}

/** A stream of one Task (a finished task subscribed to in 0.3). */
export async function* singleTask(stored: StoredTask): AsyncGenerator<StreamItem> {
  yield { id: String(stored.version), event: { task: stored.task } };
}

/** A stream with nothing in it. */
export async function* empty(): AsyncGenerator<StreamItem> {
  // Nothing was missed and the task is over.
}
