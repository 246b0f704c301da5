// Interleaved rounds (docs/performance.md, 'Interleaved rounds'). Every (server, run) cell is
// measured once per round, and in a round the servers take their turns at one run back to back, so
// a ratio to the bare server compares two samples taken seconds apart rather than minutes apart. On
// a shared machine the speed of both cores drifts by ±20% over minutes; measured minutes apart, the
// ratio followed the drift more than it followed Concord.
//
// A cell's row keeps its usable samples' medians: req/s, p50, wrk's p99 and ramp, CPU. The highest
// where a target is an upper bound: p99, max latency and peak RSS (over every sample). Errors and
// totals are summed over every sample. Its ratio to bare is the median of the per-round ratios,
// with their range.
//
// A usable sample is one not marked FAILED. Samples measured over the steady window
// (docs/performance.md, 'Steady-state latency') and wrk's whole-run figures are not mixed: when
// some samples have a steady window, only those make the figures.

/** The median of a non-empty list of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const sum = (values) => values.reduce((a, b) => a + b, 0);
const medianOf = (samples, pick) => {
  const values = samples.map(pick).filter((v) => v != null);
  return values.length === 0 ? null : median(values);
};
const failed = (sample) => sample.status.startsWith('FAILED');
/** A sample whose numbers can stand in a row or a ratio. */
const usable = (sample) => sample.result !== undefined && !failed(sample) && sample.result.requestsPerSec > 0;

/** The samples whose figures count (see the file comment). */
function usedSamples(samples) {
  const good = samples.filter(usable);
  return good.some((s) => s.result.steady) ? good.filter((s) => s.result.steady) : good;
}

/**
 * req/s of `samples` over that of `baseSamples`, round by round (each sample against the base's
 * sample of its own round): { median, min, max, n }, or undefined when no round has both.
 */
export function pairedRatio(samples, baseSamples) {
  const ratios = usedSamples(samples).flatMap((s) => {
    const base = baseSamples.find((b) => b.round === s.round && usable(b));
    return base ? [s.result.requestsPerSec / base.result.requestsPerSec] : [];
  });
  if (ratios.length === 0) return undefined;
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), n: ratios.length };
}

/** The status that says most: a failure first, then a noisy sample, else the first. */
function worstStatus(samples) {
  const statuses = samples.map((s) => s.status);
  return (
    samples.find(failed)?.status ??
    statuses.find((s) => s.includes('noisy')) ??
    statuses.find((s) => s !== 'ok') ??
    statuses[0]
  );
}

/** One result out of several samples' results (`counted` for the sums); see the file comment. */
function combineResults(results, counted) {
  const steady = results.every((r) => r.steady);
  return {
    total: sum(counted.map((r) => r.total)),
    requestsPerSec: median(results.map((r) => r.requestsPerSec)),
    p50: median(results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    max: steady ? Math.max(...results.map((r) => r.max)) : undefined,
    wrkP99: steady ? median(results.map((r) => r.wrkP99)) : undefined,
    rampMs: steady ? medianOf(results, (r) => r.rampMs) : undefined,
    steady,
    errors: sum(counted.map((r) => r.errors)),
    timeouts: sum(counted.map((r) => r.timeouts)),
    non2xx: sum(counted.map((r) => r.non2xx)),
    mismatches: sum(counted.map((r) => r.mismatches)),
  };
}

/**
 * The table row of one cell. `samples` are its rounds' samples ({ round, status, result?, cpu?,
 * peakRss?, tasksHeld? }); `bareSamples` the bare server's samples of the same run, by round, for
 * the per-round ratios (none for the bare server itself).
 */
export function summariseCell(server, run, samples, bareSamples = []) {
  const row = { server, run, status: worstStatus(samples) };
  const used = usedSamples(samples);
  row.used = used.length;
  if (used.length < samples.length) row.status += ` (${used.length} of ${samples.length} samples used)`;
  if (used.length === 0) return row;
  const counted = samples.filter((s) => s.result !== undefined).map((s) => s.result);
  row.result = combineResults(
    used.map((s) => s.result),
    counted,
  );
  row.cpu = {
    serverPct: medianOf(used, (s) => s.cpu?.serverPct),
    loadGenPct: medianOf(used, (s) => s.cpu?.loadGenPct),
  };
  // Every sample's memory counts, a failed one's too: the process did use it.
  const rss = samples.map((s) => s.peakRss).filter((v) => v != null);
  row.peakRss = rss.length === 0 ? null : Math.max(...rss);
  row.tasksHeld = Math.max(...samples.map((s) => s.tasksHeld ?? 0));
  const ratio = pairedRatio(samples, bareSamples);
  if (ratio !== undefined) row.ratio = ratio;
  return row;
}
