/**
 * Public entry of the conformance check (decision 0046): `checkAgent(url)`
 * exercises a live agent over every interface its card declares and judges it against the
 * conformance checklist of src/check/rules.ts; `formatCheckReport` renders the verdicts as a table. Uses the public
 * client and raw HTTP (through the client's SSRF guard) only.
 */
export { checkAgent, type CheckOptions } from './check-agent.js';
export type { CheckReport, Evidence, RuleOutcome, RuleResult } from './check-report.js';
export { formatCheckReport } from './format-report.js';
export { CONFORMANCE_RULES, type ConformanceRule } from './rules.js';
