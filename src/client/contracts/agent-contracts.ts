/**
 * An agent's contracts as a client sees them (decision 0018): read from the card's
 * `urn:concord:a2a-contracts:v1` extension or from the agent's `/contracts` URL, compiled on first
 * use with the same compiler the server uses, so a payload the agent would refuse is refused here,
 * before it is sent, with the same message and the same field violations (decision 0032).
 *
 * The schemas are someone else's: they are only compiled (ajv generates code from them, escaping
 * every value), never fetched further (`$ref` to another document does not resolve and the
 * contracts do not compile), and a card is size-limited by the card fetch.
 */
import {
  compileContracts,
  ContractLoadError,
  contractsOfCard,
  deprecationWarnings,
  gateMessage,
  readPublishedContracts,
  type ContractSet,
  type ContractViolation,
  type GateResult,
  type NamedContractSpec,
  type PublishedContracts,
} from '../../contracts/internal.js';
import { A2AError, type AgentCard, type Message } from '../../protocol/index.js';
import { A2ALocalError } from '../client-errors.js';
import { ContractRefusedError } from './contract-errors.js';

/** Where a client's view of the contracts came from. */
export type ContractsSource = 'card' | 'url' | 'none';

/** The contracts an agent publishes; see the file comment. */
export class AgentContracts {
  /** The agent's name (its id when read from `/contracts`), as refusals name it. */
  readonly agentName: string;
  /** `card`: the card's extension; `url`: the `/contracts` document; `none`: nothing published. */
  readonly source: ContractsSource;
  /** Whether the agent takes plain (non-contract) messages. */
  readonly allowFreeform: boolean;
  /** The contracts in declaration order, as published. */
  readonly list: readonly NamedContractSpec[];
  private compiled: ContractSet | undefined;

  constructor(agentName: string, source: ContractsSource, published: PublishedContracts) {
    this.agentName = published.agentId ?? agentName;
    this.source = source;
    this.allowFreeform = published.allowFreeform;
    this.list = Object.freeze(published.contracts.map((c) => Object.freeze({ ...c })));
  }

  /** True when the agent publishes contracts (a Concord agent with an `a2a` section). */
  get published(): boolean {
    return this.source !== 'none';
  }

  /** Contract names in declaration order. */
  names(): string[] {
    return this.list.map((c) => c.name);
  }

  /** The published contract `name`, or undefined. */
  get(name: string): NamedContractSpec | undefined {
    return this.list.find((c) => c.name === name);
  }

  /** The deprecation warnings of `name` (seed "Deprecation behavior"); [] when it is current or unknown. */
  warnings(name: string): string[] {
    const spec = this.get(name);
    return spec === undefined ? [] : deprecationWarnings(spec);
  }

  /**
   * The target's gate, run here (OpenClaw PR #19293 a2a-contracts.md "Validation behavior"): the delivery the
   * agent will make, or a `ContractRefusedError` with the agent's own wording.
   */
  check(message: Message): GateResult {
    try {
      return gateMessage(this.set(), this.agentName, message);
    } catch (error) {
      if (!(error instanceof A2AError)) throw error;
      const contract = (error.metadata?.contract as string | undefined) ?? '';
      throw new ContractRefusedError(error, contract);
    }
  }

  /** Every way `payload` misses `name`'s input schema; [] when it conforms or `name` is unknown. */
  validateInput(name: string, payload: unknown): ContractViolation[] {
    const set = this.set();
    return set.has(name) ? set.validateInput(name, payload) : [];
  }

  /** Every way `value` misses `name`'s output schema; [] when it conforms or `name` is unknown. */
  validateOutput(name: string, value: unknown): ContractViolation[] {
    const set = this.set();
    return set.has(name) ? set.validateOutput(name, value) : [];
  }

  private set(): ContractSet {
    if (this.compiled !== undefined) return this.compiled;
    try {
      this.compiled = compileContracts(this.agentName, {
        allowFreeform: this.allowFreeform,
        contracts: this.list,
      });
    } catch (error) {
      if (!(error instanceof ContractLoadError)) throw error;
      throw new A2ALocalError(
        'BAD_RESPONSE',
        `The contracts agent "${this.agentName}" publishes cannot be used: ${error.message}`,
        { cause: error },
      );
    }
    return this.compiled;
  }
}

const byCard = new WeakMap<AgentCard, AgentContracts>();

/** The contracts a card publishes (cached per card object: a refreshed card is read again). */
export function agentContractsOfCard(card: AgentCard): AgentContracts {
  const cached = byCard.get(card);
  if (cached !== undefined) return cached;
  let published: PublishedContracts | undefined;
  try {
    published = contractsOfCard(card);
  } catch (error) {
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `The card of "${card.name}" has a malformed contracts extension: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const contracts =
    published === undefined
      ? new AgentContracts(card.name, 'none', { allowFreeform: true, contracts: [] })
      : new AgentContracts(card.name, 'card', published);
  byCard.set(card, contracts);
  return contracts;
}

/** The contracts of a `/contracts` document (decision 0018), as received. */
export function agentContractsOfDocument(document: unknown, agentName: string, url: string): AgentContracts {
  try {
    return new AgentContracts(agentName, 'url', readPublishedContracts(document, agentName));
  } catch (error) {
    throw new A2ALocalError(
      'BAD_RESPONSE',
      `${url} is not a contracts document: ${(error as Error).message}`,
      { cause: error, url },
    );
  }
}
