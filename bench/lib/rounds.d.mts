// Types of rounds.mjs, for the tests that drive it (test/bench/rounds.test.ts).

export interface RoundResult {
  total: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  max?: number | null;
  wrkP99?: number | null;
  rampMs?: number | null;
  steady?: boolean;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
}

export interface RoundSample {
  round: number;
  status: string;
  result?: RoundResult;
  cpu?: { serverPct: number | null; loadGenPct: number | null };
  peakRss?: number | null;
  tasksHeld?: number;
}

export interface CellRow {
  server: string;
  run: string;
  /** Samples the figures were taken from. */
  used: number;
  status: string;
  result?: RoundResult;
  cpu?: { serverPct: number | null; loadGenPct: number | null };
  peakRss?: number | null;
  tasksHeld?: number;
  ratio?: PairedRatio;
}

export interface PairedRatio {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function median(values: readonly number[]): number;
export function pairedRatio(
  samples: readonly RoundSample[],
  baseSamples: readonly RoundSample[],
): PairedRatio | undefined;
export function summariseCell(
  server: string,
  run: string,
  samples: readonly RoundSample[],
  bareSamples?: readonly RoundSample[],
): CellRow;
