/**
 * Turns a stream of task events into SSE text chunks, with heartbeats. The consumer pulls: no
 * event is produced before the previous chunk was taken, so a slow client slows only its own
 * stream (the event hub cuts it off if it falls far behind; it then resumes from the log).
 */
import { encodeSseComment, encodeSseEvent } from '../../protocol/internal.js';
import type { HttpStreamResponse } from './http-types.js';
import type { StreamItem } from '../task-run/task-streams.js';

/** How each item and a mid-stream error are written. */
export interface SseBodyOptions {
  encode: (item: StreamItem) => string;
  encodeError: (error: unknown) => string;
  /** Milliseconds between heartbeat comments while idle; 0 disables them. */
  heartbeatMs: number;
}

/**
 * The SSE body for `items`.
 *
 * Waiting for the next item or the next heartbeat, whichever comes first, must not be a
 * `Promise.race` of the pending `next()` against a fresh timer promise on every tick: each race
 * adds a reaction to the pending promise that lives until it settles, so an idle stream kept
 * about 300 bytes of every heartbeat it sent (docs/performance.md, 'Streams'; decision 0161).
 * Instead the pending `next()` gets one reaction when it is made, each wait is a promise settled
 * by that reaction or by the stream's one timer, and the timer is re-armed, not remade.
 */
export async function* sseBody(
  items: AsyncIterable<StreamItem>,
  options: SseBodyOptions,
): AsyncGenerator<string> {
  const iterator = items[Symbol.asyncIterator]();
  const heartbeatMs = options.heartbeatMs;
  let pending: Promise<IteratorResult<StreamItem>> | undefined;
  let outcome: { result: IteratorResult<StreamItem> } | { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  let ticked = false;
  let timer: NodeJS.Timeout | undefined;
  const ring = (): void => {
    const waiter = wake;
    wake = undefined;
    waiter?.();
  };
  const onTick = (): void => {
    ticked = true;
    ring();
  };
  const wait = (resolve: () => void): void => {
    wake = resolve;
  };
  try {
    for (;;) {
      if (pending === undefined) {
        outcome = undefined;
        pending = iterator.next();
        pending.then(
          (result) => {
            outcome = { result };
            ring();
          },
          (error: unknown) => {
            outcome = { error };
            ring();
          },
        );
      }
      if (outcome === undefined) {
        if (heartbeatMs > 0) {
          // A full interval from now, whether the timer is armed, fired or new.
          ticked = false;
          if (timer === undefined) timer = setTimeout(onTick, heartbeatMs);
          else timer.refresh();
        }
        await new Promise<void>(wait);
      }
      if (outcome === undefined) {
        if (ticked) yield encodeSseComment('keep-alive');
        continue;
      }
      const settled = outcome;
      pending = undefined;
      if ('error' in settled) throw settled.error;
      if (settled.result.done === true) return;
      yield options.encode(settled.result.value);
    }
  } catch (error) {
    yield options.encodeError(error);
  } finally {
    clearTimeout(timer);
    // A next() still pending means the producer is parked; it ends when the call's signal
    // aborts (the adapter aborts it on disconnect), and return() then runs after it.
    if (pending === undefined) await iterator.return?.(undefined);
    else void pending.then(() => iterator.return?.(undefined)).catch(() => undefined);
  }
}

/** Response headers for an SSE stream (A2A 1.0 §9.4.2, §11.7). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/** How a binding writes stream items: the `data` JSON of an event, and a mid-stream error. */
export interface SseFraming {
  heartbeatMs: number;
  headers?: Record<string, string>;
  /** The single-line JSON carried in `data:` for one event. */
  data: (item: StreamItem) => string;
  encodeError: (error: unknown) => string;
}

/** A 200 SSE response for `items`, each event carrying its sequence number as SSE id. */
export function sseResponse(items: AsyncIterable<StreamItem>, framing: SseFraming): HttpStreamResponse {
  return {
    status: 200,
    headers: Object.assign({}, SSE_HEADERS, framing.headers),
    stream: sseBody(items, {
      heartbeatMs: framing.heartbeatMs,
      encode: (item) => {
        const data = framing.data(item);
        return encodeSseEvent(item.id === undefined ? { data } : { data, id: item.id });
      },
      encodeError: framing.encodeError,
    }),
  };
}

/**
 * A 200 SSE response whose only event is `chunk` (an already encoded error event): how a
 * streaming JSON-RPC call that fails before its first event answers, since the SDKs' streaming
 * clients read the error from the stream (decision 0135).
 */
export function sseSingleEvent(chunk: string, headers?: Record<string, string>): HttpStreamResponse {
  async function* once(): AsyncGenerator<string> {
    yield chunk;
  }
  return { status: 200, headers: Object.assign({}, SSE_HEADERS, headers), stream: once() };
}
