/**
 * Per-client rate limits of an AAP agent (AAP v0.1 errors: RATE_LIMITED is retryable and SHOULD
 * carry `details.retry_after_ms`). A token bucket per key (client and skill): `limit` requests
 * per `windowMs`, refilled continuously, so a client that waits `retry_after_ms` gets through.
 */

/** Settings of one limit. */
export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}

/** Takes one request from a key's budget. */
export interface RateLimiter {
  /** Undefined when allowed; otherwise how long to wait (ms) before the next request can pass. */
  take(key: string, now: number): number | undefined;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Keys kept at most; full buckets are dropped first when there are more. */
const MAX_KEYS = 10_000;

/** Creates a token-bucket limiter. */
export function createRateLimiter(settings: RateLimit): RateLimiter {
  if (!Number.isInteger(settings.limit) || settings.limit < 1)
    throw new TypeError('rate limit: limit must be a positive integer');
  if (!(settings.windowMs > 0)) throw new TypeError('rate limit: windowMs must be positive');
  const perMs = settings.limit / settings.windowMs;
  const buckets = new Map<string, Bucket>();
  const refill = (bucket: Bucket, now: number): void => {
    bucket.tokens = Math.min(settings.limit, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
  };
  return {
    take(key, now) {
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        if (buckets.size >= MAX_KEYS) {
          for (const [other, each] of buckets) {
            refill(each, now);
            if (each.tokens >= settings.limit) buckets.delete(other);
          }
        }
        bucket = { tokens: settings.limit, at: now };
        buckets.set(key, bucket);
      }
      refill(bucket, now);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs));
    },
  };
}
