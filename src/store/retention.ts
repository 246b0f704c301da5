/**
 * Task retention (decisions 0103, 0151): durable stores can delete terminal tasks that finished
 * longer ago than an age, or that are past a count of the most recently finished, with their event
 * logs, push configs, dead letters and idempotency keys, on a timer. The stores themselves delete
 * nothing unless asked; `concord serve` and `startHost` ask for DEFAULT_RETENTION. A task that
 * still has a pending push delivery is kept until the delivery settles, so retention never drops a
 * notification.
 */
import { TERMINAL_STATES } from '../protocol/model.js';
import { statusTimeKey } from './status-time.js';

/** Which terminal tasks are kept, and how often the store looks for the others. */
export interface RetentionOptions {
  /** Terminal tasks whose status timestamp is older than this many ms are deleted. */
  maxAgeMs?: number;
  /**
   * At most this many terminal tasks are kept: past it, the ones that finished longest ago are
   * deleted (tasks that finished at the same instant as the last one kept stay with it).
   */
  maxTasks?: number;
  /** Time between sweeps, in ms; default DEFAULT_RETENTION_INTERVAL_MS. */
  intervalMs?: number;
  /** Told when a sweep fails (it is retried at the next interval); the store never logs. */
  onError?: (error: unknown) => void;
}

/** What a store offers the retention timer. */
export interface RetentionSweeps {
  /** Deletes terminal tasks whose status is older than `maxAgeMs` at `now`; returns how many went. */
  deleteExpiredTasks(maxAgeMs: number, now?: number): Promise<number>;
  /** Deletes terminal tasks past the `maxTasks` most recently finished; returns how many went. */
  deleteTasksOverCap(maxTasks: number): Promise<number>;
}

/** Sweeps every minute unless told otherwise: an idle sweep costs a few index probes. */
export const DEFAULT_RETENTION_INTERVAL_MS = 60_000;

/**
 * The retention of `concord serve` and `startHost` when none is given (decision 0151): a week of
 * finished tasks, and never more than 100,000 of them, so the disk is bounded at any request rate.
 */
export const DEFAULT_RETENTION: Readonly<Required<Pick<RetentionOptions, 'maxAgeMs' | 'maxTasks'>>> =
  Object.freeze({ maxAgeMs: 7 * 86_400_000, maxTasks: 100_000 });

/** Tasks deleted per transaction: short transactions, so commits never wait long behind a sweep. */
export const RETENTION_BATCH_SIZE = 500;

/** The terminal states as an SQL list, for the stores' DELETE statements. */
export const TERMINAL_STATES_SQL = `(${[...TERMINAL_STATES].map((s) => `'${s}'`).join(', ')})`;

/** Checks the options; a TypeError names the bad field. */
export function checkRetention(options: RetentionOptions): RetentionOptions {
  const { maxAgeMs, maxTasks, intervalMs } = options;
  if (maxAgeMs === undefined && maxTasks === undefined) {
    throw new TypeError(
      'retention: give maxAgeMs, maxTasks or both (leave retention out to keep every task)',
    );
  }
  if (
    maxAgeMs !== undefined &&
    (typeof maxAgeMs !== 'number' || !Number.isFinite(maxAgeMs) || maxAgeMs <= 0)
  ) {
    throw new TypeError(`retention: maxAgeMs must be a positive number of ms, got ${String(maxAgeMs)}`);
  }
  if (maxTasks !== undefined && (!Number.isSafeInteger(maxTasks) || maxTasks < 1)) {
    throw new TypeError(`retention: maxTasks must be a whole number of at least 1, got ${String(maxTasks)}`);
  }
  if (
    intervalMs !== undefined &&
    (typeof intervalMs !== 'number' || !Number.isFinite(intervalMs) || intervalMs <= 0)
  ) {
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

/** A duration in the largest unit `parseDuration` reads that holds it whole: `7d`, `90m`, `500ms`. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= UNITS[unit]! && ms % UNITS[unit]! === 0) return `${ms / UNITS[unit]!}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * Runs a store's sweep every interval, one at a time, until stopped. With a count cap, a sweep
 * also starts once a tenth of `maxTasks` tasks were created since the last one began, so the cap
 * holds at any request rate (as the memory store's bound does, decision 0010), not only at the
 * rate one interval can absorb.
 */
export class RetentionTimer {
  private readonly timer: NodeJS.Timeout;
  private readonly policy: RetentionOptions;
  /** Tasks created since the last sweep began, and how many call for the next one. */
  private created = 0;
  private readonly sweepAfter: number;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: RetentionSweeps,
    options: RetentionOptions,
  ) {
    this.policy = checkRetention(options);
    const { maxTasks, intervalMs = DEFAULT_RETENTION_INTERVAL_MS } = options;
    this.sweepAfter = maxTasks === undefined ? Infinity : Math.max(1, Math.ceil(maxTasks / 10));
    this.timer = setInterval(() => this.sweep(), intervalMs);
    // A sweep is housekeeping: it never keeps the process alive.
    this.timer.unref();
  }

  /** Told of each task the store creates (a commit from version 0). */
  taskCreated(): void {
    if (++this.created >= this.sweepAfter) this.sweep();
  }

  /** Stops the timer and waits for a sweep in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private sweep(): void {
    if (this.running !== undefined || this.stopped) return;
    this.created = 0;
    // Begun on the next turn: never inside the commit that counted the task.
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.sweepOnce())
      .then(
        () => undefined,
        (error: unknown) => this.policy.onError?.(error),
      )
      .finally(() => {
        this.running = undefined;
        // Tasks created while it ran may already call for the next one.
        if (this.created >= this.sweepAfter) this.sweep();
      });
  }

  /** The age first, since what it deletes may leave nothing over the cap; nothing once stopped. */
  private async sweepOnce(): Promise<void> {
    const { maxAgeMs, maxTasks } = this.policy;
    if (maxAgeMs !== undefined && !this.stopped) await this.store.deleteExpiredTasks(maxAgeMs);
    if (maxTasks !== undefined && !this.stopped) await this.store.deleteTasksOverCap(maxTasks);
  }
}
