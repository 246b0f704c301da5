/**
 * Agent-to-agent hop counting (decision 0148). Two model agents that answer every
 * message by asking the other would call each other until a model happened to stop; with hops
 * counted the chain ends at a limit, with an error naming it.
 *
 * Every message an agent sends carries, in its metadata under `concord/hops`, how many
 * agent-to-agent sends led to it (`count`) and which agents made them (`chain`, oldest first).
 * The agent handling it continues the count when it sends on, in process and over A2A to other
 * hosts alike (Message `metadata` travels on every binding, A2A 1.0 §4.1.4), and a send that
 * would go past the host's limit is refused before it leaves. A receiving host reads the value as
 * untrusted input (A2A leaves message metadata free-form: "any optional metadata"): its shape and
 * size are checked, and a message already past the receiver's own limit is refused with
 * InvalidParams.
 */
import { A2AError, invalidParams, type Message } from '../protocol/internal.js';

/** The message metadata key of the hop count (Concord's keys are `concord/<name>`, like `concord/contract`). */
export const HOPS_METADATA_KEY = 'concord/hops';

/** The limit when the host config sets none. */
export const DEFAULT_MAX_AGENT_HOPS = 8;

/** The highest limit a host may set, and so the most agent names a chain carries. */
export const MAX_AGENT_HOPS = 64;

/** The longest agent name a chain may carry. */
const MAX_NAME_LENGTH = 128;

/** Agent ids as definitions spell them (schemas/agent-definition.schema.json `agentId`). */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Where the value sits in a send request (JSON Pointer: the key's `/` is written `~1`, RFC 6901). */
const POINTER = `/message/metadata/${HOPS_METADATA_KEY.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The hops that led to a message. */
export interface AgentHops {
  /** How many agent-to-agent sends led to it (0: it came from a client, not an agent). */
  readonly count: number;
  /** The agents that made those sends, oldest first; the earliest are dropped past MAX_AGENT_HOPS. */
  readonly chain: readonly string[];
}

/** A message no agent sent. */
export const NO_HOPS: AgentHops = { count: 0, chain: [] };

/** A send refused because the chain of agent-to-agent sends reached the limit. */
export class AgentHopLimitError extends A2AError {
  /** The limit that was reached. */
  readonly limit: number;
  /** The hop the refused message would have been (or was, when a receiver refused it). */
  readonly hop: number;
  /** The agents of the chain, oldest first. */
  readonly chain: readonly string[];

  constructor(
    message: string,
    facts: { limit: number; hop: number; chain: readonly string[]; violation?: string },
  ) {
    super('InvalidParamsError', message, {
      // ErrorInfo metadata takes strings only (google.rpc.ErrorInfo).
      metadata: {
        maxAgentHops: String(facts.limit),
        hop: String(facts.hop),
        chain: facts.chain.join(' -> '),
      },
      ...(facts.violation === undefined
        ? {}
        : { violations: [{ field: `${POINTER}/count`, description: facts.violation }] }),
    });
    this.name = 'AgentHopLimitError';
    this.limit = facts.limit;
    this.hop = facts.hop;
    this.chain = facts.chain;
  }
}

/** The chain as the errors show it: the names, after a note of those no longer carried. */
function chainText(count: number, names: readonly string[]): string {
  const dropped = count - names.length;
  return `${dropped > 0 ? `(${dropped} earlier) -> ` : ''}${names.join(' -> ')}`;
}

/** What a value is, for an error: its type, never the value itself (it may be large). */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The hops a message carries (NO_HOPS when it carries none). Throws InvalidParamsError naming the
 * field (a JSON Pointer into the send request) when the value is not one Concord writes.
 */
export function readHops(message: Message): AgentHops {
  const value = message.metadata?.[HOPS_METADATA_KEY];
  if (value === undefined) return NO_HOPS;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(
      POINTER,
      `must be an object {count, chain} (the agent hop count), got ${kind(value)}`,
    );
  }
  const { count, chain } = value as Record<string, unknown>;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
    throw invalidParams(`${POINTER}/count`, `must be an integer >= 1, got ${kind(count)}`);
  }
  if (!Array.isArray(chain)) {
    throw invalidParams(`${POINTER}/chain`, `must be an array of agent ids, got ${kind(chain)}`);
  }
  if (chain.length > MAX_AGENT_HOPS) {
    throw invalidParams(
      `${POINTER}/chain`,
      `lists ${chain.length} agents; at most ${MAX_AGENT_HOPS} are carried`,
    );
  }
  if (chain.length > count) {
    throw invalidParams(
      `${POINTER}/chain`,
      `lists ${chain.length} agents for ${count} hop(s): one agent per hop`,
    );
  }
  chain.forEach((name, index) => {
    if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH || !AGENT_NAME.test(name)) {
      throw invalidParams(
        `${POINTER}/chain/${index}`,
        `must be an agent id (letters, digits, '.', '_' or '-', at most ${MAX_NAME_LENGTH} characters), got ${kind(name)}`,
      );
    }
  });
  return { count, chain: chain as string[] };
}

/**
 * The receiving side: a message whose hop metadata is malformed, or whose count is past this
 * host's limit, is refused before it makes a task (InvalidParams, decision 0148).
 */
export function admitHops(message: Message, limit: number): void {
  const hops = readHops(message);
  if (hops.count <= limit) return;
  throw new AgentHopLimitError(
    `Agent hop limit ${limit} exceeded: this message is hop ${hops.count}, after ${chainText(hops.count, hops.chain)}`,
    {
      limit,
      hop: hops.count,
      chain: hops.chain,
      violation: `hop ${hops.count} is past this host's limit of ${limit} agent-to-agent sends`,
    },
  );
}

/**
 * The hops of a message `from` sends to `target` while handling one that arrived with `carried`;
 * throws AgentHopLimitError, naming the chain, when the send would go past `limit`.
 */
export function nextHops(carried: AgentHops, from: string, target: string, limit: number): AgentHops {
  const count = carried.count + 1;
  const chain = [...carried.chain, from.slice(0, MAX_NAME_LENGTH)];
  if (count > limit) {
    throw new AgentHopLimitError(
      `Agent hop limit ${limit} reached: ${chainText(count, chain)}; sending on to "${target}" would be hop ${count}`,
      { limit, hop: count, chain },
    );
  }
  return { count, chain: chain.slice(-MAX_AGENT_HOPS) };
}

/** `message` with its hop metadata set to `hops` (any value it had is Concord's to replace). */
export function withHops(message: Message, hops: AgentHops): Message {
  return {
    ...message,
    metadata: { ...message.metadata, [HOPS_METADATA_KEY]: { count: hops.count, chain: [...hops.chain] } },
  };
}

/** Checks a configured limit; returns the problem in words, or undefined when it is usable. */
export function maxAgentHopsProblem(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_AGENT_HOPS) {
    return undefined;
  }
  return `must be an integer from 1 to ${MAX_AGENT_HOPS}, got ${kind(value)}`;
}
