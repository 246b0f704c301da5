/**
 * Turns off V8's allocation-site pretenuring for this process (decision 0124).
 *
 * V8 watches which object and array literals produce objects that survive a young-generation
 * collection, and once a literal's objects look long-lived it allocates them straight in the old
 * generation. Under a steady stream of requests that guess misfires: a request's objects live a few
 * milliseconds, but those in flight at a collection all survive it. Once some of them are in the old
 * generation, every young object they point to is kept alive by every later scavenge until the next
 * full collection, and it is copied into the old generation too. Measured on the SQLite benchmark
 * server at c=128: 3.2 kB of each request ended in the old generation with pretenuring, 11 bytes
 * without it; scavenges took 12% of the time instead of 2%.
 *
 * It is a process-wide V8 setting, so the library never changes it on its own: `concord serve`
 * calls this at start, and an application embedding the node adapter calls it once before it starts
 * serving (or runs node with `--no-allocation-site-pretenuring`). It only changes where V8 places
 * new objects, never what a program computes.
 */
import { setFlagsFromString } from 'node:v8';

let applied = false;

/** Stops V8 from allocating literals straight into the old generation; safe to call again. */
export function disablePretenuring(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--no-allocation-site-pretenuring');
}
