/**
 * The connection flags of `concord serve` (decision 0146): `--max-connections`,
 * `--headers-timeout` and `--idle-timeout`, checked before anything starts and given to every
 * HTTP listener of the process.
 */
import type { ConnectionOptions } from '../../server/adapters/node.js';
import { REQUEST_TIMEOUT_MS } from '../../server/internal.js';
import { parseDuration } from '../../store/internal.js';
import { UsageError } from '../exit-codes.js';

/** The lines of `serve --help` for these flags. */
export const CONNECTION_USAGE = `  --max-connections <n> connections kept at once; past it a new one closes the oldest that has
                        not sent a byte (default: 3/4 of the open-file limit, at most 8192)
  --headers-timeout <t> close a connection whose request headers are not in within this time;
                        one that sent nothing is closed silently (default 10s, at most 30s)
  --idle-timeout <t>    close a keep-alive connection idle this long between requests (default 5s;
                        behind a proxy, longer than the proxy's own upstream idle timeout)`;

/** The parseArgs options of these flags. */
export const CONNECTION_OPTIONS = {
  'max-connections': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'idle-timeout': { type: 'string' },
} as const;

/** The flags' values as parseArgs returns them. */
export interface ConnectionFlagValues {
  'max-connections'?: string | undefined;
  'headers-timeout'?: string | undefined;
  'idle-timeout'?: string | undefined;
}

/** The listener options of the flags. */
export function connectionFlags(values: ConnectionFlagValues): ConnectionOptions {
  const options: ConnectionOptions = {};
  const max = values['max-connections'];
  if (max !== undefined) {
    const n = Number(max);
    if (!/^\d+$/.test(max.trim()) || !Number.isSafeInteger(n) || n < 1) {
      throw new UsageError(`--max-connections: expected a positive whole number, got ${max}`);
    }
    options.maxConnections = n;
  }
  const headers = milliseconds(values['headers-timeout'], '--headers-timeout');
  if (headers !== undefined) {
    if (headers > REQUEST_TIMEOUT_MS) {
      throw new UsageError(
        `--headers-timeout: at most ${REQUEST_TIMEOUT_MS / 1000}s (the whole request's limit), got ${values['headers-timeout']}`,
      );
    }
    options.headersTimeoutMs = headers;
  }
  const idle = milliseconds(values['idle-timeout'], '--idle-timeout');
  if (idle !== undefined) options.idleTimeoutMs = idle;
  return options;
}

function milliseconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  let ms: number;
  try {
    ms = Math.round(parseDuration(value));
  } catch (error) {
    throw new UsageError(`${flag}: ${(error as Error).message}`);
  }
  if (ms < 1) throw new UsageError(`${flag}: expected at least 1ms, got ${value}`);
  return ms;
}
