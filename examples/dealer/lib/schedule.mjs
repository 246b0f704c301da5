// @ts-check
/**
 * Appointment slots against the dealer's weekly schedule (DealerInformation `schedule`, in the
 * dealer's timezone): whether a slot lies inside opening hours, the candidate slots of a
 * requested window, and alternative slots to propose when no requested window can be honored.
 */
const MINUTE = 60_000;
/** Slots start on this grid. */
export const STEP_MS = 30 * MINUTE;

/** Local weekday and minute of day of an instant in `timeZone`. */
function local(ms, timeZone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: get('weekday').toLowerCase(), minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

const toMinutes = (hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** True when [start, end) lies within one day's opening hours. */
export function withinHours(schedule, timeZone, startMs, endMs) {
  const start = local(startMs, timeZone);
  const end = local(endMs, timeZone);
  const hours = schedule[start.day];
  if (hours === null || hours === undefined) return false;
  if (end.day !== start.day && !(end.minutes === 0 && endMs - startMs <= 24 * 60 * MINUTE)) return false;
  return (
    start.minutes >= toMinutes(hours.open) &&
    (end.day === start.day ? end.minutes : 24 * 60) <= toMinutes(hours.close)
  );
}

/** True for a timezone name this runtime knows (IANA). */
export function isTimeZone(name) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Slots of `durationMs` inside one requested window, in the future and inside opening hours. */
export function windowSlots({ startMs, endMs, durationMs, nowMs, schedule, timeZone }) {
  const last = (endMs ?? startMs + durationMs) - durationMs;
  const slots = [];
  for (let s = startMs; s <= last && slots.length < 48; s += 15 * MINUTE) {
    if (s < nowMs) continue;
    if (withinHours(schedule, timeZone, s, s + durationMs))
      slots.push({ start_ms: s, end_ms: s + durationMs });
  }
  return slots;
}

/** Up to `count` open slots after `fromMs` on the 30-minute grid, within `days` days. */
export function nextSlots({ fromMs, durationMs, schedule, timeZone, count, days, isFree }) {
  const found = [];
  let s = Math.ceil(fromMs / STEP_MS) * STEP_MS;
  const until = fromMs + days * 24 * 60 * MINUTE;
  for (; s < until && found.length < count; s += STEP_MS) {
    const slot = { start_ms: s, end_ms: s + durationMs };
    if (withinHours(schedule, timeZone, slot.start_ms, slot.end_ms) && isFree(slot)) {
      found.push(slot);
      s += durationMs - STEP_MS; // proposals do not overlap each other
    }
  }
  return found;
}

/** A human description of an instant in the dealer's timezone. */
export function describeTime(ms, timeZone) {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(ms));
}

/** RFC 3339 in UTC without milliseconds. */
export function iso(ms) {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
