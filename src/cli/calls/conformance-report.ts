/**
 * The report of `concord conformance` (decision 0169), one shape whichever checked the agent: the
 * A2A TCK (`source: "a2a-tck"`, read from the kit's `reports/compatibility.json`) or Concord's own
 * checklist (`source: "concord-checklist"`, src/check, which is NOT the TCK and says so in
 * `notice`). Each requirement or rule is PASS, FAIL or SKIP; `-o json` prints the object, the text
 * form is `Label: value` fields and one line per requirement (a2a-cli SPEC v0.2 §9.2).
 */
import type { CheckReport } from '../../check/index.js';
import type { TckKit, TckLevel, TckRun } from './tck-kit.js';
import { field, safe } from './task-text.js';

/** A requirement's verdict. */
export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

/** One requirement (the TCK's) or rule (the checklist's). */
export interface RequirementResult {
  /** The kit's requirement id (`CORE-SEND-001`), or the checklist rule's number. */
  id: string;
  title: string | null;
  /** MUST / SHOULD / MAY (the kit's); null for the checklist. */
  level: string | null;
  status: Verdict;
  /** Per transport, as the kit reported it (`jsonrpc: "PASS"`); empty for the checklist. */
  transports: Record<string, string>;
  /** Why it failed (the kit's errors, the checklist's evidence), or why it was skipped. */
  details: string[];
}

/** The whole report. */
export interface ConformanceReport {
  source: 'a2a-tck' | 'concord-checklist';
  /** Says, when the source is the checklist, that this is not the A2A TCK and how to get the kit. */
  notice: string | null;
  /** The agent checked: the kit's `--sut-host`, or the URL the checklist was given. */
  agent: string;
  /** The kit's level; null for the checklist, which has none. */
  level: TckLevel | null;
  /**
   * The kit: the transports asked for (empty: the kit's default, every one the card declares).
   * The checklist: the interfaces it exercised.
   */
  transports: string[];
  /** True when nothing failed (and the kit exited 0). */
  ok: boolean;
  summary: { pass: number; fail: number; skip: number };
  requirements: RequirementResult[];
  /** How the kit ran; null for the checklist. */
  kit: {
    dir: string;
    line: '1.0';
    runner: string;
    arguments: string[];
    exitCode: number;
    report: string;
    junit: string | null;
    /** The kit's own percentages (`overall_compatibility`, `must_compatibility`...), as written. */
    compatibility: Record<string, unknown>;
  } | null;
}

/** What stderr and the checklist report say when no kit was given. */
export function checklistNotice(clone: string): string {
  return (
    "this is NOT the A2A TCK: no --tck was given, so Concord's own conformance checklist " +
    `(the rules of concord check) was run. For the A2A TCK: ${clone}, then pass --tck <dir> ` +
    '(or set A2ACLI_TCK)'
  );
}

function tally(requirements: readonly RequirementResult[]): ConformanceReport['summary'] {
  const summary = { pass: 0, fail: 0, skip: 0 };
  for (const r of requirements)
    summary[r.status === 'PASS' ? 'pass' : r.status === 'FAIL' ? 'fail' : 'skip'] += 1;
  return summary;
}

/** An error the kit recorded, as text. */
function errorText(error: unknown): string {
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/**
 * The kit's report as requirements. PASS stays PASS; SKIPPED is SKIP; NOT TESTED (the kit has no
 * test for it, or none ran) is SKIP with that reason, and left out when it belongs to another
 * level than the one run (the kit lists every requirement it knows); FAIL and any other status
 * are FAIL.
 */
export function fromKit(
  kit: TckKit,
  run: TckRun,
  sutHost: string,
  level: TckLevel,
  transports: string[],
): ConformanceReport {
  const requirements: RequirementResult[] = [];
  for (const [id, entry] of Object.entries(run.report.per_requirement)) {
    const status = String(entry.status ?? '').toUpperCase();
    const reqLevel = typeof entry.level === 'string' ? entry.level.toUpperCase() : null;
    const notTested = status === 'NOT TESTED' || status === 'NOT_TESTED';
    if (notTested && level !== 'all' && reqLevel !== null && reqLevel !== level.toUpperCase()) continue;
    const verdict: Verdict =
      status === 'PASS' ? 'PASS' : status === 'SKIPPED' || status === 'SKIP' || notTested ? 'SKIP' : 'FAIL';
    const details = notTested
      ? ['not tested: the kit ran no test for it against this agent']
      : (entry.errors ?? []).map(errorText);
    requirements.push({
      id,
      title: typeof entry.description === 'string' && entry.description !== '' ? entry.description : null,
      level: reqLevel,
      status: verdict,
      transports: { ...(entry.transports ?? {}) },
      details,
    });
  }
  const summary = tally(requirements);
  const compatibility: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(run.report.summary ?? {}))
    if (key.endsWith('_compatibility')) compatibility[key] = value;
  return {
    source: 'a2a-tck',
    notice: null,
    agent: sutHost,
    level,
    transports,
    ok: summary.fail === 0 && run.exitCode === 0,
    summary,
    requirements,
    kit: {
      dir: kit.dir,
      line: kit.line,
      runner: kit.runner,
      arguments: run.args,
      exitCode: run.exitCode,
      report: run.reportPath,
      junit: run.junitPath,
      compatibility,
    },
  };
}

