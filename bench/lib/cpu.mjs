// CPU accounting around a timed run, from /proc (Linux only; elsewhere everything is null).
//
// The benchmark machine may be shared: a build in another shell lands on our cores, and on a VM
// the hypervisor can take our vCPUs away ("steal"). Each run therefore records how busy the
// server and the load generator were and how much CPU was lost to everything else meanwhile
// (other processes: machine process time minus ours; steal: from /proc/stat). A run with
// noticeable interference is flagged in the report rather than silently trusted.

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

let ticksPerSecond = 100;
try {
  ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
} catch {
  // 100 is the Linux default USER_HZ
}

/**
 * Per-CPU seconds from /proc/stat, keyed by line name ('cpu' is the machine, 'cpu0' core 0...):
 * process time (user+nice+system) and hypervisor steal.
 */
function cpuSeconds() {
  try {
    const out = {};
    for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
      if (!line.startsWith('cpu')) continue;
      const [name, user, nice, system, , , , , steal = 0] = line.trim().split(/\s+/);
      // irq and softirq are left out: loopback packet handling for our own traffic lands there and
      // is charged to no process, so counting it would call a fast server's networking "outside".
      out[name] = { proc: (+user + +nice + +system) / ticksPerSecond, steal: +steal / ticksPerSecond };
    }
    return out;
  } catch {
    return null;
  }
}

function processSeconds(pid) {
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of those.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / ticksPerSecond;
  } catch {
    return null;
  }
}

const pctOf = (seconds, wall) => (100 * seconds) / wall;
const elapsed = (at) => Number(process.hrtime.bigint() - at) / 1e9;

/** Snapshot before a run; pass it to `cpuSince` afterwards. */
export function cpuMark(serverPid) {
  return { at: process.hrtime.bigint(), cpus: cpuSeconds(), server: processSeconds(serverPid), serverPid };
}

/**
 * CPU since `mark` as % of one core over the wall time: the server and the load generator
 * (`loadGenSeconds` is what it reported for itself), and what others took — other processes and
 * steal — on the server's core and on the load generator's core. When the two are pinned
 * (`pinned`: cores 0 and 1) each core is judged on its own; unpinned, the whole machine is one
 * pool and `serverCore` holds it. Unknown values are null.
 */
export function cpuSince(mark, loadGenSeconds, pinned) {
  const wall = elapsed(mark.at);
  const cpus = cpuSeconds();
  const server = processSeconds(mark.serverPid);
  if (!mark.cpus || !cpus || mark.server === null || server === null) {
    return { serverPct: null, loadGenPct: null, serverCore: null, loadCore: null };
  }
  const serverUsed = server - mark.server;
  const loadUsed = loadGenSeconds ?? 0;
  const lost = (name, ours) => ({
    otherPct: pctOf(Math.max(0, cpus[name].proc - mark.cpus[name].proc - ours), wall),
    stealPct: pctOf(cpus[name].steal - mark.cpus[name].steal, wall),
  });
  return {
    serverPct: pctOf(serverUsed, wall),
    loadGenPct: loadGenSeconds == null ? null : pctOf(loadGenSeconds, wall),
    serverCore: pinned && cpus.cpu0 ? lost('cpu0', serverUsed) : lost('cpu', serverUsed + loadUsed),
    loadCore: pinned && cpus.cpu1 ? lost('cpu1', loadUsed) : null,
  };
}

/** Interference right now, machine-wide (other processes + steal, % of one core), sampled over `ms`. */
export async function backgroundBusyPct(ms = 500) {
  const before = cpuSeconds()?.cpu;
  const at = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, ms));
  const after = cpuSeconds()?.cpu;
  if (!before || !after) return null;
  return pctOf(after.proc - before.proc + after.steal - before.steal, elapsed(at));
}

/**
 * Waits (up to `maxMs`) for interference to drop under `pct` % of a core, so a build or test run
 * in another shell does not land in the middle of a measurement. Returns the last sample.
 */
export async function waitForQuiet(pct, maxMs) {
  const deadline = Date.now() + maxMs;
  let busy = await backgroundBusyPct();
  while (busy !== null && busy > pct && Date.now() < deadline) busy = await backgroundBusyPct();
  return busy;
}
