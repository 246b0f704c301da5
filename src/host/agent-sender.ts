/**
 * Agent-to-agent send on the host (the seed's `sessions_send`): an executor calls
 * `context.agents.send(target, input)`. A host agent id is delivered in process, through the
 * target's own request handler, so its contract gate, approvals and skill checks run exactly as
 * for a remote caller; the sender acts as the principal `agent:<its id>` (decision 0020). A URL is
 * sent over A2A with the client, after checking the payload against the contracts the remote
 * card publishes (remote-agents.ts, decision 0031). Each send carries on the agent-to-agent hop
 * count of the message being handled, and is refused past the host's limit (agent-hops.ts,
 * decision 0148). The sends are traced under the execution that makes them (decision 0157): a
 * URL send's client span carries `traceparent` to the remote; an in-process send gets a CLIENT
 * span and, below it, a SERVER span standing for the target's side, the `call.trace` its
 * execution is traced under.
 */
import { randomUUID } from 'node:crypto';
import { createContractMessage } from '../contracts/index.js';
import { A2AError, type Message } from '../protocol/index.js';
import { JSON_RPC_METHOD_NAMES } from '../protocol/internal.js';
import type { AgentMessageInput, AgentSender, CallContext, RequestHandler } from '../server/internal.js';
import {
  DEFAULT_MAX_AGENT_HOPS,
  nextHops,
  NO_HOPS,
  readHops,
  withHops,
  type AgentHops,
} from './agent-hops.js';
import type { RemoteAgents } from './remote-agents.js';
import {
  activeContext,
  ATTR,
  endSpan,
  IN_PROCESS_BINDING,
  SpanKind,
  startSpan,
  withSpan,
  type Context,
} from '../telemetry/index.js';

/** Options of `createAgentSender`. */
export interface AgentSenderOptions {
  /** The sending agent's id. */
  from: string;
  /** Finds a host agent's request handler by id. */
  local: (id: string) => RequestHandler | undefined;
  /** Sends to (and describes) URLs; without it, URL targets are refused. */
  remote?: RemoteAgents | undefined;
  /** The host's agent hop limit, read at each send so a reload applies (default 8, decision 0148). */
  maxHops?: (() => number) | undefined;
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
      correlationId: input.correlationId,
      ...ids,
    });
  }
  return { ...input, ...ids };
}

function isMessage(input: Exclude<AgentMessageInput, string>): input is Message {
  return 'parts' in input && Array.isArray(input.parts);
}

const isUrl = (target: string): boolean => /^https?:\/\//i.test(target);

/** The sender an agent's executors get as `context.agents`: bound per message to its hops. */
export function createAgentSender(options: AgentSenderOptions): AgentSender {
  return new HostAgentSender(options, NO_HOPS);
}

/**
 * A sender for the hops of one message. The hops were checked when the message was admitted
 * (admitHops); one that still cannot be read is kept as its error and thrown by every send, so a
 * chain never restarts from zero by accident.
 */
class HostAgentSender implements AgentSender {
  constructor(
    private readonly options: AgentSenderOptions,
    private readonly carried: AgentHops | A2AError,
    private readonly trace?: Context,
  ) {}

  forMessage(message: Message, trace?: Context): AgentSender {
    let carried: AgentHops | A2AError;
    try {
      carried = readHops(message);
    } catch (error) {
      if (!(error instanceof A2AError)) throw error;
      carried = error;
    }
    return new HostAgentSender(this.options, carried, trace);
  }

  async send(
    target: string,
    input: AgentMessageInput,
    // `trace` (beyond AgentSender's options): the parent of this one send, e.g. the model's tool call.
    sendOptions: {
      contextId?: string;
      taskId?: string;
      signal?: AbortSignal;
      trace?: Context | undefined;
    } = {},
  ): ReturnType<AgentSender['send']> {
    const { options } = this;
    if (this.carried instanceof A2AError) throw this.carried;
    // Refused here, before anything is built or sent, when the chain is at the limit.
    const hops = nextHops(this.carried, options.from, target, options.maxHops?.() ?? DEFAULT_MAX_AGENT_HOPS);
    const message = withHops(toMessage(input, sendOptions), hops);
    // Without a bound execution (a sender used outside a request), the caller's active context.
    const parent = sendOptions.trace ?? this.trace ?? activeContext();
    if (isUrl(target)) {
      return this.remote(target).send(target, message, { signal: sendOptions.signal, trace: parent });
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
      // are the ones it activates (A2A 1.0 §4.6.1), as they would be over HTTP.
      activatedExtensions: (message.extensions ?? []).filter((uri) =>
        (handler.agentCard.capabilities.extensions ?? []).some((declared) => declared.uri === uri),
      ),
      user: { name: `agent:${options.from}`, scopes: [] },
      signal: sendOptions.signal,
    };
    return this.inProcess(parent, target, call, () => handler.sendMessage({ message }, call));
  }

  /**
   * Runs an in-process delivery between a CLIENT span (the sender's side) and a SERVER span (the
   * target's, as if it had come over a wire), so one trace shows both agents' work.
   */
  private async inProcess<T>(
    parent: Context,
    target: string,
    call: CallContext,
    deliver: () => Promise<T>,
  ): Promise<T> {
    const name = JSON_RPC_METHOD_NAMES['1.0'].sendMessage;
    const client = startSpan(name, SpanKind.CLIENT, parent);
    const clientContext = withSpan(parent, client);
    const server = startSpan(name, SpanKind.SERVER, clientContext);
    if (client.isRecording()) {
      const attributes = {
        [ATTR.method]: name,
        [ATTR.binding]: IN_PROCESS_BINDING,
        [ATTR.protocolVersion]: call.version,
        [ATTR.agentName]: target,
      };
      client.setAttributes(attributes);
      server.setAttributes(attributes);
    }
    call.trace = withSpan(clientContext, server);
    try {
      const result = await deliver();
      server.end();
      client.end();
      return result;
    } catch (error) {
      endSpan(server, error, SpanKind.SERVER);
      endSpan(client, error, SpanKind.CLIENT);
      throw error;
    }
  }

  async describe(
    target: string,
    describeOptions: { signal?: AbortSignal } = {},
  ): ReturnType<NonNullable<AgentSender['describe']>> {
    if (!isUrl(target)) {
      throw new A2AError('InvalidParamsError', `describe takes the URL of a remote agent, got "${target}"`, {
        violations: [{ field: 'target', description: 'not an http or https URL' }],
      });
    }
    return this.remote(target).describe(target, { signal: describeOptions.signal });
  }

  private remote(target: string): RemoteAgents {
    if (this.options.remote === undefined) {
      throw new A2AError(
        'UnsupportedOperationError',
        `Agent "${this.options.from}" may not send to URLs (${target})`,
      );
    }
    return this.options.remote;
  }
}
