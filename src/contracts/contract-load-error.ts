/**
 * The error of a contract declaration that cannot be served. Every problem of the section is
 * collected before throwing, so one load reports them all, each at its JSON Pointer.
 */

/** One thing wrong with a declaration. */
export interface ContractLoadProblem {
  /** The contract concerned; '' for section-level problems such as `allowFreeform`. */
  contract: string;
  /** JSON Pointer into the section, e.g. `/contracts/research.request/input`. */
  field: string;
  message: string;
}

/** Thrown by `compileContracts` when a declaration is broken. */
export class ContractLoadError extends Error {
  /** The agent whose section was compiled. */
  readonly agentId: string;
  readonly problems: readonly ContractLoadProblem[];

  constructor(agentId: string, problems: readonly ContractLoadProblem[]) {
    const list = problems.map((p) => `${p.field || '/'}: ${p.message}`).join('; ');
    super(`Agent "${agentId}" declares invalid contracts: ${list}`);
    this.name = 'ContractLoadError';
    this.agentId = agentId;
    this.problems = problems;
  }
}
