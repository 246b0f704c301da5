/**
 * Contract-aware send (decision 0032): `client.sendContract(contract,
 * payload)` builds the seed's envelope as a data part with the contract media type (decision
 * 0016), runs the target's published gate before anything is sent, sends, then reads the reply,
 * checks it against the contract's output schema and collects the deprecation warnings.
 */
import {
  compileContracts,
  createContractMessage,
  replyValues,
  runValidator,
  validatorsOf,
  type ContractInput,
  type ContractOutput,
  type ContractRef,
  type ContractViolation,
  type NamedContractSpec,
  type OutputPolicy,
  type TypedContract,
} from '../../contracts/internal.js';
import type {
  Message,
  Metadata,
  SendMessageConfiguration,
  SendMessageRequest,
  SendMessageResponse,
  Task,
  TaskState,
} from '../../protocol/index.js';
import { AgentContracts } from './agent-contracts.js';
import type { CallOptions } from '../client-options.js';
import { ContractReplyError, type ReplyViolations } from './contract-errors.js';

/** Options of `sendContract`. */
export interface SendContractOptions extends CallOptions {
  /** The envelope's `correlationId` (seed "Sending structured messages"). */
  correlationId?: string | undefined;
  /** Default: a fresh UUID. */
  messageId?: string | undefined;
  contextId?: string | undefined;
  /** Continue this task (a follow-up under a contract). */
  taskId?: string | undefined;
  /** Metadata of the message. */
  metadata?: Metadata | undefined;
  /** Metadata of the request (`SendMessageRequest.metadata`). */
  requestMetadata?: Metadata | undefined;
  configuration?: SendMessageConfiguration | undefined;
  tenant?: string | undefined;
  /**
   * A reply that misses the output schema: `fail` (default) throws `ContractReplyError`; `warn`
   * returns it with `outputViolations` set.
   */
  outputPolicy?: OutputPolicy | undefined;
}

/** Which schemas the payload and the reply were checked against. */
export type ContractValidation =
  /** The target's published contracts (card extension or `/contracts`). */
  | 'published'
  /** The target publishes none; the `TypedContract` given to `sendContract` was used. */
  | 'declared'
  /** Neither: the target publishes no contracts and the contract was named by a string. */
  | 'none';

/** What `sendContract` returns; `Reply` is the contract's reply type. */
export interface ContractResult<Reply = unknown> {
  contract: string;
  correlationId?: string;
  /** The response as received. */
  response: SendMessageResponse;
  /** The task, when the agent answered with one. */
  task?: Task;
  /** The direct reply, when the agent answered with a message. */
  message?: Message;
  /** The task's state (undefined for a direct reply). */
  state?: TaskState;
  /**
   * The reply value: the first data part (else JSON text part) of the task's artifacts or of the
   * direct reply; checked against the output schema. A contract declared with an output validator
   * gives the validator's output instead (decision 0165). Undefined while the task has produced none.
   */
  reply?: Reply;
  /** Every reply value found, in order (most agents produce one). */
  replies: unknown[];
  /** Deprecation warnings: the agent's (response metadata), else the published contract's. */
  warnings: string[];
  /** Output violations tolerated under `outputPolicy: 'warn'`; [] otherwise. */
  outputViolations: ReplyViolations[];
  validatedBy: ContractValidation;
}

/** The reply type of a contract given to `sendContract`. */
export type ReplyOf<C> = C extends string ? unknown : ContractOutput<C>;

/** The payload type of a contract given to `sendContract`. */
export type PayloadOf<C> = C extends string ? unknown : ContractInput<C>;

/** What sending needs from the client. */
export interface ContractSendPort {
  contracts(options: CallOptions): Promise<AgentContracts>;
  sendMessage(request: SendMessageRequest, options: CallOptions): Promise<SendMessageResponse>;
}

const METADATA_KEY = 'concord/contract';

const declaredSets = new WeakMap<object, AgentContracts>();

/** A TypedContract's own schemas, for a target that publishes none. */
function declaredContracts(contract: NamedContractSpec, agentName: string): AgentContracts {
  let set = declaredSets.get(contract);
  if (set === undefined) {
    // Compiled once here so a schema that does not compile is the caller's error, thrown as is.
    compileContracts(agentName, { contracts: [contract] });
    set = new AgentContracts(agentName, 'card', { allowFreeform: true, contracts: [contract] });
    declaredSets.set(contract, set);
  }
  return set;
}

function isTyped(contract: string | ContractRef): contract is NamedContractSpec {
  return typeof contract !== 'string' && ('input' in contract || 'output' in contract);
}

function warningsIn(metadata: Metadata | undefined): string[] | undefined {
  const entry = metadata?.[METADATA_KEY];
  if (typeof entry !== 'object' || entry === null) return undefined;
  const warnings = (entry as { warnings?: unknown }).warnings;
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === 'string') : undefined;
}

