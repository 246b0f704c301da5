/**
 * `concord serve`'s and `npm start`'s process policy: these V8 settings are the business
 * of whoever owns the process, not of a library, so they live with the CLI and no public entry
 * exports them. V8 settings for a process whose job is serving: allocation-site pretenuring off
 * (`disablePretenuring`), a cap on heap growth (`limitHeapGrowth`, explained at the function), and
 * the node options to start it with (`SERVING_NODE_OPTIONS`), the one setting V8 reads only when
 * the process starts.
 *
 * Pretenuring: V8 watches which object and array literals produce objects that survive a
 * young-generation collection, and once a literal's objects look long-lived it allocates them
 * straight in the old generation. Under a steady stream of requests that guess misfires: a
 * request's objects live a few milliseconds, but those in flight at a collection all survive it. Once some of them are in the old
 * generation, every young object they point to is kept alive by every later scavenge until the next
 * full collection, and it is copied into the old generation too. Measured on the SQLite benchmark
 * server at c=128: 3.2 kB of each request ended in the old generation with pretenuring, 11 bytes
 * without it; scavenges took 12% of the time instead of 2%.
 *
 * It is a process-wide V8 setting, so the library never changes it: `concord serve` calls this at
 * start; an application that owns its process and wants the same runs node with
 * `--no-allocation-site-pretenuring`. It only changes where V8 places
 * new objects, never what a program computes.
 */
import { setFlagsFromString } from 'node:v8';

let applied = false;
let growthLimited = false;

/**
 * Stops V8 from allocating literals straight into the old generation (see the file comment); safe
 * to call again.
 */
export function disablePretenuring(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * What to give node when it starts a serving process (`node --max-semi-space-size=8 app.js`, or in
 * NODE_OPTIONS); `npm start` and the benchmark's Concord servers use it
 * (docs/performance.md, 'Serving node options').
 *
 * Semi-spaces of 8 MiB: a busy server's young generation otherwise grows to V8's largest, two
 * 16 MiB semi-spaces, 32 MiB of resident memory. At 8 the benchmark servers peaked 13-16 MiB lower
 * (memory store 137-145 → 124-129 MiB at c=128) with requests per second within 1.5%: a request's
 * objects die within a few milliseconds, and the smaller space still holds several turns of them.
 * V8 sizes the young generation when the isolate is created, so unlike the settings below this
 * cannot be applied from inside a running process.
 */
export const SERVING_NODE_OPTIONS = '--max-semi-space-size=8';

/** The old generation may grow to this percentage above what survived the last full collection. */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Caps how far V8 lets the old generation grow between full collections (docs/performance.md,
 * 'Heap growth limit'); safe to call again.
 *
 * V8 picks the next full collection's threshold as what survived the last one times a factor
 * between 1.1 and 4; a busy server with a small live set is given 4, so its resident memory sits at
 * four times what it holds. At 1.5 the Concord benchmark servers peaked 40-50 MiB lower, for full
 * collections that took about 1% of the time instead of 0.3%. A process with a large live set that
 * replaces much of it quickly pays more: collections come sooner for the same garbage.
 *
 * A percentage given to node itself (`--heap-growing-percent`, on the command line or in
 * NODE_OPTIONS) is left as it is. Like `disablePretenuring`, this is process-wide: `concord serve`
 * calls it, and the library never does (an application that owns its process can pass
 * `--heap-growing-percent=50` to node).
 */
export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent < 1) {
    throw new RangeError(`limitHeapGrowth: expected a whole percentage of at least 1, got ${percent}`);
  }
  if (growthLimited) return;
  growthLimited = true;
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
    /heap[-_]growing[-_]percent/.test(arg),
  );
  if (!given) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
