/**
 * `concord serve`'s and `npm start`'s process policy (src/cli/serve/process-tuning.ts): the CLI
 * owns the process, so the V8 settings are its own and no public entry exports them. What the
 * settings do to V8 is measured by `npm run bench:v8` (bench/v8-policy.mjs), not here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-process.js';
import { limitHeapGrowth, SERVING_NODE_OPTIONS } from '../../src/cli/serve/process-tuning.js';

describe('the CLI process policy (docs/performance.md, "Heap growth limit", "Serving node options")', () => {
  it('is what npm start gives node', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toMatch(
      new RegExp(`^exec node ${SERVING_NODE_OPTIONS} dist/cli/main\\.js serve `),
    );
  });

  it('refuses a heap growth percentage that is not a whole number of at least 1', () => {
    expect(() => limitHeapGrowth(0)).toThrow(/at least 1, got 0/);
    expect(() => limitHeapGrowth(12.5)).toThrow(/got 12.5/);
  });

  it('is exported by no public entry, and neither are the releasing registries', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, string | { import: string }>;
    };
    const internal = [
      'disablePretenuring',
      'limitHeapGrowth',
      'HEAP_GROWING_PERCENT',
      'SERVING_NODE_OPTIONS',
      'ReleasingSet',
      'ReleasingMap',
    ];
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue; // package.json and the like: no code
      const file = target.import;
      const names = Object.keys((await import(pathToFileURL(join(ROOT, file)).href)) as object);
      expect(
        names.filter((name) => internal.includes(name)),
        entry,
      ).toEqual([]);
    }
  });
});
