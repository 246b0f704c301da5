/**
 * Sortable status instants. ListTasks orders and filters by status timestamp as an instant
 * (A2A 1.0 §3.1.4), but RFC 3339 strings compare as instants only when they share an offset and a
 * fraction width: "…:00Z" sorts after "…:00.5Z" as text. Stores therefore keep a fixed-width UTC
 * key, `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, whose text order is time order (nanoseconds kept, as
 * google.protobuf.Timestamp has them).
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9})\d*)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The key format itself; page tokens are checked against it. */
export const STATUS_TIME_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;

/**
 * Turns an RFC 3339 timestamp into its sortable UTC key, or `undefined` if it is not one.
 * Years outside 0000-9999 after shifting to UTC are not representable and also give `undefined`.
 */
export function statusTimeKey(timestamp: string): string | undefined {
  // Fast path: the runner writes `Date.prototype.toISOString()` output (A2A 1.0 §5.6.1 wants `Z`).
  if (timestamp.length === 24 && timestamp.charCodeAt(23) === 90 /* Z */ && timestamp.charCodeAt(19) === 46) {
    const key = `${timestamp.slice(0, 23)}000000Z`;
    if (STATUS_TIME_KEY.test(key)) return key;
  }
  const m = RFC3339.exec(timestamp);
  if (m === null) return undefined;
  const fraction = (m[7] ?? '').padEnd(9, '0');
  const date = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  if (m[8] === undefined) return `${date}.${fraction}Z`;
  // An explicit offset: shift whole seconds to UTC; the fraction is unaffected by the shift.
  const sign = m[8] === '-' ? -1 : 1;
  const offsetMs = sign * (Number(m[9]) * 60 + Number(m[10])) * 60_000;
  const utc = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  utc.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  utc.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  const ms = utc.getTime() - offsetMs;
  if (Number.isNaN(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  if (iso.length !== 24) return undefined;
  return `${iso.slice(0, 19)}.${fraction}Z`;
}

/** The key of a task's status: its timestamp, or `now` when it has none (or an unreadable one). */
export function taskStatusKey(timestamp: string | undefined, now: () => string = nowKey): string {
  return (timestamp === undefined ? undefined : statusTimeKey(timestamp)) ?? now();
}

/** The current time as a status key (commit time for statuses without a timestamp). */
export function nowKey(): string {
  return `${new Date().toISOString().slice(0, 23)}000000Z`;
}

/**
 * The hour a status key falls in, `YYYY-MM-DDTHH` (UTC): the bucket of the stores' per-hour task
 * counters (decision 0163). Every key of that hour starts with it.
 */
export function statusHour(key: string): string {
  return key.slice(0, 13);
}

/**
 * A key that sorts after every key of `hour` and before every key of the next hour: the hour
 * followed by ';', the character after the ':' that every key of the hour has next.
 */
export function hourEnd(hour: string): string {
  return `${hour};`;
}
