/**
 * Streams that survive a dropped connection (A2A 1.0 §3.1.6, decision 0004): when
 * the connection fails, or ends before a final event, the client re-attaches with
 * `subscribeToTask` and `Last-Event-ID` = the id of the last event it saw, and the server replays
 * what came after. Every event is delivered once: the server skips what the client saw, and the
 * client also drops any event whose numeric id is not above the last one (a snapshot replayed on
 * re-attach, a proxy that replays).
 */
import { isTerminalState, type ProtocolVersion, type StreamResponse } from '../../protocol/index.js';
import { A2ALocalError } from '../client-errors.js';
import { backoffDelay, sleep } from '../http/retry.js';
import type { StreamedEvent } from './transport.js';

/** Resumption settings. */
export interface ResumeOptions {
  /** Re-attach after a drop (default true). */
  enabled?: boolean;
  /** Re-attach attempts in a row without a new event before giving up (default 5). */
  maxAttempts?: number;
  /** Backoff ceiling of the first re-attach in ms (default 100), doubling per attempt. */
  baseDelayMs?: number;
  /** Largest backoff ceiling in ms (default 2000). */
  maxDelayMs?: number;
}

/** Opens a re-attachment to `taskId` after `lastEventId`; `attempt` counts from 2. */
export type Reattach = (
  taskId: string,
  lastEventId: string | undefined,
  attempt: number,
) => AsyncIterable<StreamedEvent>;

function taskIdOf(event: StreamResponse): string | undefined {
  if ('task' in event) return event.task.id;
  if ('statusUpdate' in event) return event.statusUpdate.taskId;
  if ('artifactUpdate' in event) return event.artifactUpdate.taskId;
  return event.message.taskId;
}

/**
 * True when the server ends the stream after this event: a direct message, a terminal state,
 * input-required, and auth-required in 0.3 only (decision 0004).
 */
export function isFinalEvent(event: StreamResponse, version: ProtocolVersion): boolean {
  if ('message' in event) return true;
  const state =
    'task' in event
      ? event.task.status.state
      : 'statusUpdate' in event
        ? event.statusUpdate.status.state
        : undefined;
  if (state === undefined) return false;
  if (isTerminalState(state) || state === 'TASK_STATE_INPUT_REQUIRED') return true;
  return state === 'TASK_STATE_AUTH_REQUIRED' && version === '0.3';
}

function sequenceOf(id: string | undefined): number | undefined {
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
}

/** Yields the canonical events of `first`, re-attaching through `reattach` after drops. */
export async function* resumableStream(
  first: AsyncIterable<StreamedEvent>,
  reattach: Reattach,
  version: ProtocolVersion,
  options: ResumeOptions = {},
  signal?: AbortSignal,
  knownTaskId?: string,
): AsyncGenerator<StreamResponse> {
  let source = first;
  let taskId = knownTaskId;
  let lastId: string | undefined;
  let lastSeq: number | undefined;
  let final = false;
  let failures = 0;
  let attempt = 1;
  for (;;) {
    let dropped: unknown;
    try {
      for await (const { id, event } of source) {
        const seq = sequenceOf(id);
        if (seq !== undefined && lastSeq !== undefined && seq <= lastSeq) continue;
        taskId ??= taskIdOf(event);
        if (id !== undefined) lastId = id;
        if (seq !== undefined) lastSeq = seq;
        failures = 0;
        final = isFinalEvent(event, version);
        yield event;
      }
    } catch (error) {
      if (!(error instanceof A2ALocalError) || error.kind !== 'NETWORK') throw error;
      dropped = error;
    }
    if (final) return;
    if (options.enabled === false || taskId === undefined || signal?.aborted === true) {
      if (dropped !== undefined) throw dropped;
      return;
    }
    failures++;
    if (failures > (options.maxAttempts ?? 5)) {
      throw (
        dropped ??
        new A2ALocalError(
          'NETWORK',
          `The stream of task ${taskId} kept ending before a final event; gave up after ${failures - 1} re-attachments`,
        )
      );
    }
    await sleep(
      backoffDelay(failures, {
        baseDelayMs: options.baseDelayMs ?? 100,
        maxDelayMs: options.maxDelayMs ?? 2000,
      }),
      signal,
    );
    attempt++;
    source = reattach(taskId, lastId, attempt);
  }
}
