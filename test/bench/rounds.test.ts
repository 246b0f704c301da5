// The benchmark's interleaved rounds (docs/performance.md, 'Interleaved rounds'): a cell's row and
// its per-round ratio to bare.
import { describe, expect, it } from 'vitest';
import { median, pairedRatio, summariseCell, type RoundSample } from '../../bench/lib/rounds.mjs';

function sample(round: number, requestsPerSec: number, extra: Partial<RoundSample> = {}): RoundSample {
  return {
    round,
    status: 'ok',
    result: {
      total: requestsPerSec * 5,
      requestsPerSec,
      p50: 1,
      p99: requestsPerSec / 1000,
      max: requestsPerSec / 100,
      wrkP99: 3,
      rampMs: 10,
      steady: true,
      errors: 0,
      timeouts: 0,
      non2xx: 0,
      mismatches: 0,
    },
    cpu: { serverPct: 98, loadGenPct: 30 },
    peakRss: 100 + round,
    tasksHeld: 1000 * (round + 1),
    ...extra,
  };
}

describe('bench rounds', () => {
  it('takes the median, and the mean of the middle two for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('pairs each sample with the bare sample of its own round', () => {
    // The machine slows down in round 1: both servers drop, the paired ratio stays put.
    const bare = [sample(0, 30_000), sample(1, 20_000), sample(2, 30_000)];
    const concord = [sample(0, 15_000), sample(1, 10_000), sample(2, 16_500)];
    const row = summariseCell('concord', 'send c=32', concord, bare);
    expect(row.ratio).toEqual({ median: 0.5, min: 0.5, max: 0.55, n: 3 });
    expect(row.result!.requestsPerSec).toBe(15_000);
    expect(row.used).toBe(3);
    expect(row.status).toBe('ok');
    // Upper-bound figures keep the worst sample; counts add up.
    expect(row.result!.p99).toBe(16.5);
    expect(row.result!.max).toBe(165);
    expect(row.peakRss).toBe(102);
    expect(row.result!.total).toBe(207_500);
    expect(row.tasksHeld).toBe(3000);
  });

  it('leaves failed samples out of the figures and the ratios, and says so', () => {
    // A bare sample judged FAILED still carries its (meaningless) result.
    const bare = [sample(0, 30_000), sample(1, 0, { status: 'FAILED: no responses' })];
    const concord = [sample(0, 15_000), sample(1, 12_000, { status: 'ok, noisy: server core lost 20%' })];
    const row = summariseCell('concord', 'send c=32', concord, bare);
    expect(row.ratio).toEqual({ median: 0.5, min: 0.5, max: 0.5, n: 1 });
    expect(row.status).toBe('ok, noisy: server core lost 20%');

    const withFailure = [
      sample(0, 15_000),
      sample(1, 3_000, { status: 'FAILED: 40.0% bad responses', peakRss: 140 }),
      sample(2, 16_000),
    ];
    const failed = summariseCell('concord', 'send c=32', withFailure, [sample(0, 30_000), sample(2, 30_000)]);
    expect(failed.status).toBe('FAILED: 40.0% bad responses (2 of 3 samples used)');
    expect(failed.result!.requestsPerSec).toBe(15_500);
    expect(failed.ratio).toEqual({ median: 0.5166666666666666, min: 0.5, max: 0.5333333333333333, n: 2 });
    // Its errors and memory still count.
    expect(failed.result!.total).toBe(170_000);
    expect(failed.peakRss).toBe(140);

    const none = summariseCell('concord', 'send c=32', [{ round: 0, status: 'FAILED: x' }]);
    expect(none.result).toBeUndefined();
    expect(none.ratio).toBeUndefined();
  });

  it('does not mix steady-window samples with whole-run ones', () => {
    const whole = sample(1, 40_000);
    whole.result = { ...whole.result!, steady: false, p99: 900, max: null, wrkP99: null, rampMs: null };
    const row = summariseCell('concord', 'send c=128', [sample(0, 15_000), whole, sample(2, 17_000)]);
    expect(row.result!.requestsPerSec).toBe(16_000);
    expect(row.result!.p99).toBe(17);
    expect(row.status).toBe('ok (2 of 3 samples used)');
  });

  it('pairs any two servers round by round, as for the multiples of @a2a-js/sdk', () => {
    const peer = [sample(0, 2_000), sample(1, 1_000), sample(2, 2_500)];
    const concord = [sample(0, 10_000), sample(1, 6_000), sample(2, 20_000)];
    expect(pairedRatio(concord, peer)).toEqual({ median: 6, min: 5, max: 8, n: 3 });
    expect(pairedRatio(concord, [])).toBeUndefined();
  });
});
