/**
 * Which skill a message invokes. A2A messages do not name a skill, so Concord reads it, in order,
 * from a structured contract message (a data part with `_a2a: true` and `contract`,
 * OpenClaw PR #19293 a2a-contracts.md; the contract's skill has its name), then from `metadata.skillId` on the
 * message or the request (decision 0015). Per-skill security (the host) and per-skill input modes
 * (input-modes.ts, decision 0141) both use it.
 */
import type { SendMessageRequest } from '../../protocol/index.js';

/** The id of the skill a message invokes, if it names one. */
export function invokedSkill(request: SendMessageRequest): string | undefined {
  for (const part of request.message.parts) {
    const data = 'data' in part ? part.data : undefined;
    if (isObject(data) && data._a2a === true && typeof data.contract === 'string') return data.contract;
  }
  return stringField(request.message.metadata, 'skillId') ?? stringField(request.metadata, 'skillId');
}

function stringField(value: unknown, key: string): string | undefined {
  if (!isObject(value)) return undefined;
  const field = value[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
