/**
 * The current time as an RFC 3339 UTC string (A2A 1.0 §5.6.1 `timestamp`), made at most once per
 * millisecond: a busy server stamps several statuses per millisecond, and formatting a Date is
 * one of the larger costs of a quick task's life.
 */
let lastMs = -1;
let lastIso = '';

/** `new Date().toISOString()`, reusing the string while the millisecond lasts. */
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
