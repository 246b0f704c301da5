/**
 * The delivery gate (OpenClaw PR #19293 a2a-contracts.md "Validation behavior"), in the upstream order
 * (OpenClaw PR #19293, `sessions_send` in a2a-contracts; decision 0016):
 *
 * | message                         | agent                        | result                         |
 * | ------------------------------- | ---------------------------- | ------------------------------ |
 * | envelope, contract declared     | payload valid                | delivered with contract context |
 * | envelope, contract declared     | payload invalid              | rejected, every failure listed |
 * | envelope, contract not declared | declares other contracts     | rejected, available listed     |
 * | envelope, contract not declared | declares none                | delivered best-effort          |
 * | no envelope (free-form)         | allowFreeform true (default) | delivered                      |
 * | no envelope (free-form)         | allowFreeform false          | rejected, available listed     |
 *
 * Rejections are `InvalidParamsError`s (JSON-RPC -32602, REST 400 with ErrorInfo and BadRequest
 * field violations), each violation pointing into the SendMessage request; a refused deprecated
 * contract's warnings ride in the ErrorInfo metadata (decision 0150).
 */
import { A2AError, pointer, type FieldViolation, type Message } from '../protocol/internal.js';
import type { ContractInvocation, ContractViolation, StructuredMessage } from './contract-types.js';
import { scanEnvelopes, type MalformedEnvelope } from './structured-message.js';

/** What the gate needs of an agent's contracts; `ContractSet` is one. */
export interface GateContracts {
  readonly allowFreeform: boolean;
  readonly size: number;
  names(): readonly string[];
  has(name: string): boolean;
  validateInput(name: string, payload: unknown): ContractViolation[];
  /**
   * Validates and gives the value the agent gets (a contract declared with a validator hands over
   * the validator's output; decision 0165). Without it, the payload is delivered as sent.
   */
  parseInput?(name: string, payload: unknown): { violations: ContractViolation[]; value: unknown };
  invocation(name: string, payload: unknown, correlationId?: string): ContractInvocation;
}

/** How a message is delivered. */
export type GateResult =
  | { kind: 'contract'; invocation: ContractInvocation; structured: StructuredMessage }
  | { kind: 'best-effort'; structured: StructuredMessage }
  | { kind: 'freeform' };

const FREEFORM: GateResult = Object.freeze({ kind: 'freeform' });

/** How many contract names an "unknown contract" error lists (upstream `sessions_send`). */
const MAX_LISTED = 10;

/**
 * Decides the delivery of `message` to agent `agentId`, whose contracts are `set` (undefined: the
 * agent has no `a2a` section, so it accepts free text and, best-effort, any envelope). Throws the
 * A2AError the sender gets when the message is refused.
 */
export function gateMessage(set: GateContracts | undefined, agentId: string, message: Message): GateResult {
  const scan = scanEnvelopes(message);
  if (scan.kind === 'none') {
    if (set !== undefined && !set.allowFreeform) throw freeformRefused(agentId, set.names());
    return FREEFORM;
  }
  if (scan.kind === 'malformed') throw malformedEnvelope(agentId, scan.problem);
  const structured = scan.structured;
  if (scan.second !== undefined) throw secondEnvelope(agentId, structured.partIndex, scan.second);
  const name = structured.contract;
  if (set === undefined || !set.has(name)) {
    if (set !== undefined && set.size > 0) throw unknownContract(agentId, structured, set.names());
    // Seed: "Contract name not found, agent has no contracts -> delivered as best-effort".
    return { kind: 'best-effort', structured };
  }
  const { violations, value } =
    set.parseInput !== undefined
      ? set.parseInput(name, structured.payload)
      : { violations: set.validateInput(name, structured.payload), value: structured.payload };
  if (violations.length > 0) {
    // Seed "Deprecation behavior": a refused payload still reports the deprecation warnings.
    const { warnings } = set.invocation(name, structured.payload);
    throw inputRefused(agentId, structured, violations, warnings);
  }
  return {
    kind: 'contract',
    invocation: set.invocation(name, value, structured.correlationId),
    structured,
  };
}

