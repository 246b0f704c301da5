/**
 * The retention flags of `concord serve` (decisions 0103, 0151): `--retention`,
 * `--retention-max-tasks` and `--retention-interval`, checked before anything starts. Each flag
 * changes its own part of the default policy; `--retention off` alone keeps every task.
 */
import { DEFAULT_RETENTION, parseDuration, type RetentionOptions } from '../../store/internal.js';
import type { TaskStoreKind } from '../../host/internal.js';
import { UsageError } from '../exit-codes.js';

/** The lines of `serve --help` for these flags. */
export const RETENTION_USAGE = `  --retention <age>     delete terminal tasks that finished longer ago than this (sqlite and
                        postgres; e.g. 30d, 12h; default 7d); off keeps every task
  --retention-max-tasks <n>
                        keep at most this many terminal tasks, deleting the ones that finished
                        longest ago first (default 100000; off: no count limit)
  --retention-interval <time>
                        time between retention sweeps (default 1m)`;

/** The parseArgs options of these flags. */
export const RETENTION_OPTIONS = {
  retention: { type: 'string' },
  'retention-max-tasks': { type: 'string' },
  'retention-interval': { type: 'string' },
} as const;

/** The flags' values as parseArgs returns them. */
export interface RetentionFlagValues {
  retention?: string | undefined;
  'retention-max-tasks'?: string | undefined;
  'retention-interval'?: string | undefined;
}

/**
 * The retention of the flags: undefined when none is given (the host's default applies), false
 * for none at all, else the default with the flags' changes.
 */
export function retentionFlags(
  store: TaskStoreKind,
  values: RetentionFlagValues,
): RetentionOptions | false | undefined {
  const given = (['retention', 'retention-max-tasks', 'retention-interval'] as const).filter(
    (flag) => values[flag] !== undefined,
  );
  if (given.length === 0) return undefined;
  if (store === 'memory') {
    throw new UsageError(`--${given[0]}: the memory store keeps a bounded number of tasks instead`);
  }
  const age = values.retention;
  const count = values['retention-max-tasks'];
  const policy: RetentionOptions = {};
  if (age !== 'off')
    policy.maxAgeMs = age === undefined ? DEFAULT_RETENTION.maxAgeMs : duration('--retention', age);
  // `--retention off` alone means what it says: nothing is deleted, by age or by count.
  if (count === undefined ? age !== 'off' : count !== 'off') {
    policy.maxTasks = count === undefined ? DEFAULT_RETENTION.maxTasks : wholeNumber(count);
  }
  const interval = values['retention-interval'];
  if (policy.maxAgeMs === undefined && policy.maxTasks === undefined) {
    if (interval !== undefined)
      throw new UsageError('--retention-interval: retention is off, there is nothing to sweep');
    return false;
  }
  if (interval !== undefined) policy.intervalMs = duration('--retention-interval', interval);
  return policy;
}

function duration(flag: string, text: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}${flag === '--retention' ? ', or off' : ''}`);
  }
}

function wholeNumber(text: string): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(
      `--retention-max-tasks: expected a whole number of at least 1, or off, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}
