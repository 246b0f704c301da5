/**
 * Contracts as TypeScript values (decision 0032): `defineContract` keeps the schemas as literal
 * types, so the payload and reply types follow from them (json-schema-to-ts `FromSchema`), and
 * `createContractMessage` refuses, at compile time, a payload the schema would refuse at run time.
 * The envelope travels as a data part with the contract media type (decision 0016).
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Message, Part, Role } from '../protocol/index.js';
import { CONTRACT_MEDIA_TYPE, type ContractSpec, type NamedContractSpec } from './contract-types.js';

/** A contract declaration written in code; schemas must be literal (`as const`) to be typed. */
export interface ContractDeclaration extends Omit<ContractSpec, 'input' | 'output'> {
  readonly name: string;
  readonly input?: JSONSchema;
  readonly output?: JSONSchema;
}

/** The TypeScript type a schema describes; `unknown` when there is no schema. */
export type SchemaType<S> = [S] extends [JSONSchema] ? FromSchema<S> : unknown;

/** A declared contract that knows its payload (`Input`) and reply (`Output`) types. */
export interface TypedContract<Input = unknown, Output = unknown> extends NamedContractSpec {
  /** Type-only carrier of the payload and reply types; never present at run time. */
  readonly '~types'?: { input: Input; output: Output };
}

/** Anything naming a contract; its payload type when it is a `TypedContract`. */
export interface ContractRef<Input = unknown> {
  readonly name: string;
  readonly '~types'?: { input: Input };
}

/** The payload type of a typed contract. */
export type ContractInput<C> = C extends { readonly '~types'?: { input: infer I } } ? I : unknown;

/** The reply type of a typed contract. */
export type ContractOutput<C> = C extends { readonly '~types'?: { output: infer O } } ? O : unknown;

/**
 * Declares a contract in code. The result is a named contract (usable in the list form of an
 * `a2a` section) whose types come from its schemas.
 */
export function defineContract<const D extends ContractDeclaration>(
  declaration: D,
): TypedContract<SchemaType<D['input']>, SchemaType<D['output']>> & { readonly name: D['name'] } {
  if (typeof declaration.name !== 'string' || declaration.name === '') {
    throw new TypeError(
      `defineContract: name must be a non-empty string, got ${JSON.stringify(declaration.name)}`,
    );
  }
  return Object.freeze({ ...declaration }) as TypedContract<SchemaType<D['input']>, SchemaType<D['output']>> &
    D;
}

/** The structured message envelope (seed "Sending structured messages"). */
export interface ContractEnvelope<Payload = unknown> {
  _a2a: true;
  contract: string;
  payload: Payload;
  correlationId?: string;
}

/** Builds the envelope; a falsy `correlationId` is left out, as upstream `createA2AMessage` does. */
export function createContractEnvelope<I>(
  contract: ContractRef<I>,
  payload: NoInfer<I>,
  correlationId?: string,
): ContractEnvelope<I> {
  const envelope: ContractEnvelope<I> = { _a2a: true, contract: contract.name, payload };
  if (correlationId) envelope.correlationId = correlationId;
  return envelope;
}

/** Builds a message part carrying the envelope: a data part with the contract media type. */
export function createContractPart<I>(
  contract: ContractRef<I>,
  payload: NoInfer<I>,
  correlationId?: string,
): Part {
  return { data: createContractEnvelope(contract, payload, correlationId), mediaType: CONTRACT_MEDIA_TYPE };
}

/** Options of `createContractMessage`. */
export interface ContractMessageOptions {
  correlationId?: string | undefined;
  /** Default: a fresh UUID. */
  messageId?: string | undefined;
  /** Default `ROLE_USER`: the sender is the client side of the exchange. */
  role?: Role | undefined;
  contextId?: string | undefined;
  taskId?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/**
 * Builds a whole A2A message invoking `contract` with `payload`. The third argument is the
 * correlation id, or options for the message around it.
 */
export function createContractMessage<I>(
  contract: ContractRef<I>,
  payload: NoInfer<I>,
  options: string | ContractMessageOptions = {},
): Message {
  const opts = typeof options === 'string' ? { correlationId: options } : options;
  const message: Message = {
    messageId: opts.messageId ?? globalThis.crypto.randomUUID(),
    role: opts.role ?? 'ROLE_USER',
    parts: [createContractPart(contract, payload, opts.correlationId)],
  };
  if (opts.contextId !== undefined) message.contextId = opts.contextId;
  if (opts.taskId !== undefined) message.taskId = opts.taskId;
  if (opts.metadata !== undefined) message.metadata = opts.metadata;
  return message;
}
