/**
 * The server side of the AUMP binding, as a `ServerExtension` (server/server-extension.ts): the
 * card declares AUMP (`required: false`, `params.versions`), and every send is checked before the
 * agent sees it:
 *
 * - no message may embed a full mandate, in any position (mandate-leak.ts), AUMP or not;
 * - a message that carries AUMP (`message.extensions` lists it, or its metadata has the URI key) is
 *   validated as the seed says (activation, reference fields, the hash of a known mandate, and —
 *   Concord — a known mandate's state and revocation). A failure is refused with InvalidParamsError
 *   (-32602, HTTP 400) listing the seed's error strings, each at its JSON Pointer, before any task
 *   exists: the agent never runs and no evidence is written (decision 0056).
 *
 * A message that passed every check (the contract gate and other extensions included) is recorded
 * in evidence under the agent's own mandate, with its A2A messageId, before the agent gets it; if
 * that record cannot be made the send is refused (no evidence, no delivery). The profile is a
 * document at `/.well-known/aump`; the agent's code reaches the runtime as `context.extensions.get(URI)`.
 */
import { A2AError } from '../../protocol/index.js';
import type { AcceptedSend, ServerExtension } from '../../server/index.js';
import { aumpAgentExtension, type A2aValidation } from './a2a-binding.js';
import { AUMP_A2A_EXTENSION_URI, AUMP_PROFILE_PATH } from './constants.js';
import { findEmbeddedMandates } from './mandate-leak.js';
import { aumpProfile } from './profile.js';
import type { AumpRuntime } from './runtime.js';

/** Options of `aumpServerExtension`. */
export interface AumpServerOptions {
  /** The held mandate accepted messages are recorded under (default: the runtime's first). */
  mandateId?: string;
  /** The evidence event type of an accepted AUMP message (default `message_received`). */
  receivedEvent?: string;
  /** The profile's issuer name (default: the card's name). */
  issuerName?: string;
  /** The card declaration's description. */
  description?: string;
}

const LEAK = 'A2A message must not embed full private AUMP mandate';

function refusal(errors: string[], problems: { path: string; message: string }[]): A2AError {
  return new A2AError('InvalidParamsError', `AUMP: ${errors.join('; ')}`, {
    violations: problems.map((p) => ({ field: p.path, description: p.message })),
    metadata: { extension: AUMP_A2A_EXTENSION_URI, errors: errors.join('; ') },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The AUMP extension for an A2A server; see the file comment. */
export function aumpServerExtension(runtime: AumpRuntime, options: AumpServerOptions = {}): ServerExtension {
  const recordUnder = options.mandateId ?? runtime.mandateIds[0];
  const receivedEvent = options.receivedEvent ?? 'message_received';
  // What admit validated, for accepted to record: keyed by the request object both receive.
  const validated = new WeakMap<object, A2aValidation>();
  return {
    declaration: aumpAgentExtension(options.description),
    service: runtime,
    admit({ request, activated }) {
      const { message } = request;
      const carries =
        (message.extensions ?? []).includes(AUMP_A2A_EXTENSION_URI) ||
        isObject(message.metadata?.[AUMP_A2A_EXTENSION_URI]);
      if (!carries) {
        const leaks = findEmbeddedMandates(message, request.metadata);
        if (leaks.length > 0) throw refusal([LEAK], [{ path: leaks[0]!, message: LEAK }]);
        return;
      }
      const validation = runtime.validateA2aMessage(
        { headers: activated ? { 'A2A-Extensions': AUMP_A2A_EXTENSION_URI } : {}, message },
        request.metadata === undefined ? {} : { requestMetadata: request.metadata },
      );
      if (!validation.valid) throw refusal(validation.errors, validation.problems);
      validated.set(request, validation);
    },
    async accepted(send: AcceptedSend) {
      const ref = validated.get(send.request)?.mandate_ref;
      if (ref === undefined || recordUnder === undefined) return;
      const { messageId } = send.message;
      const counterparty = String(ref.mandate_id);
      const hash = String(ref.mandate_hash);
      try {
        await runtime.record(recordUnder, {
          eventType: receivedEvent,
          summary: `Received A2A message ${messageId} under mandate ${counterparty}.`,
          result: 'received',
          downstreamRefs: [
            { protocol: 'a2a', id: messageId },
            { protocol: 'aump', id: counterparty, hash },
          ],
          metadata: {
            a2a_message_id: messageId,
            a2a_task_id: send.taskId,
            a2a_context_id: send.contextId,
            counterparty_mandate_id: counterparty,
            counterparty_mandate_hash: hash,
          },
          transcript: send.message,
        });
      } catch (error) {
        throw new A2AError('InternalError', 'AUMP: the evidence of this message could not be recorded', {
          cause: error,
        });
      }
    },
    documents: {
      [AUMP_PROFILE_PATH]: ({ card }) =>
        aumpProfile(card, options.issuerName === undefined ? {} : { issuerName: options.issuerName }),
    },
  };
}