/** The reply values of a response, each with its JSON Pointer in the response. */
function repliesOf(response: SendMessageResponse): { at: string; value: unknown }[] {
  if ('message' in response) {
    return replyValues(response.message.parts).map(({ index, value }) => ({
      at: `/message/parts/${index}/${'data' in response.message.parts[index]! ? 'data' : 'text'}`,
      value,
    }));
  }
  return (response.task.artifacts ?? []).flatMap((artifact, a) =>
    replyValues(artifact.parts).map(({ index, value }) => ({
      at: `/task/artifacts/${a}/parts/${index}/${'data' in artifact.parts[index]! ? 'data' : 'text'}`,
      value,
    })),
  );
}

/** Sends `payload` under `contract`; see the file comment and `A2AClient.sendContract`. */
export async function sendContractMessage(
  port: ContractSendPort,
  contract: string | ContractRef,
  payload: unknown,
  options: SendContractOptions = {},
): Promise<ContractResult> {
  const call: CallOptions = { signal: options.signal, timeoutMs: options.timeoutMs, trace: options.trace };
  const name = typeof contract === 'string' ? contract : contract.name;
  const message = createContractMessage({ name }, payload, {
    correlationId: options.correlationId,
    messageId: options.messageId,
    contextId: options.contextId,
    taskId: options.taskId,
    metadata: options.metadata,
  });
  const published = await port.contracts(call);
  let schemas: AgentContracts | undefined;
  let validatedBy: ContractValidation = 'none';
  if (published.published) {
    // The target's own gate, before anything leaves (throws ContractRefusedError).
    if (published.check(message).kind === 'contract') schemas = published;
    validatedBy = 'published';
  } else if (isTyped(contract)) {
    schemas = declaredContracts(contract, published.agentName);
    schemas.check(message);
    validatedBy = 'declared';
  }
  const request: SendMessageRequest = {
    message,
    ...(options.configuration === undefined ? {} : { configuration: options.configuration }),
    ...(options.requestMetadata === undefined ? {} : { metadata: options.requestMetadata }),
    ...(options.tenant === undefined ? {} : { tenant: options.tenant }),
  };
  const response = await port.sendMessage(request, call);
  const found = repliesOf(response);
  const metadata = 'task' in response ? response.task.metadata : response.message.metadata;
  const result: ContractResult = {
    contract: name,
    ...(options.correlationId === undefined ? {} : { correlationId: options.correlationId }),
    response,
    ...('task' in response
      ? { task: response.task, state: response.task.status.state }
      : { message: response.message }),
    replies: found.map((r) => r.value),
    warnings: warningsIn(metadata) ?? published.warnings(name),
    outputViolations: [],
    validatedBy,
  };
  if (found.length > 0) result.reply = found[0]!.value;
  // The caller's own output validator (decision 0165) parses what passed the JSON Schema: its
  // refinements are checked here too, and `reply` is its output (defaults, transforms).
  const parser = typeof contract === 'string' ? undefined : validatorsOf(contract)?.output;
  const failures = found.flatMap(({ at, value }, index): ReplyViolations[] => {
    const errors: ContractViolation[] = schemas?.validateOutput(name, value) ?? [];
    if (errors.length === 0 && parser !== undefined) {
      const parsed = runValidator(parser, value, `Contract ${JSON.stringify(name)} output`);
      if (index === 0 && parsed.violations.length === 0) result.reply = parsed.value;
      errors.push(...parsed.violations);
    }
    return errors.length === 0 ? [] : [{ at, errors }];
  });
  if (failures.length > 0) {
    if ((options.outputPolicy ?? 'fail') === 'fail') throw new ContractReplyError(name, failures, result);
    result.outputViolations = failures;
  }
  return result;
}

/** A contract sender bound to a list of typed contracts: `sendContract('name', payload)` is typed. */
export interface TypedContractSender<Cs extends readonly TypedContract[]> {
  sendContract<N extends Cs[number]['name']>(
    name: N,
    payload: ContractInput<Extract<Cs[number], { readonly name: N }>>,
    options?: SendContractOptions,
  ): Promise<ContractResult<ContractOutput<Extract<Cs[number], { readonly name: N }>>>>;
}

/** Binds contracts to a send function by name (used by `A2AClient.withContracts`). */
export function typedContractSender<Cs extends readonly TypedContract[]>(
  contracts: Cs,
  send: (contract: ContractRef, payload: unknown, options?: SendContractOptions) => Promise<ContractResult>,
): TypedContractSender<Cs> {
  const byName = new Map<string, TypedContract>();
  for (const contract of contracts) {
    if (byName.has(contract.name)) {
      throw new TypeError(`withContracts: contract "${contract.name}" is given twice`);
    }
    byName.set(contract.name, contract);
  }
  return {
    sendContract(name, payload, options) {
      const contract = byName.get(name);
      if (contract === undefined) {
        const known = [...byName.keys()].join(', ') || 'none';
        return Promise.reject(new TypeError(`withContracts: no contract "${name}" (given: ${known})`));
      }
      return send(contract, payload, options) as never;
    },
  };
}