/** The checklist's report (src/check) as requirements: one per rule. */
export function fromChecklist(report: CheckReport, notice: string): ConformanceReport {
  const requirements = report.rules.map((rule): RequirementResult => {
    const status: Verdict = rule.outcome === 'pass' ? 'PASS' : rule.outcome === 'fail' ? 'FAIL' : 'SKIP';
    const details =
      rule.outcome === 'fail'
        ? rule.failures.map(
            (f) => `${f.where}: ${f.expected}${f.received === undefined ? '' : `; received: ${f.received}`}`,
          )
        : rule.outcome === 'skip'
          ? [...rule.skipped]
          : [];
    return { id: String(rule.id), title: rule.title, level: null, status, transports: {}, details };
  });
  return {
    source: 'concord-checklist',
    notice,
    agent: report.target,
    level: null,
    transports: [...report.interfaces],
    ok: report.ok,
    summary: tally(requirements),
    requirements,
    kit: null,
  };
}

/** The first line of a detail, cut to a readable length. */
function firstLine(text: string, max = 200): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** One requirement's line, and under a failure (or a skip, with `reasons`) its first details. */
function requirementLines(r: RequirementResult, verbose: boolean): string {
  const name = r.level === null ? r.id : `${r.id} (${r.level})`;
  const per = Object.entries(r.transports)
    .map(([transport, status]) => `${transport} ${status}`)
    .join(', ');
  const title = r.title === null ? '' : `  ${r.title.replace(/\s*[\r\n]+\s*/g, ' ')}`;
  let out = `${r.status.padEnd(4)}  ${name}${title}${per === '' ? '' : `  [${per}]`}`;
  const shown = r.status === 'FAIL' || verbose ? r.details.slice(0, r.status === 'FAIL' ? 3 : 1) : [];
  for (const detail of shown) out += `\n      ${firstLine(detail)}`;
  if (r.status === 'FAIL' && r.details.length > shown.length)
    out += `\n      ... and ${r.details.length - shown.length} more`;
  return safe(out);
}

/** The report as text: fields, then one line per requirement, then the counts and the result. */
export function reportText(report: ConformanceReport, verbose = false): string {
  let out = field('Source', report.source);
  if (report.notice !== null) out += field('Notice', report.notice);
  out += field('Agent', report.agent);
  if (report.kit !== null) {
    out += field('Kit', `${report.kit.dir} (the ${report.kit.line} line, run with ${report.kit.runner})`);
    out += field('Level', report.level ?? 'all');
    out += field(
      'Transports',
      report.transports.length === 0
        ? "the kit's default: every one the card declares"
        : report.transports.join(', '),
    );
  } else for (const label of report.transports) out += field('Interface', label);
  out += `Requirements: ${report.requirements.length}\n`;
  for (const r of report.requirements) out += `${requirementLines(r, verbose)}\n`;
  out += '\n';
  out += field('Passed', report.summary.pass);
  out += field('Failed', report.summary.fail);
  out += field('Skipped', report.summary.skip);
  if (report.kit !== null) {
    out += field('Kit exit code', report.kit.exitCode);
    out += field('Report', report.kit.report);
    if (report.kit.junit !== null) out += field('JUnit', report.kit.junit);
  }
  out += field('Result', report.ok ? 'PASS' : 'FAIL');
  return out;
}
