/**
 * The client-driven wait of a2a-cli SPEC v0.2 §7.3 (decision 0169): GetTask every
 * `--poll-interval` until the task is terminal or interrupted. A state that is neither
 * (submitted, working, TASK_STATE_UNSPECIFIED, one this version does not know) keeps the wait
 * going; an unchanged state stretches the interval, up to four times the one asked for, so a
 * long task costs few requests; a change brings it back. The overall `--timeout` and Ctrl-C end
 * the wait through the signal.
 */
import type { A2AClient } from '../../client/index.js';
import type { Task } from '../../protocol/index.js';
import { durationOf } from './call-flags.js';
import { endsWait } from './task-outcome.js';

/** The default `--poll-interval` (the specification's recommended 2 seconds). */
export const DEFAULT_POLL_INTERVAL_MS = 2000;

/** The smallest interval taken: below it a wait would be a busy loop. */
const MIN_POLL_INTERVAL_MS = 50;

/** The poll interval in ms from `--poll-interval <duration>`. */
export function pollIntervalOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_POLL_INTERVAL_MS;
  return Math.max(MIN_POLL_INTERVAL_MS, durationOf(value, '--poll-interval'));
}

/** Resolves after `ms`, or rejects when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Options of `pollTask`. */
export interface PollOptions {
  intervalMs: number;
  signal: AbortSignal;
  /** The task as each poll finds it, when its state differs from the last one seen. */
  onChange?: (task: Task) => void;
  /** The state already known (the send's answer), so an unchanged first poll is not a change. */
  knownState?: string;
  historyLength?: number | undefined;
}

/** Polls the task until it is terminal or interrupted; returns it as the last poll found it. */
export async function pollTask(client: A2AClient, id: string, options: PollOptions): Promise<Task> {
  let wait = options.intervalMs;
  let last = options.knownState;
  for (;;) {
    const task = await client.getTask(
      options.historyLength === undefined ? { id } : { id, historyLength: options.historyLength },
      { signal: options.signal },
    );
    const state = task.status.state as string;
    if (state !== last) {
      options.onChange?.(task);
      wait = options.intervalMs;
      last = state;
    } else {
      wait = Math.min(wait * 1.5, options.intervalMs * 4);
    }
    if (endsWait(state)) return task;
    await sleep(wait, options.signal);
  }
}
