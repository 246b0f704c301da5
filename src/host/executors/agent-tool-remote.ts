/**
 * Remote targets of `send_to_agent` (decision 0031): an agent named in `a2a.remoteAgents` is known
 * only by its URL until its card is read, so the tool offered to the model is completed per
 * request with what each remote card publishes (description, free-form setting, contracts with
 * their input schemas), read through `context.agents.describe` and kept for a minute. A card that
 * cannot be read leaves the target listed with the reason, so the model can still try, or say why
 * it cannot.
 */
import type { AgentSender } from '../../server/index.js';
import { agentToolSpec, toolContract, type AgentToolTarget, type ResolvedAgentTool } from './agent-tool.js';
import type { ChatTool } from './chat-completion-stream.js';

/** How long a remote card's description is reused before it is read again. */
const DESCRIBED_FOR_MS = 60_000;

async function describeRemote(
  target: AgentToolTarget,
  tool: ResolvedAgentTool,
  agents: AgentSender,
  signal: AbortSignal,
): Promise<AgentToolTarget> {
  const cached = tool.described.get(target.id);
  if (cached !== undefined && Date.now() - cached.at < DESCRIBED_FOR_MS) return cached.target;
  if (agents.describe === undefined) return target;
  try {
    const card = await agents.describe(target.id, { signal });
    const described: AgentToolTarget = {
      id: target.id,
      description: target.description.trim() || card.description,
      allowFreeform: card.allowFreeform,
      contracts: card.contracts.map(({ name, ...spec }) => toolContract(name, spec)),
      remote: true,
    };
    tool.described.set(target.id, { at: Date.now(), target: described });
    return described;
  } catch (error) {
    if (signal.aborted) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const note = `(its card could not be read: ${why})`;
    return { ...target, description: [target.description.trim(), note].filter((t) => t !== '').join(' ') };
  }
}

/** The tool as offered for one request: remote targets described from their cards. */
export async function currentAgentToolSpec(
  tool: ResolvedAgentTool,
  agents: AgentSender,
  signal: AbortSignal,
): Promise<ChatTool> {
  const targets = [...tool.targets.values()];
  if (!targets.some((t) => t.remote === true)) return tool.spec;
  const described = await Promise.all(
    targets.map((t) => (t.remote === true ? describeRemote(t, tool, agents, signal) : t)),
  );
  return agentToolSpec(described);
}