/** The seed's list of names: at most ten, then ` ... (<n> total)`. */
function listNames(names: readonly string[]): string {
  if (names.length <= MAX_LISTED) return names.join(', ');
  return `${names.slice(0, MAX_LISTED).join(', ')} ... (${names.length} total)`;
}

/** Where in the request a member of the envelope lives (a text part has no inner pointer). */
function envelopeField(structured: StructuredMessage, member: string): string {
  const base = `/message/parts/${structured.partIndex}`;
  return structured.carrier === 'text' ? `${base}/text` : pointer(`${base}/data`, member);
}

function freeformRefused(agentId: string, names: readonly string[]): A2AError {
  const message =
    `Agent "${agentId}" requires structured A2A messages (allowFreeform=false). ` +
    `Available contracts: ${names.join(', ') || 'none'}`;
  return new A2AError('InvalidParamsError', message, {
    violations: [{ field: '/message/parts', description: 'no part carries a contract envelope' }],
    metadata: { agentId, availableContracts: names.join(',') },
    data: { agentId, availableContracts: [...names] },
  });
}

function unknownContract(agentId: string, structured: StructuredMessage, names: readonly string[]): A2AError {
  const message = `Agent "${agentId}" does not expose contract "${structured.contract}". Available: ${listNames(names)}`;
  return new A2AError('InvalidParamsError', message, {
    violations: [
      {
        field: envelopeField(structured, 'contract'),
        description: `unknown contract "${structured.contract}"`,
      },
    ],
    metadata: { agentId, contract: structured.contract, availableContracts: names.join(',') },
    data: { agentId, contract: structured.contract, availableContracts: [...names] },
  });
}

function inputRefused(
  agentId: string,
  structured: StructuredMessage,
  errors: ContractViolation[],
  warnings: string[],
): A2AError {
  const name = structured.contract;
  const summary = errors.map((e) => `${e.path || '/'}: ${e.message}`).join('; ');
  const payloadField = envelopeField(structured, 'payload');
  const violations: FieldViolation[] = errors.map((e) =>
    structured.carrier === 'text'
      ? { field: payloadField, description: `${e.keyword}: ${e.message} (at payload ${e.path || '/'})` }
      : { field: `${payloadField}${e.path}`, description: `${e.keyword}: ${e.message}` },
  );
  return new A2AError('InvalidParamsError', `Contract "${name}" input validation failed: ${summary}`, {
    violations,
    metadata: refusalMetadata(agentId, name, warnings),
    data:
      warnings.length > 0
        ? { agentId, contract: name, errors, warnings }
        : { agentId, contract: name, errors },
  });
}

/**
 * The ErrorInfo metadata of a refused contract message. Its deprecation warnings go here, one per
 * line: ErrorInfo is in the error of every binding and version (1.0 JSON-RPC `error.data`, the
 * REST `details`, the gRPC status details, 0.3's `error.data.metadata`), where `data` reaches 0.3
 * only (decision 0150).
 */
function refusalMetadata(agentId: string, contract: string, warnings: string[]): Record<string, string> {
  const metadata: Record<string, string> = { agentId, contract };
  if (warnings.length > 0) metadata.warnings = warnings.join('\n');
  return metadata;
}

function malformedEnvelope(agentId: string, problem: MalformedEnvelope): A2AError {
  return new A2AError(
    'InvalidParamsError',
    `Malformed contract envelope in message part ${problem.partIndex}: ${problem.reason}`,
    { violations: [{ field: problem.field, description: problem.reason }], metadata: { agentId } },
  );
}

function secondEnvelope(agentId: string, first: number, second: number): A2AError {
  const message = `A message invokes at most one contract; parts ${first} and ${second} both carry a contract envelope`;
  return new A2AError('InvalidParamsError', message, {
    violations: [{ field: `/message/parts/${second}`, description: 'second contract envelope' }],
    metadata: { agentId },
  });
}
