/**
 * The contract context a target agent is given for a delivered contract message (seed "Contract
 * context injection"), line for line as upstream builds it (OpenClaw PR #19293, the
 * `extraSystemPrompt` of `sessions_send`; decision 0016), so prompts written for either read the same.
 */
import type { ContractInvocation } from './contract-types.js';

/** Options of `contractContextText`. */
export interface ContractContextOptions {
  /** Longest payload JSON shown before it is cut and marked `... (truncated)`; default 4000. */
  maxPayloadChars?: number;
}

/** Upstream's payload cut: long payloads would crowd out the agent's own instructions. */
export const DEFAULT_MAX_PAYLOAD_CHARS = 4000;

/**
 * System-prompt lines for an invocation: the contract, its description, the compact input
 * payload, the correlation id and the expected output schema (each line only when it has content).
 */
export function contractContextText(
  invocation: ContractInvocation,
  options: ContractContextOptions = {},
): string {
  const max = options.maxPayloadChars ?? DEFAULT_MAX_PAYLOAD_CHARS;
  if (!Number.isInteger(max) || max < 0) {
    throw new RangeError(`maxPayloadChars must be a non-negative integer, got ${String(max)}`);
  }
  const lines = [`Structured A2A contract invocation: "${invocation.name}".`];
  if (invocation.description) lines.push(`Contract description: ${invocation.description}`);
  // JSON.stringify(undefined) is undefined; upstream shows it as null.
  const payload = JSON.stringify(invocation.payload) ?? 'null';
  lines.push(`Input payload: ${payload.length > max ? `${payload.slice(0, max)}... (truncated)` : payload}`);
  if (invocation.correlationId) lines.push(`Correlation ID: ${invocation.correlationId}`);
  if (invocation.outputSchema !== undefined) {
    lines.push(
      'Expected output schema (respond with JSON matching this schema):',
      JSON.stringify(invocation.outputSchema, null, 2),
    );
  }
  return lines.join('\n');
}
