/**
 * The shapes of the contracts layer (OpenClaw PR #19293 a2a-contracts.md): what an agent declares, what a
 * failed validation reports, and what a delivered contract message tells the agent. The host's
 * `ContractDefinition` / `A2ASection` (src/card/agent-definition.ts) fit these structurally, so a
 * loaded agent definition can be compiled as it is.
 */

/** A JSON Schema (draft 2020-12) as written: an object, or `true` / `false`. */
export type ContractSchema = Readonly<Record<string, unknown>> | boolean;

/** One contract as declared (OpenClaw PR #19293 a2a-contracts.md "Contract schema reference"); all optional. */
export interface ContractSpec {
  /** What the contract does, for humans and for the target agent's prompt. */
  description?: string;
  /** Schema of the payload the agent expects. Absent: any payload is accepted. */
  input?: ContractSchema;
  /** Schema of the reply the agent returns. Absent: any reply is accepted. */
  output?: ContractSchema;
  /** The agent's owner approves each invocation before the agent sees it (default false). */
  requiresApproval?: boolean;
  /** Version identifier such as "2.1.0"; carried, never compared. */
  version?: string;
  /** Still served, but every invocation carries deprecation warnings. */
  deprecated?: boolean;
  /** Replaces the default "This contract is deprecated." warning. */
  deprecatedMessage?: string;
  /** Name of the replacing contract of the same agent. */
  supersededBy?: string;
  /** What a reply that misses `output` does; overrides the section's `outputPolicy` (decision 0030). */
  outputPolicy?: OutputPolicy;
}

/**
 * What happens to a reply that misses its contract's output schema (decision 0030):
 * `fail` (default) fails the task with the violations; `warn` lets the reply through, flagged with
 * them in its metadata (`concord/contract/outputViolations`).
 */
export type OutputPolicy = 'fail' | 'warn';

/** A contract with its name: the list form of a declaration, and what `defineContract` returns. */
export interface NamedContractSpec extends ContractSpec {
  /** Unique within the agent, e.g. `research.request`. */
  name: string;
}

/**
 * An agent's `a2a` section. `contracts` is the seed's name -> contract map, or a list of named
 * contracts (the only form in which a repeated name can reach this layer; see decision 0016).
 */
export interface ContractSection {
  /** Plain (non-contract) messages accepted; default true (seed "Plain text messages"). */
  allowFreeform?: boolean;
  /** Default output policy of the agent's contracts (default `fail`); a contract may override it. */
  outputPolicy?: OutputPolicy;
  contracts?: Readonly<Record<string, ContractSpec>> | readonly NamedContractSpec[];
}

/** One way a value misses a schema. */
export interface ContractViolation {
  /** JSON Pointer (RFC 6901) of the failing value within the validated value; '' is the root. */
  path: string;
  /** The JSON Schema keyword that failed, e.g. `required`, `enum`, `format`. */
  keyword: string;
  /** What was wrong, naming the limit and the value, e.g. `must be >= 1, got 0`. */
  message: string;
}

/**
 * A message admitted under a contract: everything the target agent is told about the invocation
 * (seed "Contract context injection"), plus the approval flag and deprecation warnings.
 */
export interface ContractInvocation {
  /** The contract's name. */
  name: string;
  description?: string;
  version?: string;
  /**
   * The validated input payload: exactly as sent, or, for a contract declared with a validator,
   * what the validator made of it (defaults filled in, transforms applied; decision 0165).
   */
  payload: unknown;
  correlationId?: string;
  /** The contract's output schema, when it declares one. */
  outputSchema?: ContractSchema;
  requiresApproval: boolean;
  /** Deprecation warnings (seed "Deprecation behavior"); empty when the contract is current. */
  warnings: string[];
}

/** A contract envelope found in a message (seed "Sending structured messages"). */
export interface StructuredMessage {
  /** The contract name the sender asked for. */
  contract: string;
  payload: unknown;
  correlationId?: string;
  /** Index of the message part that carries the envelope. */
  partIndex: number;
  /** `text`: the part's text is the envelope's JSON; `data`: the part's data is the envelope. */
  carrier: 'text' | 'data';
}

/** Media type of a data part whose data is a contract envelope (decision 0016). */
export const CONTRACT_MEDIA_TYPE = 'application/vnd.concord.contract+json';

/** The warning of a deprecated contract without its own message (seed "Contract schema reference"). */
export const DEFAULT_DEPRECATION_MESSAGE = 'This contract is deprecated.';
