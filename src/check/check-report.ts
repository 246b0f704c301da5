/**
 * What a conformance check found, per §11 rule: every observation is a pass, a failure with its
 * evidence (what was sent, what came back, what was expected), a warning (a SHOULD, or something
 * a client will trip over), or a reason the rule could not be tested here. A rule fails when any
 * observation failed, passes when at least one passed, and is skipped otherwise (decision 0046).
 */
import { CONFORMANCE_RULES, ruleById } from './rules.js';

/** A rule's verdict. */
export type RuleOutcome = 'pass' | 'fail' | 'skip';

/** One failed (or warned-about) observation. */
export interface Evidence {
  /** Where it was seen: the interface (`JSONRPC 1.0 http://...`) or `card`. */
  where: string;
  /** What the rule asks for, in one sentence. */
  expected: string;
  /** The request, as sent (method, URL, interesting headers, body). */
  sent?: string;
  /** The answer, as received (status, content type, body), or the failure. */
  received?: string;
}

/** The verdict on one §11 rule. */
export interface RuleResult {
  id: number;
  title: string;
  outcome: RuleOutcome;
  /** How many observations passed. */
  passed: number;
  failures: Evidence[];
  warnings: Evidence[];
  /** Why the rule (or part of it) was not tested. */
  skipped: string[];
}

/** The whole report. */
export interface CheckReport {
  /** The URL checked. */
  target: string;
  /** The interfaces exercised, as labels. */
  interfaces: string[];
  rules: RuleResult[];
  /** Counts by outcome. */
  summary: Record<RuleOutcome, number>;
  /** True when no rule failed. */
  ok: boolean;
}

interface Tally {
  passed: number;
  failures: Evidence[];
  warnings: Evidence[];
  skipped: string[];
}

/** Collects observations while the check runs. */
export class CheckRecorder {
  private readonly tallies = new Map<number, Tally>();

  private tally(rule: number): Tally {
    ruleById(rule);
    let tally = this.tallies.get(rule);
    if (tally === undefined) {
      tally = { passed: 0, failures: [], warnings: [], skipped: [] };
      this.tallies.set(rule, tally);
    }
    return tally;
  }

  /** One observation satisfied the rule. */
  pass(rule: number): void {
    this.tally(rule).passed += 1;
  }

  /** One observation broke the rule. */
  fail(rule: number, evidence: Evidence): void {
    this.tally(rule).failures.push(evidence);
  }

  /** Passes when `ok`, fails with `evidence` otherwise; returns `ok`. */
  expect(rule: number, ok: boolean, evidence: () => Evidence): boolean {
    if (ok) this.pass(rule);
    else this.fail(rule, evidence());
    return ok;
  }

  /** Something worth knowing that the rule does not make a failure. */
  warn(rule: number, evidence: Evidence): void {
    this.tally(rule).warnings.push(evidence);
  }

  /** The rule, or part of it, could not be tested; `reason` says why. */
  skip(rule: number, reason: string): void {
    const tally = this.tally(rule);
    if (!tally.skipped.includes(reason)) tally.skipped.push(reason);
  }

  /** True when the rule has any observation or skip reason yet. */
  touched(rule: number): boolean {
    return this.tallies.has(rule);
  }

  /** The report; rules never touched are skipped with `untouched(rule)` as the reason. */
  report(target: string, interfaces: string[], untouched: (rule: number) => string): CheckReport {
    const rules = CONFORMANCE_RULES.map((rule): RuleResult => {
      const tally = this.tallies.get(rule.id) ?? {
        passed: 0,
        failures: [],
        warnings: [],
        skipped: [rule.untestable ?? untouched(rule.id)],
      };
      const outcome: RuleOutcome = tally.failures.length > 0 ? 'fail' : tally.passed > 0 ? 'pass' : 'skip';
      if (outcome === 'skip' && tally.skipped.length === 0) tally.skipped.push(untouched(rule.id));
      return { id: rule.id, title: rule.title, outcome, ...tally };
    });
    const summary = { pass: 0, fail: 0, skip: 0 };
    for (const rule of rules) summary[rule.outcome] += 1;
    return { target, interfaces, rules, summary, ok: summary.fail === 0 };
  }
}
