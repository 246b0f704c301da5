/**
 * `SERVING_NODE_OPTIONS` (decision 0132), as `concord-a2a/server/node` exports it: node started
 * with it keeps a busy process's young generation at two 8 MiB semi-spaces, where V8's default
 * lets it grow to two of 16 MiB; and `npm start`, the README's serving command, starts node with it.
 *
 * The child keeps a few thousand "requests in flight" alive across scavenges, as a loaded server
 * does, which is what makes V8 grow the young generation to its largest.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/cli-process.js';
import { SERVING_NODE_OPTIONS } from '../../src/server/adapters/node.js';

const IN_FLIGHT = `
import { getHeapSpaceStatistics } from 'node:v8';
const inFlight = new Array(4096);
let largest = 0;
for (let n = 0; n < 3_000_000; n++) {
  inFlight[n % inFlight.length] = { id: 'request-' + n, parts: [{ text: 'hello ' + n }], at: [n, n + 1] };
  if (n % 10_000 === 0) {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    largest = Math.max(largest, young.space_size);
  }
}
process.stdout.write(String(largest / 1048576));
`;

/** The largest the young generation grew to, in MiB, in a child node given `nodeFlags`. */
function largestYoungGeneration(nodeFlags: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeFlags, '--input-type=module', '-e', IN_FLIGHT],
      { env: { ...process.env, NODE_OPTIONS: '' }, timeout: 30_000 },
      (error, stdout) => (error !== null ? reject(error) : resolve(Number(stdout))),
    );
  });
}

describe('SERVING_NODE_OPTIONS (decision 0132)', () => {
  it('keeps the young generation at 16 MiB, where V8 alone grows it to 32', async () => {
    expect(await largestYoungGeneration(SERVING_NODE_OPTIONS.split(' '))).toBeLessThanOrEqual(16);
    expect(await largestYoungGeneration([])).toBeGreaterThan(16);
  }, 60_000);

  it('is what npm start gives node', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    expect(pkg.scripts.start).toMatch(
      new RegExp(`^exec node ${SERVING_NODE_OPTIONS} dist/cli/main\\.js serve `),
    );
  });
});
