/**
 * Contract errors the client raises itself (decision 0032). They are A2AErrors of the catalog type
 * the server would use, so a caller handles a local refusal exactly like the agent's own: a
 * payload refused before sending is the `InvalidParamsError` the target's gate would have
 * answered (same message, same field violations with JSON Pointers into the request), and a reply
 * that misses the output schema is an `InvalidAgentResponseError`. Neither is an
 * `A2AClientError`: nothing came over the wire (`local` is true).
 */
import type { ContractViolation } from '../../contracts/index.js';
import { A2AError, type FieldViolation } from '../../protocol/index.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A contract message the client refused to send: the target's published gate said no. */
export class ContractRefusedError extends A2AError {
  /** Always true: the refusal was decided here, from the agent's published contracts. */
  readonly local = true;
  /** The contract the message invoked. */
  readonly contract: string;
  /** Every way the payload misses the input schema (paths into the payload); [] for other refusals. */
  readonly errors: ContractViolation[];
  /** Deprecation warnings of the contract, when it is deprecated. */
  readonly warnings: string[];
  /** The contracts the agent declares, when the refusal lists them (unknown contract). */
  readonly availableContracts: string[] | undefined;

  /** Wraps the gate's refusal (`gateMessage`), keeping its type, message, violations and data. */
  constructor(refusal: A2AError, contract: string) {
    super(refusal.type, refusal.message, {
      cause: refusal,
      ...(refusal.metadata === undefined ? {} : { metadata: refusal.metadata }),
      ...(refusal.violations === undefined ? {} : { violations: refusal.violations }),
      data: refusal.data,
    });
    this.name = 'ContractRefusedError';
    this.contract = contract;
    const data = isObject(refusal.data) ? refusal.data : {};
    this.errors = Array.isArray(data.errors) ? (data.errors as ContractViolation[]) : [];
    this.warnings = Array.isArray(data.warnings) ? (data.warnings as string[]) : [];
    this.availableContracts = Array.isArray(data.availableContracts)
      ? (data.availableContracts as string[])
      : undefined;
  }
}

/** One reply value that misses the output schema, and where it sits in the response. */
export interface ReplyViolations {
  /** JSON Pointer of the value in the SendMessage response, e.g. `/task/artifacts/0/parts/0/data`. */
  at: string;
  errors: ContractViolation[];
}

/** The agent's reply does not satisfy the contract's output schema (client-side output check). */
export class ContractReplyError extends A2AError {
  /** Always true: the check ran here, on the reply as received. */
  readonly local = true;
  readonly contract: string;
  /** Every violation, paths relative to the reply value that failed. */
  readonly errors: ContractViolation[];
  /** The whole result, for callers who want to look at the reply anyway. */
  readonly result: unknown;

  constructor(contract: string, failures: ReplyViolations[], result: unknown) {
    const violations: FieldViolation[] = failures.flatMap((f) =>
      f.errors.map((e) => ({ field: `${f.at}${e.path}`, description: `${e.keyword}: ${e.message}` })),
    );
    const summary = violations.map((v) => `${v.field}: ${v.description}`).join('; ');
    super(
      'InvalidAgentResponseError',
      `The agent's reply does not satisfy contract "${contract}" output: ${summary}`,
      { violations, metadata: { contract } },
    );
    this.name = 'ContractReplyError';
    this.contract = contract;
    this.errors = failures.flatMap((f) => f.errors);
    this.result = result;
  }
}
