/** `GetExtendedAgentCard` (A2A 1.0 §3.1.11): the extended card, for authenticated callers only. */
import { A2AError, type AgentCard } from '../../protocol/index.js';
import type { CallContext } from '../call-context.js';
import type { HandlerContext } from './handler-context.js';

/** The extended card, or the error each version gives when there is none or the caller is anonymous. */
export function extendedAgentCard(context: HandlerContext, call: CallContext): AgentCard {
  if (context.card.capabilities.extendedAgentCard !== true) {
    // 0.3 has no capability error for this; its card flag maps to -32007 (A2A 1.0 §3.3.4).
    if (call.version === '0.3') throw new A2AError('ExtendedAgentCardNotConfiguredError');
    throw new A2AError(
      'UnsupportedOperationError',
      'This operation is not supported: this agent declares no extended agent card',
    );
  }
  if (context.extendedAgentCard === undefined) throw new A2AError('ExtendedAgentCardNotConfiguredError');
  if (call.user === undefined)
    throw new A2AError('UnauthenticatedError', 'The extended agent card requires authentication');
  return context.extendedAgentCard;
}
