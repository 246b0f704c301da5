/**
 * Contracts as TypeScript values (decision 0032): `defineContract` keeps the schemas as literal
 * types, so the payload and reply types follow from them (json-schema-to-ts `FromSchema`), and
 * `createContractMessage` refuses, at compile time, a payload the schema would refuse at run time.
 * A side may instead be any Standard Schema validator (zod 4, valibot, arktype; decision 0165):
 * it is converted to the JSON Schema the card publishes and the gate checks, its types come from
 * the validator, and the gate runs it too. The envelope travels as a data part with the contract
 * media type (decision 0016).
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Message, Part, Role } from '../protocol/index.js';
import { CONTRACT_MEDIA_TYPE, type ContractSpec, type NamedContractSpec } from './contract-types.js';
import {
  schemaPlace,
  standardJsonSchema,
  VALIDATORS_KEY,
  type ContractValidators,
} from './standard-json-schema.js';
import {
  isStandardSchema,
  type StandardInput,
  type StandardOutput,
  type StandardSchema,
} from './standard-schema.js';

/**
 * A contract declaration written in code. Each schema is JSON Schema (literal, `as const`, to be
 * typed) or a Standard Schema validator that implements Standard JSON Schema.
 */
export interface ContractDeclaration extends Omit<ContractSpec, 'input' | 'output'> {
  readonly name: string;
  readonly input?: JSONSchema | StandardSchema;
  readonly output?: JSONSchema | StandardSchema;
  /**
   * Vendor settings for converting validators to JSON Schema (Standard JSON Schema
   * `libraryOptions`), e.g. valibot's `{ errorMode: 'ignore' }` to leave a `check` action, which
   * JSON Schema cannot express, to the validator alone. Not published.
   */
  readonly libraryOptions?: Record<string, unknown>;
}

/** The TypeScript type a schema describes; `unknown` when there is no schema. */
export type SchemaType<S> = [S] extends [JSONSchema] ? FromSchema<S> : unknown;

/** The type of a side's value on the wire: what its validator accepts, or what its JSON Schema describes. */
export type WireType<S> = [S] extends [StandardSchema] ? StandardInput<S> : SchemaType<S>;

/** The type of a side's value once its receiver validated it: the validator's output. */
export type ParsedType<S> = [S] extends [StandardSchema] ? StandardOutput<S> : SchemaType<S>;

/**
 * A declared contract that knows its types: `Input`, the payload a sender sends; `Output`, the
 * reply its caller gets; `Payload`, what the agent's handler receives (the input validator's
 * output); `Reply`, what the handler answers (what the output validator accepts). Without
 * validators, `Payload` is `Input` and `Reply` is `Output`.
 */
export interface TypedContract<
  Input = unknown,
  Output = unknown,
  Payload = Input,
  Reply = Output,
> extends NamedContractSpec {
  /** Type-only carrier of the types; never present at run time. */
  readonly '~types'?: { input: Input; output: Output; payload: Payload; reply: Reply };
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

/** The payload type a typed contract's handler receives (after the gate ran its validator). */
export type ContractPayload<C> = C extends { readonly '~types'?: { payload: infer P } } ? P : unknown;

/** The reply type a typed contract's handler answers with. */
export type ContractReply<C> = C extends { readonly '~types'?: { reply: infer R } } ? R : unknown;

/**
 * Declares a contract in code. The result is a named contract (usable in the list form of an
 * `a2a` section) whose types come from its schemas. A validator side is replaced by its JSON
 * Schema, and the validator is kept (not enumerable) for the gate and the client to run; a
 * validator that gives no JSON Schema is a TypeError naming the contract and what to do.
 */
export function defineContract<const D extends ContractDeclaration>(
  declaration: D,
): TypedContract<
  WireType<D['input']>,
  ParsedType<D['output']>,
  ParsedType<D['input']>,
  WireType<D['output']>
> & {
  readonly name: D['name'];
} {
  if (typeof declaration.name !== 'string' || declaration.name === '') {
    throw new TypeError(
      `defineContract: name must be a non-empty string, got ${JSON.stringify(declaration.name)}`,
    );
  }
  const { libraryOptions, ...spec } = declaration as ContractDeclaration;
  const contract: Record<string, unknown> = { ...spec };
  const validators: { input?: StandardSchema; output?: StandardSchema } = {};
  for (const side of ['input', 'output'] as const) {
    const schema = spec[side];
    if (!isStandardSchema(schema)) continue;
    contract[side] = standardJsonSchema(schema, schemaPlace(spec.name, side), libraryOptions);
    if (typeof schema['~standard'].validate === 'function') validators[side] = schema;
  }
  if (validators.input !== undefined || validators.output !== undefined) {
    const kept: ContractValidators = Object.freeze(validators);
    Object.defineProperty(contract, VALIDATORS_KEY, { value: kept, enumerable: false });
  }
  return Object.freeze(contract) as never;
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
