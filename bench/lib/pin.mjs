// CPU pinning for benchmark child processes.
//
// Servers run on core 0 and the load generator on core 1 so they never steal each other's cycles
// (on a 2-core machine an unpinned load generator competes with the server it measures). Pinning
// uses `taskset`, which execs the target, so the child's pid is the server's own pid — the
// harness reads that pid's /proc status for RSS.

import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

function findTaskset() {
  try {
    return execFileSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const taskset = findTaskset();
const cores = availableParallelism();

/** How pinning will be done, for the report header. */
export const pinning =
  taskset && cores >= 2
    ? { pinned: true, note: `servers pinned to core 0, load generator to core 1 (taskset, ${cores} cores)` }
    : {
        pinned: false,
        note: taskset
          ? `only ${cores} core available: running UNPINNED, server and load generator share CPU`
          : 'taskset not found (apt-get install util-linux): running UNPINNED, numbers are noisier',
      };

/** Spawns `file <args>` on `core` when pinning is possible, otherwise unpinned. */
export function spawnOn(core, file, args, options) {
  if (pinning.pinned) return spawn(taskset, ['-c', String(core), file, ...args], options);
  return spawn(file, args, options);
}

/** Spawns `node <args>` (this Node) on `core`. */
export const spawnNodeOn = (core, args, options) => spawnOn(core, process.execPath, args, options);
