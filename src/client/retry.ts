/**
 * Retries with exponential backoff and full jitter, for idempotent calls only (issue 5 item 4;
 * A2A 1.0 §3.3.1: Get and List are idempotent, a send is not: a retried send could run the task
 * twice). What is retried: connection failures, per-attempt timeouts and the HTTP statuses that
 * mean "try again" (408, 429, 502, 503, 504). A caller's abort ends the retries at once.
 */
import { A2AClientError, A2ALocalError } from './client-errors.js';

/** Retry settings; `retries: 0` turns retrying off. */
export interface RetryOptions {
  /** Extra attempts after the first (default 2). */
  retries?: number;
  /** First backoff ceiling in ms (default 200); doubles per attempt. */
  baseDelayMs?: number;
  /** Largest backoff ceiling in ms (default 5000). */
  maxDelayMs?: number;
}

const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);

/** True for failures a second attempt may cure. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof A2ALocalError) {
    if (error.kind === 'NETWORK' || error.kind === 'TIMEOUT') return true;
    return (
      error.kind === 'BAD_RESPONSE' && error.httpStatus !== undefined && RETRY_STATUSES.has(error.httpStatus)
    );
  }
  return error instanceof A2AClientError && RETRY_STATUSES.has(error.httpStatus);
}

/** The backoff before retry number `attempt` (1-based): uniform in [0, min(max, base * 2^(attempt-1))]. */
export function backoffDelay(attempt: number, options: RetryOptions = {}): number {
  const ceiling = Math.min(options.maxDelayMs ?? 5000, (options.baseDelayMs ?? 200) * 2 ** (attempt - 1));
  return Math.random() * ceiling;
}

/** Waits `ms`, or rejects with ABORTED when `signal` fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = (): A2ALocalError =>
      new A2ALocalError('ABORTED', 'The call was aborted while waiting to retry', { cause: signal?.reason });
    if (signal?.aborted === true) return reject(aborted());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `attempt` (given the 1-based attempt number) until it succeeds or a failure is final. */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  options: RetryOptions | undefined,
  signal?: AbortSignal,
): Promise<T> {
  const retries = options?.retries ?? 2;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n > retries || !isRetryable(error) || signal?.aborted === true) throw error;
      await sleep(backoffDelay(n, options), signal);
    }
  }
}
