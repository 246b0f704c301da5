/**
 * Retries with exponential backoff and full jitter, for idempotent calls only (decision 0019;
 * A2A 1.0 §3.3.1: Get and List are idempotent, a send is not, unless it carries an
 * `Idempotency-Key`, which the client's sends do by default: decision 0137). What is retried:
 * connection failures, per-attempt timeouts and the HTTP statuses that mean "try again" (408,
 * 429, 502, 503, 504). A `Retry-After` on a 429 or 503 (RFC 9110 §10.2.3) sets the least wait;
 * one beyond the policy's `maxDelayMs` ends the retries, since an earlier retry would be refused
 * again. A caller's abort ends the retries at once.
 */
import { A2AClientError, A2ALocalError, StreamIdleError } from '../client-errors.js';

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

/** The `Retry-After` of the answer an error was made from, in ms (retryAfterHint). */
const retryAfterHints = new WeakMap<object, number>();

/**
 * Milliseconds a `Retry-After` value asks to wait: delta-seconds or an HTTP-date (RFC 9110
 * §10.2.3); undefined for anything else.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) || !/[a-z]/i.test(text) ? undefined : Math.max(0, at - now);
}

/** Remembers, on the error made from a 429 or 503 answer, the answer's `Retry-After`; returns the error. */
export function withRetryAfter<E>(error: E, status: number, headers: Record<string, string>): E {
  if ((status === 429 || status === 503) && typeof error === 'object' && error !== null) {
    const ms = parseRetryAfter(headers['retry-after']);
    if (ms !== undefined) retryAfterHints.set(error, ms);
  }
  return error;
}

/** The `Retry-After` in ms the server sent with the answer `error` was made from, if any. */
export function retryAfterOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? retryAfterHints.get(error) : undefined;
}

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

/**
 * True for failures after which a send is tried again (with its Idempotency-Key): those of
 * `isRetryable` except the call's own timeout. A send that timed out is most likely still
 * running (a long blocking send); a retry would only wait for it again, past the `timeoutMs` the
 * caller set for the call. A stream that went silent before its first event is not sent again
 * either: its server is most likely still working, and one that ignores the key (the official
 * SDKs' servers) would run the task twice (decision 0137).
 */
export function isRetryableSend(error: unknown): boolean {
  if (error instanceof StreamIdleError) return false;
  return isRetryable(error) && !(error instanceof A2ALocalError && error.kind === 'TIMEOUT');
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

/**
 * The wait before retry number `n` after `error`, or undefined when the failure is final: no
 * retries left, not retryable, aborted, or a Retry-After beyond the policy's ceiling.
 */
function retryWait(
  n: number,
  error: unknown,
  options: RetryOptions | undefined,
  signal: AbortSignal | undefined,
  retryable: (error: unknown) => boolean,
): number | undefined {
  if (n > (options?.retries ?? 2) || !retryable(error) || signal?.aborted === true) return undefined;
  const backoff = backoffDelay(n, options);
  const asked = retryAfterOf(error);
  if (asked === undefined) return backoff;
  return asked > (options?.maxDelayMs ?? 5000) ? undefined : Math.max(backoff, asked);
}

/**
 * Runs `attempt` (given the 1-based attempt number) until it succeeds or a failure is final;
 * `retryable` says which failures may be retried (default `isRetryable`).
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  options: RetryOptions | undefined,
  signal?: AbortSignal,
  retryable: (error: unknown) => boolean = isRetryable,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      const wait = retryWait(n, error, options, signal, retryable);
      if (wait === undefined) throw error;
      await sleep(wait, signal);
    }
  }
}

/**
 * A stream whose opening is retried like a unary call: a failure before its first item starts it
 * again (a send with the same Idempotency-Key); after an item, failures are the caller's
 * (resumable-stream.ts re-attaches).
 */
export async function* withRetryUntilFirst<T>(
  open: (n: number) => AsyncIterable<T>,
  options: RetryOptions | undefined,
  signal?: AbortSignal,
  retryable: (error: unknown) => boolean = isRetryable,
): AsyncGenerator<T> {
  for (let n = 1; ; n++) {
    let started = false;
    try {
      for await (const item of open(n)) {
        started = true;
        yield item;
      }
      return;
    } catch (error) {
      const wait = started ? undefined : retryWait(n, error, options, signal, retryable);
      if (wait === undefined) throw error;
      await sleep(wait, signal);
    }
  }
}
