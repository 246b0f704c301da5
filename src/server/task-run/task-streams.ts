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
import type { StoredTask, TaskEventRecord } from '../../store/index.js';
import type { HubSubscription } from './event-hub.js';
import { logRecords, type StreamLog } from './stream-log.js';

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

/** A log record as a stream item: its sequence number is its SSE id. */
function itemOf(record: TaskEventRecord): StreamItem {
  return { id: String(record.seq), event: record.event };
}

/** Read through a call, so a check after an await is not narrowed away by one before it. */
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** Whether a record's event closes streams of this version. */
function closes(record: TaskEventRecord, version: ProtocolVersion): boolean {
  const state = stateOf(record.event);
  return state !== undefined && closesStream(state, version);
}

/**
 * Live events from a subscription, skipping those already sent (seq <= after), until a closing
 * state. On a cluster (`log.fillsGaps`), a gap (an event past the next expected one) is filled
 * from the log first, so a stream never skips an event id.
 *
 * When the hub cuts the subscription off for falling behind (event-hub.ts), the stream does not
 * end: it reads what it missed from the durable log a page at a time, then listens again. Ending
 * it would send the client back to re-attach, which over gRPC (no cursor, A2A 1.0 §10) means the
 * whole Task again; a reader slower than its agent would never get to the end of a large artifact
 * (issue 27). A new subscription is opened before the log is read, so no event falls between.
 */
export function liveEvents(
  subscription: HubSubscription,
  after: number,
  version: ProtocolVersion,
  log: StreamLog,
  signal?: AbortSignal,
): AsyncGenerator<StreamItem> {
  return closingUnstarted(live(subscription, after, version, log, signal), subscription);
}

async function* live(
  subscription: HubSubscription,
  after: number,
  version: ProtocolVersion,
  log: StreamLog,
  signal?: AbortSignal,
): AsyncGenerator<StreamItem> {
  let last = after;
  let current = subscription;
  // A client that goes away must not leave its subscription parked until the next event.
  const onAbort = (): void => current.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted === true) current.close();
  try {
    for (;;) {
      for await (const record of current) {
        if (record.seq <= last) continue;
        if (log.fillsGaps && record.seq > last + 1) {
          const filled = yield* fromLog(log, last, record.seq, version, signal);
          if (filled === undefined) return;
          last = filled;
        }
        last = record.seq;
        yield itemOf(record);
        if (closes(record, version)) return;
      }
      if (!current.overflowed || aborted(signal)) return;
      // Closed explicitly: on a cluster the follower counts its subscriptions (task-feed.ts).
      const next = log.subscribe();
      current.close();
      current = next;
      const caughtUp = yield* fromLog(log, last, undefined, version, signal);
      if (caughtUp === undefined) return;
      last = caughtUp;
      // A cluster's follower continues after what was read (decision 0111).
      current.seen?.(last);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    current.close();
  }
}

/**
 * Replays the durable log after `lastEventId` a page at a time, then continues live. The
 * subscription must be opened before the log is read, so no event falls between the two.
 */
export function resumeEvents(
  log: StreamLog,
  lastEventId: number,
  subscription: HubSubscription,
  version: ProtocolVersion,
  signal?: AbortSignal,
): AsyncGenerator<StreamItem> {
  return closingUnstarted(resume(log, lastEventId, subscription, version, signal), subscription);
}

async function* resume(
  log: StreamLog,
  lastEventId: number,
  subscription: HubSubscription,
  version: ProtocolVersion,
  signal?: AbortSignal,
): AsyncGenerator<StreamItem> {
  // Closed here however the stream ends, a consumer that stops during the replay included;
  // liveEvents closes only the subscriptions it opens after a catch-up (closing twice is harmless).
  try {
    const last = yield* fromLog(log, lastEventId, undefined, version, signal);
    if (last === undefined) return;
    // A cluster's follower continues after what was read (decision 0111).
    subscription.seen?.(last);
    yield* live(subscription, last, version, log, signal);
  } finally {
    subscription.close();
  }
}

/**
 * The log's events after `after` (and before `before`) as stream items. Resolves the last one's
 * sequence number (`after` when there were none), or undefined when the stream must end there: an
 * event closed it, or an abort cut the read short, and yielding on would skip what was not read.
 */
async function* fromLog(
  log: StreamLog,
  after: number,
  before: number | undefined,
  version: ProtocolVersion,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamItem, number | undefined> {
  let last = after;
  for await (const record of logRecords(log, after, before, signal)) {
    last = record.seq;
    yield itemOf(record);
    if (closes(record, version)) return undefined;
  }
  return aborted(signal) ? undefined : last;
}

/**
 * `stream`, also closing `subscription` when it is ended before it started: a generator's
 * `finally` runs only once its body has, and a consumer may give up before the first item (a gRPC
 * call cancelled while the Task before it was still being written, `withFirst`).
 */
function closingUnstarted(
  stream: AsyncGenerator<StreamItem>,
  subscription: HubSubscription,
): AsyncGenerator<StreamItem> {
  const end = stream.return.bind(stream);
  stream.return = (value) => {
    subscription.close();
    return end(value);
  };
  return stream;
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
