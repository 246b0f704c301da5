/**
 * Task retention (decision 0103): durable stores can delete terminal tasks whose status is older
 * than a configured age, with their event logs, push configs and idempotency keys, on a timer. Off unless asked
 * for: nothing is deleted by default. A task that still has a pending push delivery is kept until
 * the delivery settles, so retention never drops a notification.
 */
import { TERMINAL_STATES } from '../protocol/model.js';
import { statusTimeKey } from './status-time.js';

/** How long terminal tasks are kept, and how often the store looks for expired ones. */
export interface RetentionOptions {
  /** Terminal tasks whose status timestamp is older than this many ms are deleted. */
  maxAgeMs: number;
  /** Time between sweeps, in ms; default DEFAULT_RETENTION_INTERVAL_MS. */
  intervalMs?: number;
  /** Told when a sweep fails (it is retried at the next interval); the store never logs. */
  onError?: (error: unknown) => void;
}

/** Sweeps every 10 minutes unless told otherwise. */
export const DEFAULT_RETENTION_INTERVAL_MS = 10 * 60_000;

/** Tasks deleted per transaction: short transactions, so commits never wait long behind a sweep. */
export const RETENTION_BATCH_SIZE = 500;

/** The terminal states as an SQL list, for the stores' DELETE statements. */
export const TERMINAL_STATES_SQL = `(${[...TERMINAL_STATES].map((s) => `'${s}'`).join(', ')})`;

/** Checks the options; a TypeError names the bad field. */
export function checkRetention(options: RetentionOptions): RetentionOptions {
  const { maxAgeMs, intervalMs } = options;
  if (!Number.isFinite(maxAgeMs) || maxAgeMs <= 0) {
    throw new TypeError(`retention: maxAgeMs must be a positive number of ms, got ${String(maxAgeMs)}`);
  }
  if (intervalMs !== undefined && (!Number.isFinite(intervalMs) || intervalMs <= 0)) {
    throw new TypeError(`retention: intervalMs must be a positive number of ms, got ${String(intervalMs)}`);
  }
  return options;
}

/** The status key before which a terminal task has expired at `now` (epoch ms). */
export function retentionCutoffKey(maxAgeMs: number, now: number): string {
  // In range by construction: Date's ISO form of a finite time is an RFC 3339 timestamp.
  return statusTimeKey(new Date(now - maxAgeMs).toISOString())!;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a duration such as `30d`, `12h`, `90m`, `45s` or `500ms` (a bare number is ms). */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  const value = match === null ? NaN : Number(match[1]) * UNITS[match[2] ?? 'ms']!;
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(
      `expected a positive duration such as 30d, 12h, 90m or 45s, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/** Runs a store's sweep every interval, one at a time, until stopped. */
export class RetentionTimer {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<unknown> | undefined;

  constructor(sweep: (maxAgeMs: number) => Promise<number>, options: RetentionOptions) {
    const { maxAgeMs, intervalMs = DEFAULT_RETENTION_INTERVAL_MS, onError } = checkRetention(options);
    this.timer = setInterval(() => {
      if (this.running !== undefined) return;
      this.running = sweep(maxAgeMs)
        .catch((error: unknown) => onError?.(error))
        .finally(() => (this.running = undefined));
    }, intervalMs);
    // A sweep is housekeeping: it never keeps the process alive.
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
