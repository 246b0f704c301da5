/**
 * Rules judged over all interfaces once each has been exercised: each declared interface really
 * speaks its binding and version (4, 5), the core operations work on each (9, 10) and fully on at
 * least one binding (7), the REST routes of each version answer (62, 63), and interfaces of one
 * version answer the same probes the same way (8: A2A 1.0 §5.1, "functional equivalence").
 */
import type { CheckContext } from '../probes/check-context.js';
import type { ProbeTarget } from '../probes/probe-targets.js';

const CORE_03 = ['send', 'get', 'cancel'];
const CORE_10 = ['send', 'get', 'cancel', 'list'];

function coreOf(target: ProbeTarget): string[] {
  return target.version === '1.0' ? CORE_10 : CORE_03;
}

/** Core operations that failed, and those never reached (the task could not be followed). */
function failing(ctx: CheckContext, target: ProbeTarget): { failed: string[]; untried: string[] } {
  const core = ctx.facts(target).core;
  const ops = coreOf(target);
  return { failed: ops.filter((op) => core.get(op) === false), untried: ops.filter((op) => !core.has(op)) };
}

/** Rules 4, 5, 7, 8, 9, 10, 62 and 63. */
export function checkConsistency(ctx: CheckContext, targets: ProbeTarget[]): void {
  const rec = ctx.recorder;
  let full = false;
  for (const target of targets) {
    const facts = ctx.facts(target);
    const evidence = (expected: string) => ({
      ...(facts.coreEvidence ?? { where: target.label }),
      where: target.label,
      expected: facts.coreEvidence === undefined ? expected : `${expected}: ${facts.coreEvidence.expected}`,
    });
    const speaks = facts.core.get('send') === true;
    if (target.version === '1.0' && target.declaredBy.includes('supportedInterfaces'))
      rec.expect(5, speaks, () =>
        evidence(`the interface answers ${target.binding} ${target.version} as declared`),
      );
    if (
      target.version === '0.3' &&
      (target.declaredBy.includes('url') || target.declaredBy.includes('additionalInterfaces'))
    )
      rec.expect(4, speaks, () =>
        evidence(`${target.url} serves ${target.binding} as the 0.3 card declares`),
      );
    const { failed, untried } = failing(ctx, target);
    full ||= failed.length === 0 && untried.length === 0;
    const rules = [target.version === '1.0' ? 10 : 9];
    if (target.binding === 'HTTP+JSON') rules.push(target.version === '1.0' ? 63 : 62);
    for (const rule of rules) {
      if (failed.length > 0)
        rec.fail(rule, evidence(`${coreOf(target).join(', ')} answer; failed: ${failed.join(', ')}`));
      else if (untried.length > 0)
        rec.skip(
          rule,
          `${untried.join(', ')} not reached on ${target.label}: the first send's result could not be read`,
        );
      else rec.pass(rule);
    }
  }
  if (targets.length > 0)
    rec.expect(7, full, () => ({
      where: 'all interfaces',
      expected: 'the core operations all work on at least one interface',
    }));
  for (const version of ['0.3', '1.0'] as const) {
    const same = targets.filter((t) => t.version === version);
    if (same.length < 2) {
      rec.skip(8, `fewer than two ${version} interfaces to compare`);
      continue;
    }
    const [first, ...rest] = same;
    const base = ctx.facts(first!).outcomes;
    for (const other of rest) {
      const outcomes = ctx.facts(other).outcomes;
      const differ = [...base.keys()]
        .filter((probe) => outcomes.has(probe) && outcomes.get(probe) !== base.get(probe))
        .map((probe) => `${probe}: ${base.get(probe)} vs ${outcomes.get(probe)}`);
      rec.expect(8, differ.length === 0, () => ({
        where: `${first!.label} vs ${other.label}`,
        expected: 'the same probe gets the same outcome on every binding',
        received: differ.join('; '),
      }));
    }
  }
}
