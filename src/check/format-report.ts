/**
 * The report as a table for people: one line per §11 rule (number, verdict, title), then under a
 * failed rule each failure with what was expected, what was sent and what came back; under a
 * skipped rule why; warnings under any rule. `--json` prints the report object instead.
 */
import type { CheckReport, Evidence, RuleResult } from './check-report.js';

const VERDICT: Record<RuleResult['outcome'], string> = { pass: 'pass', fail: 'FAIL', skip: 'skip' };

function evidenceLines(kind: string, evidence: Evidence): string[] {
  const lines = [`         ${kind}${evidence.where}: ${evidence.expected}`];
  if (evidence.sent !== undefined && evidence.sent !== '')
    lines.push(`           sent:     ${evidence.sent}`);
  if (evidence.received !== undefined) lines.push(`           received: ${evidence.received}`);
  return lines;
}

/** Renders the report; `verbose` also lists the skip reasons of passed rules. */
export function formatCheckReport(report: CheckReport, options: { maxFailures?: number } = {}): string {
  const max = options.maxFailures ?? 5;
  const out = [`concord check ${report.target}`, '', 'Interfaces exercised:'];
  for (const label of report.interfaces) out.push(`  ${label}`);
  if (report.interfaces.length === 0) out.push('  (none)');
  out.push('', ' Rule  Result  Title');
  for (const rule of report.rules) {
    const warned =
      rule.warnings.length > 0
        ? ` (${rule.warnings.length} warning${rule.warnings.length > 1 ? 's' : ''})`
        : '';
    out.push(`  ${String(rule.id).padStart(3)}  ${VERDICT[rule.outcome].padEnd(6)}  ${rule.title}${warned}`);
    if (rule.outcome === 'fail') {
      for (const failure of rule.failures.slice(0, max)) out.push(...evidenceLines('', failure));
      if (rule.failures.length > max) out.push(`         ... and ${rule.failures.length - max} more`);
    }
    if (rule.outcome === 'skip') for (const reason of rule.skipped) out.push(`         ${reason}`);
    for (const warning of rule.warnings.slice(0, max)) out.push(...evidenceLines('warning: ', warning));
  }
  const { pass, fail, skip } = report.summary;
  out.push(
    '',
    `${pass} passed, ${fail} failed, ${skip} skipped (of ${report.rules.length} conformance rules)`,
  );
  out.push(report.ok ? 'Result: conformant on every rule tested.' : 'Result: NOT conformant.');
  return out.join('\n');
}
