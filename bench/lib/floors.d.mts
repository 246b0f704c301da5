// Types of floors.mjs, for the tests that drive it (test/bench/floors.test.ts).
import type { PairedRatio, RoundSample } from './rounds.mjs';

export interface FloorTarget {
  server: string;
  runs: string;
  floor: string;
  target?: number;
}

export interface FloorComparison {
  server: string;
  run: string;
  floor: string;
  target: number | undefined;
  ratio: PairedRatio | undefined;
  floorRps: number | undefined;
  verdict: string;
}

export const FLOOR_TARGETS: readonly FloorTarget[];
export function floorComparisons(
  samplesOf: (server: string, run: string) => readonly RoundSample[],
  runs: readonly string[],
): FloorComparison[];
export function renderFloors(comparisons: readonly FloorComparison[]): string[];
