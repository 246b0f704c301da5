/**
 * Per-skill security (A2A 1.0 §4.4.5 `AgentSkill.securityRequirements`; A2A 1.0 §7.5: authorization may consider the skill; "skills may
 * carry their own security requirements"). A2A messages do not name a skill, so Concord reads the
 * skill a message invokes from, in order: a structured contract message (a data part with
 * `_a2a: true` and `contract`, OpenClaw PR #19293 a2a-contracts.md; the contract's skill has its name), then
 * `metadata.skillId` on the message or the request (decision 0015; `invokedSkill`, in the server
 * layer because input modes use it too). A message naming no skill needs only the agent's
 * requirements, which the transport already enforced.
 */
import type { AgentDefinition } from '../card/index.js';
import { A2AError, type SendMessageRequest } from '../protocol/index.js';
import { invokedSkill, type CallContext } from '../server/index.js';
import { authorize } from './security/index.js';

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
