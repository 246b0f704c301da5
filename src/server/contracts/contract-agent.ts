/**
 * A code agent whose contracts are declared in TypeScript (decision 0165): `contractAgent` takes
 * the agent's `defineContract` values (JSON Schema, or any Standard Schema validator that
 * implements Standard JSON Schema) and one handler per contract, and gives what
 * `createA2AServer` needs to serve them the way the host serves a definition's contracts
 * (decisions 0016, 0018): the gate (`contracts`), an executor that hands each handler its typed
 * payload, and the `urn:concord:a2a-contracts:v1` card extension with the converted schemas,
 * plus the `/contracts` documents, through the one extension mechanism (decision 0154).
 */
import {
  compileContracts,
  CONTRACTS_EXTENSION_URI,
  publishContracts,
  type ContractInvocation,
  type ContractPayload,
  type ContractReply,
  type ContractSection,
  type OutputPolicy,
  type TypedContract,
} from '../../contracts/internal.js';
import type { AgentExecutor, RequestContext } from '../agent-executor.js';
import type { ServerExtension } from '../server-extension.js';
import type { TaskUpdater } from '../task-run/task-updater.js';
import type { ContractGate } from './contract-gate.js';

/** What a contract handler's context says of the invocation: its payload, typed. */
export type ContractContext<Payload = unknown> = RequestContext & {
  readonly contract: ContractInvocation & { readonly payload: Payload };
};

/**
 * Handles one contract. `payload` passed the contract's input schema (and validator, whose output
 * it is). Returning a value replies with it: one data artifact, then the task completes. Return
 * nothing to report through `updater` instead (not both).
 */
export type ContractHandler<C> = (
  payload: ContractPayload<C>,
  context: ContractContext<ContractPayload<C>>,
  updater: TaskUpdater,
) => ContractReply<C> | void | Promise<ContractReply<C> | void>;

/** Options of `contractAgent`. */
export interface ContractAgentOptions<Cs extends readonly TypedContract[]> {
  /** The agent's contracts, in the order the card lists them (`defineContract` values). */
  contracts: Cs;
  /** One handler per contract, by contract name. */
  handlers: NoInfer<{ [C in Cs[number] as C['name']]: ContractHandler<C> }>;
  /**
   * Handles messages that invoke no contract. Plain messages are accepted exactly when it is
   * given (`allowFreeform`, seed "Plain text messages"); without it they are refused listing the
   * contracts.
   */
  freeform?: AgentExecutor['execute'];
  /** What a reply that misses its output schema does (default `fail`; decision 0030). */
  outputPolicy?: OutputPolicy;
  /** The agent as refusals name it (`Agent "<name>" does not expose contract ...`); default `agent`. */
  name?: string;
}

/** What `createA2AServer` takes to serve the contracts: spread it into the options. */
export interface ContractAgent {
  executor: AgentExecutor;
  contracts: ContractGate;
  /** The contracts card extension; join it with the server's other extensions. */
  extensions: ServerExtension[];
}

/**
 * Serves `options.contracts` with their handlers: `createA2AServer({ agentCard, ...agent })`.
 * Throws what `compileContracts` throws for contracts that cannot be served, and a TypeError for
 * a contract without a handler or a handler without a contract.
 */
export function contractAgent<const Cs extends readonly TypedContract[]>(
  options: ContractAgentOptions<Cs>,
): ContractAgent {
  const handlers = new Map<string, ContractHandler<TypedContract>>(
    Object.entries(options.handlers as Record<string, ContractHandler<TypedContract>>),
  );
  const names = new Set(options.contracts.map((contract) => contract.name));
  for (const name of names) {
    if (typeof handlers.get(name) !== 'function') {
      throw new TypeError(`contractAgent: contract "${name}" has no handler (handlers["${name}"])`);
    }
  }
  for (const name of handlers.keys()) {
    if (!names.has(name)) {
      throw new TypeError(
        `contractAgent: handlers["${name}"] handles no declared contract (declared: ${[...names].join(', ') || 'none'})`,
      );
    }
  }
  const section: ContractSection = {
    allowFreeform: options.freeform !== undefined,
    contracts: options.contracts,
    ...(options.outputPolicy === undefined ? {} : { outputPolicy: options.outputPolicy }),
  };
  const gate = compileContracts(options.name ?? 'agent', section);
  const freeform = options.freeform;
  const executor: AgentExecutor = {
    async execute(context, updater) {
      const invocation = context.contract;
      if (invocation === undefined) {
        // The gate lets a plain message through only when `freeform` is given (allowFreeform).
        await freeform!(context, updater);
        return;
      }
      const handle = handlers.get(invocation.name)!;
      const reply = await handle(invocation.payload, context as ContractContext, updater);
      if (reply === undefined) return;
      updater.addArtifact([{ data: reply }], { name: invocation.name });
      updater.complete();
    },
  };
  return { executor, contracts: gate, extensions: [contractsExtension(section)] };
}

/** The card extension and `/contracts` documents of decision 0018, for one section. */
function contractsExtension(section: ContractSection): ServerExtension {
  const published = publishContracts(section);
  const documents: Record<string, () => unknown> = { '/contracts': () => published };
  for (const contract of published.contracts) {
    documents[`/contracts/${encodeURIComponent(contract.name)}`] = () => contract;
  }
  return {
    declaration: {
      uri: CONTRACTS_EXTENSION_URI,
      description:
        'Typed message contracts: send {"_a2a": true, "contract", "payload", "correlationId"} as a data part; ' +
        'payloads are validated against each contract input schema before delivery.',
      required: false,
      params: {
        allowFreeform: published.allowFreeform,
        contracts: published.contracts as unknown as Record<string, unknown>[],
      },
    },
    documents,
  };
}
