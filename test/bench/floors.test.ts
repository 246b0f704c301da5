// Concord against the floors (bench/lib/floors.mjs; docs/performance.md, 'Against the floors'):
// which server meets its floor's target, paired round by round, and by how much.
import { describe, expect, it } from 'vitest';
import { floorComparisons, renderFloors } from '../../bench/lib/floors.mjs';
import type { RoundSample } from '../../bench/lib/rounds.mjs';

function sample(round: number, requestsPerSec: number, status = 'ok'): RoundSample {
  return {
    round,
    status,
    result: {
      total: requestsPerSec * 5,
      requestsPerSec,
      p50: 1,
      p99: 2,
      steady: true,
      errors: 0,
      timeouts: 0,
      non2xx: 0,
      mismatches: 0,
    },
  };
}

const RUNS = ['send c=32', 'send c=128', 'stream c=32', 'contract send c=32'];

/** A samplesOf over a table of `server run` → samples. */
const samplesFrom =
  (cells: Record<string, RoundSample[]>) =>
  (server: string, run: string): RoundSample[] =>
    cells[`${server} ${run}`] ?? [];

describe('bench floors', () => {
  it('compares each server with its own floor on the same run, round by round', () => {
    const comparisons = floorComparisons(
      samplesFrom({
        // The machine slows in round 1; the paired ratio does not move with it.
        'ideal-a2a send c=32': [sample(0, 40_000), sample(1, 20_000), sample(2, 40_000)],
        'concord-memory send c=32': [sample(0, 38_000), sample(1, 19_000), sample(2, 36_000)],
        'ideal-durable send c=32': [sample(0, 30_000), sample(1, 30_000)],
        'concord-sqlite send c=32': [sample(0, 15_000), sample(1, 18_000)],
        'ideal-stream stream c=32': [sample(0, 30_000)],
        'concord-memory stream c=32': [sample(0, 24_000)],
      }),
      RUNS,
    );
    expect(comparisons.map((c) => `${c.server} ${c.run} ${c.floor}`)).toEqual([
      'concord-memory send c=32 ideal-a2a',
      'concord-sqlite send c=32 ideal-durable',
      'concord-memory stream c=32 ideal-stream',
    ]);
    const [memory, sqlite, stream] = comparisons;
    expect(memory!.ratio).toEqual({ median: 0.95, min: 0.9, max: 0.95, n: 3 });
    // 0.95 against 0.9: 6% above; at 40,000 req/s for the floor that is 26.3 against 27.8 µs.
    expect(memory!.verdict).toBe('**met**, 6% above (1.5 µs a request to spare)');
    expect(sqlite!.ratio!.median).toBeCloseTo(0.55, 10);
    // 0.55 against 0.75: 27% short; 60.6 µs a request against the 44.4 the target allows.
    expect(sqlite!.verdict).toBe('**not met**, 27% short (16.2 µs a request over)');
    // 0.8 against 0.7: 41.7 µs a request against the 47.6 the target allows.
    expect(stream!.verdict).toBe('**met**, 14% above (6.0 µs a request to spare)');
  });

  it('says when the median meets the target but a round does not', () => {
    const [memory] = floorComparisons(
      samplesFrom({
        'ideal-a2a send c=32': [sample(0, 10_000), sample(1, 10_000), sample(2, 10_000)],
        'concord-memory send c=32': [sample(0, 9_500), sample(1, 8_000), sample(2, 9_200)],
      }),
      RUNS,
    );
    expect(memory!.verdict).toMatch(/^\*\*met\*\*, 2% above .*, not in every round$/);
  });

  it('reports a server without a target, and a comparison missing its floor', () => {
    const comparisons = floorComparisons(
      samplesFrom({
        'ideal-durable send c=128': [sample(0, 30_000)],
        'concord-postgres send c=128': [sample(0, 3_000)],
        // The floor failed its only sample: no paired round.
        'ideal-stream stream c=32': [sample(0, 0, 'FAILED: no responses')],
        'concord-sqlite stream c=32': [sample(0, 12_000)],
      }),
      RUNS,
    );
    expect(comparisons.map((c) => [c.server, c.run, c.verdict])).toEqual([
      ['concord-postgres', 'send c=128', 'no target'],
      ['concord-sqlite', 'stream c=32', 'not measured: no round with both usable'],
    ]);
    expect(comparisons[0]!.ratio!.median).toBeCloseTo(0.1, 10);
    const table = renderFloors(comparisons);
    expect(table[2]).toBe(
      '| concord-postgres | send c=128 | ideal-durable (30,000) | 0.10× | – | no target |',
    );
    expect(table[3]).toBe(
      '| concord-sqlite | stream c=32 | ideal-stream | – | ≥ 0.7× | not measured: no round with both usable |',
    );
  });

  it('renders nothing when nothing was compared', () => {
    expect(floorComparisons(samplesFrom({}), RUNS)).toEqual([]);
    expect(renderFloors([])).toEqual([]);
  });
});
