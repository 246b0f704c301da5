/**
 * `limitHeapGrowth` (decision 0126), through the built `concord-a2a/server/node` in child node
 * processes with `--trace-gc`: a live set of about 30 MB that keeps being replaced, so every
 * replaced item is garbage in the old generation. What the heap holds when a full collection starts,
 * over what the previous one left, is V8's growing factor plus the young generation's share.
 *
 * Measured on the development machine: 4.5 with V8's default, 2.3 with the limit (1.5).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/cli-process.js';

const CHURN = `
import { limitHeapGrowth } from ${JSON.stringify(join(ROOT, 'dist/server/adapters/node.js'))};
if (process.env.LIMIT === '1') limitHeapGrowth();
const live = new Array(150_000);
const item = (i) => ({ i, name: 'item-' + i, tags: [i, i + 1, i + 2], nested: { a: i, b: String(i) } });
for (let i = 0; i < live.length; i++) live[i] = item(i);
// A fixed amount of work, not of time, so that a busy machine sees as many full collections.
for (let n = 0; n < 4_000_000; n++) live[(n * 7919) % live.length] = item(n);
`;

/** Median of (heap at a full collection's start / heap after the previous one). */
function growthRatio(limit: boolean, nodeFlags: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--trace-gc', ...nodeFlags, '--input-type=module', '-e', CHURN],
      { env: { ...process.env, LIMIT: limit ? '1' : '0', NODE_OPTIONS: '' }, timeout: 30_000 },
      (error, stdout) => {
        if (error !== null) return reject(error);
        // "... Mark-Compact 139.1 (170.7) -> 45.4 (95.4) MB, ..."
        const sizes = [...stdout.matchAll(/Mark-Compact ([\d.]+) \([\d.]+\) -> ([\d.]+)/g)].map((m) => [
          Number(m[1]),
          Number(m[2]),
        ]);
        const ratios = sizes
          .slice(1)
          .map(([before], i) => before! / sizes[i]![1]!)
          .slice(1);
        if (ratios.length < 3) return reject(new Error(`too few full collections:\n${stdout}`));
        ratios.sort((a, b) => a - b);
        resolve(ratios[Math.floor(ratios.length / 2)]!);
      },
    );
  });
}

describe('limitHeapGrowth (decision 0126)', () => {
  it('keeps the old generation within about twice what survives, where V8 alone lets it reach four', async () => {
    const limited = await growthRatio(true);
    const unlimited = await growthRatio(false);
    expect(limited).toBeLessThan(3);
    expect(unlimited).toBeGreaterThan(3.5);
  }, 60_000);

  it('leaves a percentage given to node on its command line as it is', async () => {
    expect(await growthRatio(true, ['--heap-growing-percent=300'])).toBeGreaterThan(3.5);
  }, 60_000);

  it('refuses a percentage that is not a whole number of at least 1', async () => {
    const { limitHeapGrowth } = await import('../../src/server/adapters/heap-tuning.js');
    expect(() => limitHeapGrowth(0)).toThrow(/at least 1, got 0/);
    expect(() => limitHeapGrowth(12.5)).toThrow(/got 12.5/);
  });
});
