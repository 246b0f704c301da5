/**
 * Waiting for a gRPC server stream to drain, or for its caller to go away. One wait leaves nothing
 * behind: a race of `once(call, 'drain')` against `once(signal, 'abort')` left the loser's listener
 * on the call or on the signal until the call ended, one per wait, and a large artifact streamed
 * to a slow reader waits thousands of times on one call (issue 27).
 */
import { once, type EventEmitter } from 'node:events';

/** Resolves on `drain`, or once `signal` aborts; rejects if the stream emits `error`. */
export async function drained(stream: EventEmitter, signal: AbortSignal): Promise<void> {
  try {
    await once(stream, 'drain', { signal });
  } catch (error) {
    // The caller went away: the write loop sees the aborted signal and stops.
    if (!signal.aborted) throw error;
  }
}
