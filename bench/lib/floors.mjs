// Concord against the floors (issue 27, item 5; docs/performance.md, 'Against the floors').
//
// The targets issue 2 set against bare node:http asked for less CPU per request than any A2A
// server can spend on a fast machine ('The floors'). Each of Concord's servers is now compared
// with the floor under what it does, measured in the same run: the memory store's sends with
// `ideal-a2a`, the durable stores' sends with `ideal-durable`, streams with `ideal-stream`. The
// ratio is paired round by round (rounds.mjs `pairedRatio`), so the machine's drift over minutes
// cancels out as it does for the ratios to bare.

import { median, pairedRatio } from './rounds.mjs';

/**
 * The comparisons, in the report's order: `server` on every run whose label starts with `runs`,
 * against `floor` on the same run, with the target share of the floor's req/s (none: report only).
 */
export const FLOOR_TARGETS = [
  { server: 'concord-memory', runs: 'send ', floor: 'ideal-a2a', target: 0.9 },
  { server: 'concord-sqlite', runs: 'send ', floor: 'ideal-durable', target: 0.75 },
  { server: 'concord-postgres', runs: 'send ', floor: 'ideal-durable' },
  { server: 'concord-memory', runs: 'stream ', floor: 'ideal-stream', target: 0.7 },
  { server: 'concord-sqlite', runs: 'stream ', floor: 'ideal-stream', target: 0.7 },
  { server: 'concord-postgres', runs: 'stream ', floor: 'ideal-stream' },
];

/**
 * One line per comparison that has samples: { server, run, floor, target?, ratio?, verdict }.
 * `samplesOf(server, run)` gives a cell's samples by round; `runs` are the run labels in order.
 * A comparison without a round in which both have a usable sample says so in its verdict.
 */
export function floorComparisons(samplesOf, runs) {
  return FLOOR_TARGETS.flatMap(({ server, runs: prefix, floor, target }) =>
    runs
      .filter((run) => run.startsWith(prefix))
      .flatMap((run) => {
        const samples = samplesOf(server, run);
        const floorSamples = samplesOf(floor, run);
        // A server not run (skipped, or left out by BENCH_ONLY) has no line; the header says why.
        if (samples.length === 0) return [];
        const ratio = pairedRatio(samples, floorSamples);
        const floorRps = medianRps(floorSamples);
        return [
          {
            server,
            run,
            floor,
            target,
            ratio,
            floorRps,
            verdict: verdict(ratio, target, samples, floorSamples, floorRps),
          },
        ];
      }),
  );
}

/** The median req/s of a cell's usable samples, or undefined. */
function medianRps(samples) {
  const rps = samples
    .filter((s) => s.result !== undefined && !s.status.startsWith('FAILED') && s.result.requestsPerSec > 0)
    .map((s) => s.result.requestsPerSec);
  return rps.length === 0 ? undefined : median(rps);
}

/**
 * Whether the median ratio meets the target, and by how much it passes or misses: as a share of
 * the target and, since the server's core is the bottleneck at these loads, as time per request
 * (1/req/s): how many µs a request would have to lose, or may still spend, to sit at the target.
 */
function verdict(ratio, target, samples, floorSamples, floorRps) {
  if (ratio === undefined) {
    return floorSamples.length === 0
      ? 'not measured: the floor was not run'
      : 'not measured: no round with both usable';
  }
  if (target === undefined) return 'no target';
  const by = ratio.median / target - 1;
  const pct = `${Math.abs(100 * by).toFixed(0)}%`;
  const rounds = ratio.n > 1 && ratio.min < target && ratio.median >= target ? ', not in every round' : '';
  const us = Math.abs(1e6 / (ratio.median * floorRps) - 1e6 / (target * floorRps)).toFixed(1);
  return by >= 0
    ? `**met**, ${pct} above (${us} µs a request to spare)${rounds}`
    : `**not met**, ${pct} short (${us} µs a request over)`;
}

const fmtRatio = (r) =>
  `${r.median.toFixed(2)}×${r.n > 1 ? ` (${r.min.toFixed(2)}-${r.max.toFixed(2)})` : ''}`;

/** The comparisons as a markdown table (lines), or no lines when there are none. */
export function renderFloors(comparisons) {
  if (comparisons.length === 0) return [];
  return [
    '| server | run | floor (req/s) | ×floor, paired by round | target | against the target |',
    '|---|---|---|--:|--:|---|',
    ...comparisons.map(
      (c) =>
        `| ${c.server} | ${c.run} | ${c.floor}${c.floorRps === undefined ? '' : ` (${Math.round(c.floorRps).toLocaleString('en-US')})`} ` +
        `| ${c.ratio ? fmtRatio(c.ratio) : '–'} | ${c.target === undefined ? '–' : `≥ ${c.target}×`} | ${c.verdict} |`,
    ),
  ];
}
