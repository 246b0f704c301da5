/**
 * How the host's agents reach agents on other hosts (decision 0031): a URL target
 * of `context.agents.send` goes over A2A with Concord's client. The client resolves the remote
 * card (SSRF-guarded: private, loopback and link-local targets only when the host config's
 * `outbound` allows them), and the remote's published contracts (decision 0018) gate the message
 * here, before anything leaves the host: a refusal is the A2AError the remote's own gate would
 * answer, and the remote never sees the message.
 */
import { A2AClient, CardCache, type A2AConnectOptions } from '../client/index.js';
import type { Message, SendMessageResponse } from '../protocol/index.js';
import type { AgentDescription } from '../server/index.js';
import type { OutboundConfig } from './host-config.js';
import type { Context } from '../telemetry/index.js';

/** Sends to and describes agents by URL. */
export interface RemoteAgents {
  send(
    url: string,
    message: Message,
    /** `trace`: the context the client's CLIENT span is made under (decision 0157). */
    options: { signal?: AbortSignal | undefined; trace?: Context | undefined },
  ): Promise<SendMessageResponse>;
  describe(url: string, options: { signal?: AbortSignal | undefined }): Promise<AgentDescription>;
}

/** The remote side of agent-to-agent send for a host's `outbound` settings. */
export function createRemoteAgents(outbound: OutboundConfig = {}): RemoteAgents {
  // One cache for the host: cards are reused while fresh (RFC 9111), not fetched per send.
  const cardCache = new CardCache();
  const connect = (
    url: string,
    signal: AbortSignal | undefined,
    extensions: readonly string[] = [],
  ): Promise<A2AClient> => {
    const options: A2AConnectOptions = {
      cardCache,
      // The extensions a message lists are activated on its request (A2A-Extensions, A2A 1.0 §3.2.6).
      ...(extensions.length === 0 ? {} : { extensions }),
      ...(outbound.allowPrivateNetworks === undefined
        ? {}
        : { allowPrivateNetworks: outbound.allowPrivateNetworks }),
      ...(outbound.allowedHosts === undefined ? {} : { allowedHosts: outbound.allowedHosts }),
      ...(outbound.timeoutMs === undefined ? {} : { timeoutMs: outbound.timeoutMs }),
      ...(signal === undefined ? {} : { signal }),
    };
    return A2AClient.connect(url, options);
  };
  return {
    async send(url, message, { signal, trace }) {
      const client = await connect(url, signal, message.extensions);
      try {
        const contracts = await client.contracts();
        // The remote's gate, here: throws ContractRefusedError (an InvalidParamsError) on refusal.
        if (contracts.published) contracts.check(message);
        return await client.sendMessage({ message }, { signal, trace });
      } finally {
        client.close();
      }
    },
    async describe(url, { signal }) {
      const client = await connect(url, signal);
      try {
        const contracts = await client.contracts();
        return {
          name: client.card.name,
          description: client.card.description,
          allowFreeform: contracts.allowFreeform,
          contracts: [...contracts.list],
        };
      } finally {
        client.close();
      }
    },
  };
}
