/**
 * The public surface stays small (decision 0155): the names all public entries of package.json
 * "exports" offer, counted by scripts/public-surface.mjs, stay within a budget, and the root entry
 * stays the handful most users start with. What the CLI, the other layers and the tests need
 * besides lives in each layer's internal.ts, which package.json does not export. Raising a
 * budget is a decision: record it in a new docs/decisions file, not here alone.
 */
import { describe, expect, it } from 'vitest';
import { countSurface } from '../../scripts/public-surface.mjs';

/** All entries together, counting a name once per entry that exports it (issue 24: 946 before, 433 after; decision 0170: 460 for issue 28). */
const TOTAL_BUDGET = 460;
/** The root entry `concord-a2a`: create a server, and the model its executor reads and writes. */
const ROOT_NAMES = [
  'A2AError',
  'A2AServer',
  'A2AServerOptions',
  'AgentCardInput',
  'AgentExecutor',
  'Message',
  'Part',
  'RequestContext',
  'Task',
  'TaskUpdater',
  'createA2AServer',
];

describe('the public surface (package.json "exports")', () => {
  const table = countSurface();

  it(`offers at most ${TOTAL_BUDGET} names in all`, () => {
    const total = table.reduce((sum, { names }) => sum + names.length, 0);
    const perEntry = Object.fromEntries(table.map(({ entry, names }) => [entry, names.length]));
    expect(total, JSON.stringify(perEntry, null, 2)).toBeLessThanOrEqual(TOTAL_BUDGET);
  }, 60_000);

  it('keeps the root entry to what most users start with', () => {
    const root = table.find(({ entry }) => entry === '.');
    expect(root?.names).toEqual([...ROOT_NAMES].sort());
  });

  it('counts every entry that has types, none of them empty', () => {
    expect(table.length).toBe(19);
    for (const { entry, names } of table) expect(names.length, entry).toBeGreaterThan(0);
  });
});
