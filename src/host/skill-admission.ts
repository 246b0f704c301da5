/**
 * Per-skill security (A2A 1.0 §4.4.5 `AgentSkill.securityRequirements`; digest §10.3: "skills may
 * carry their own security requirements"). A2A messages do not name a skill, so Concord reads the
 * skill a message invokes from, in order: a structured contract message (a data part with
 * `_a2a: true` and `contract`, seeds/a2a-contracts.md; the contract's skill has its name), then
 * `metadata.skillId` on the message or the request (decision 0015). A message naming no skill
 * needs only the agent's requirements, which the transport already enforced.
 */
import type { AgentDefinition } from '../card/index.js';
import { A2AError, type Message, type SendMessageRequest } from '../protocol/index.js';
import type { CallContext } from '../server/index.js';
import { authorize } from './security/index.js';

/** The id of the skill a message invokes, if it names one. */
export function invokedSkill(request: SendMessageRequest): string | undefined {
  for (const part of request.message.parts) {
    const data = 'data' in part ? part.data : undefined;
    if (isObject(data) && data._a2a === true && typeof data.contract === 'string') return data.contract;
  }
  return skillIdOf(request.message) ?? stringField(request.metadata, 'skillId');
}

function skillIdOf(message: Message): string | undefined {
  return stringField(message.metadata, 'skillId');
}

function stringField(value: unknown, key: string): string | undefined {
  if (!isObject(value)) return undefined;
  const field = value[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `admitMessage` check of a host agent: refuses a skill the caller may not use. */
export function skillAdmission(
  definition: AgentDefinition,
  request: SendMessageRequest,
  call: CallContext,
): void {
  const id = invokedSkill(request);
  if (id === undefined) return;
  const requirements = definition.skills.find((each) => each.id === id)?.security;
  if (requirements === undefined || requirements.length === 0) return;
  try {
    // Re-evaluated against the schemes the transport already verified: 401 when one is missing,
    // 403 when its scopes fall short.
    authorize(call.user, requirements);
  } catch (error) {
    if (error instanceof A2AError) {
      throw new A2AError(error.type, `Skill "${id}": ${error.message}`, {
        metadata: { ...error.metadata, skillId: id },
      });
    }
    throw error;
  }
}
