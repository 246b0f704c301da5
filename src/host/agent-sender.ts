/**
 * Agent-to-agent send on the host (issue 4 item 9; the seed's `sessions_send`): an executor calls
 * `context.agents.send(target, input)`. A host agent id is delivered in process, through the
 * target's own request handler, so its contract gate, approvals and skill checks run exactly as
 * for a remote caller; the sender acts as the principal `agent:<its id>` (decision 0020). A URL is
 * sent over A2A with the client, after checking the payload against the contracts the remote
 * card publishes (remote-agents.ts, decision 0031).
 */
import { randomUUID } from 'node:crypto';
import { createContractMessage } from '../contracts/index.js';
import { A2AError, type Message } from '../protocol/index.js';
import type { AgentMessageInput, AgentSender, CallContext, RequestHandler } from '../server/index.js';
import type { RemoteAgents } from './remote-agents.js';

/** Options of `createAgentSender`. */
export interface AgentSenderOptions {
  /** The sending agent's id. */
  from: string;
  /** Finds a host agent's request handler by id. */
  local: (id: string) => RequestHandler | undefined;
  /** Sends to (and describes) URLs; without it, URL targets are refused. */
  remote?: RemoteAgents;
}

/** The message an input stands for. */
export function toMessage(
  input: AgentMessageInput,
  options: { contextId?: string; taskId?: string },
): Message {
  const ids = {
    ...(options.contextId === undefined ? {} : { contextId: options.contextId }),
    ...(options.taskId === undefined ? {} : { taskId: options.taskId }),
  };
  if (typeof input === 'string') {
    return { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: input }], ...ids };
  }
  if (!isMessage(input)) {
    return createContractMessage({ name: input.contract }, input.payload, {
      ...(input.correlationId === undefined ? {} : { correlationId: input.correlationId }),
      ...ids,
    });
  }
  return { ...input, ...ids };
}

function isMessage(input: Exclude<AgentMessageInput, string>): input is Message {
  return 'parts' in input && Array.isArray(input.parts);
}

const isUrl = (target: string): boolean => /^https?:\/\//i.test(target);

/** The sender an agent's executors get as `context.agents`. */
export function createAgentSender(options: AgentSenderOptions): AgentSender {
  const remote = (target: string): RemoteAgents => {
    if (options.remote === undefined) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Agent "${options.from}" may not send to URLs (${target})`,
      );
    }
    return options.remote;
  };
  return {
    async send(target, input, sendOptions = {}) {
      const message = toMessage(input, sendOptions);
      if (isUrl(target)) {
        return remote(target).send(
          target,
          message,
          sendOptions.signal === undefined ? {} : { signal: sendOptions.signal },
        );
      }
      const handler = options.local(target);
      if (handler === undefined) {
        throw new A2AError('InvalidParamsError', `No agent "${target}" on this host`, {
          violations: [{ field: 'target', description: 'not the id of an agent on this host, nor a URL' }],
        });
      }
      const call: CallContext = {
        version: '1.0',
        tenant: '',
        // In process there is no header: the extensions the message lists, and the target supports,
        // are the ones it activates (A2A 1.0 §8.2), as they would be over HTTP.
        activatedExtensions: (message.extensions ?? []).filter((uri) =>
          (handler.agentCard.capabilities.extensions ?? []).some((declared) => declared.uri === uri),
        ),
        user: { name: `agent:${options.from}`, scopes: [] },
        ...(sendOptions.signal === undefined ? {} : { signal: sendOptions.signal }),
      };
      return handler.sendMessage({ message }, call);
    },
    async describe(target, describeOptions = {}) {
      if (!isUrl(target)) {
        throw new A2AError(
          'InvalidParamsError',
          `describe takes the URL of a remote agent, got "${target}"`,
          {
            violations: [{ field: 'target', description: 'not an http or https URL' }],
          },
        );
      }
      return remote(target).describe(
        target,
        describeOptions.signal === undefined ? {} : { signal: describeOptions.signal },
      );
    },
  };
}
