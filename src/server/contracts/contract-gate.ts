/**
 * Typed message contracts as the server sees them (OpenClaw PR #19293 a2a-contracts.md): a gate that admits or
 * refuses each incoming message before the agent sees it, and a check of the agent's reply against
 * the contract's output schema before it leaves. The server defines only this seam; the schemas,
 * the validator and the seed's exact rules live in `concord-a2a/contracts`, whose contract sets
 * implement it.
 */
import type { ContractInvocation, OutputPolicy } from '../../contracts/internal.js';
import { replyValues } from '../../contracts/reply-values.js';
import { A2AError, type Artifact, type Message, type Metadata, type Part } from '../../protocol/index.js';
import {
  ATTR,
  endSpan,
  errorType,
  instruments,
  SPAN,
  SpanKind,
  startSpan,
  type Context,
} from '../../telemetry/index.js';

/** A message admitted under a contract: what the agent is told about the invocation. */
export type { ContractInvocation };

/** One way a reply misses the contract's output schema. */
export interface OutputViolation {
  /** JSON Pointer into the reply value. */
  path: string;
  keyword: string;
  message: string;
}

/** The contracts of one agent, as the server uses them. */
export interface ContractGate {
  /**
   * Admits a message: the invocation for a valid contract message, undefined for free-form (or
   * best-effort) delivery. Throws the A2AError the client gets for a refused message.
   */
  admit(message: Message): ContractInvocation | undefined;
  /** Checks a reply value against the named contract's output schema. */
  checkOutput(contract: string, value: unknown): OutputViolation[];
  /** `fail` (default): a reply that misses the schema fails the task; `warn`: it is flagged only. */
  readonly outputPolicy?: OutputPolicy | undefined;
  /** The policy of one contract, when contracts differ (decision 0030); wins over `outputPolicy`. */
  outputPolicyOf?(contract: string): OutputPolicy;
}

/**
 * `gate.admit(message)` in a `concord.contract.check` span below the call (decision 0157). A
 * refusal ends the span in error (its own check failed, whoever's fault) and counts in
 * `concord.contract.refusals` by error type.
 */
export function admitTraced(
  gate: ContractGate,
  message: Message,
  trace: Context | undefined,
): ContractInvocation | undefined {
  const span = startSpan(SPAN.contract, SpanKind.INTERNAL, trace);
  try {
    const invocation = gate.admit(message);
    if (span.isRecording()) {
      span.setAttribute(ATTR.contractOutcome, invocation === undefined ? 'free-form' : 'admitted');
      if (invocation !== undefined) {
        span.setAttribute(ATTR.contractName, invocation.name);
        if (invocation.version !== undefined) span.setAttribute(ATTR.contractVersion, invocation.version);
      }
    }
    span.end();
    return invocation;
  } catch (error) {
    const meters = instruments();
    if (meters.on) meters.contractRefusals.add(1, { [ATTR.errorType]: errorType(error) });
    if (span.isRecording()) span.setAttribute(ATTR.contractOutcome, 'refused');
    endSpan(span, error);
    throw error;
  }
}

/** The output policy in force for `contract`. */
export function outputPolicyFor(gate: ContractGate, contract: string): OutputPolicy {
  return gate.outputPolicyOf?.(contract) ?? gate.outputPolicy ?? 'fail';
}

/** Metadata key under which results carry the contract, its version and its warnings. */
export const CONTRACT_METADATA_KEY = 'concord/contract';

/** The metadata a result carries for an invocation. */
export function invocationMetadata(invocation: ContractInvocation): Metadata {
  const entry: Record<string, unknown> = { name: invocation.name };
  if (invocation.version !== undefined) entry.version = invocation.version;
  if (invocation.correlationId !== undefined) entry.correlationId = invocation.correlationId;
  if (invocation.warnings.length > 0) entry.warnings = invocation.warnings;
  return { [CONTRACT_METADATA_KEY]: entry };
}

/** Checks reply parts; returns every violation, paths prefixed with the part index. */
export function checkReplyParts(
  gate: ContractGate,
  contract: string,
  parts: readonly Part[],
): OutputViolation[] {
  const found: OutputViolation[] = [];
  for (const { index, value } of replyValues(parts)) {
    for (const violation of gate.checkOutput(contract, value)) {
      found.push(Object.assign({}, violation, { path: `/parts/${index}${violation.path}` }));
    }
  }
  return found;
}

/** The error of a reply that misses its contract (the task fails with this text). */
export function outputError(contract: string, violations: OutputViolation[]): A2AError {
  const summary = violations.map((v) => `${v.path || '/'}: ${v.message}`).join('; ');
  return new A2AError(
    'InvalidAgentResponseError',
    `The agent's reply does not satisfy contract "${contract}" output: ${summary}`,
    { metadata: { contract } },
  );
}

/** An artifact flagged (warn policy) with the violations it has. */
export function flagArtifact(artifact: Artifact, violations: OutputViolation[]): Artifact {
  return Object.assign({}, artifact, {
    // eslint-disable-next-line no-restricted-syntax -- open-ended metadata: a spread keeps a `__proto__` key plain data, where Object.assign would run its setter
    metadata: { ...artifact.metadata, [`${CONTRACT_METADATA_KEY}/outputViolations`]: violations },
  });
}
