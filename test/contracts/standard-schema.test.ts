/**
 * Contracts declared with Standard Schema validators (decision 0165), through the contracts
 * entry: the Standard JSON Schema conversion (vendor-neutral, 2020-12, plain data), the clear
 * errors when a validator gives no JSON Schema, the gate running the validator after the JSON
 * Schema (its issues at JSON Pointers, its output delivered), and a validator given where JSON
 * Schema belongs.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  compileContracts,
  ContractLoadError,
  createContractMessage,
  defineContract,
  gateMessage,
  type ContractInvocation,
  type StandardSchema,
} from '../../src/contracts/internal.js';
import { A2AError } from '../../src/protocol/index.js';
import { thrown } from './fixtures.js';

/** A hand-written validator of another vendor: integers as decimal strings, parsed to numbers. */
function acmeDecimal(options: { jsonSchema?: boolean; dialect?: string; async?: boolean } = {}) {
  const calls: unknown[] = [];
  const props = {
    version: 1 as const,
    vendor: 'acme',
    types: undefined as unknown as { input: string; output: number },
    validate(value: unknown) {
      const result =
        typeof value === 'string' && /^\d+$/.test(value) && Number(value) % 2 === 0
          ? { value: Number(value) }
          : { issues: [{ message: 'must be an even number', path: [{ key: 'a/b' }, 0, Symbol('s')] }] };
      return options.async === true ? Promise.resolve(result) : result;
    },
    ...(options.jsonSchema === false
      ? {}
      : {
          jsonSchema: {
            input(converter: unknown) {
              calls.push(converter);
              return {
                $schema: options.dialect ?? 'https://json-schema.org/draft/2020-12/schema',
                type: 'string',
                pattern: '^\\d+$',
              };
            },
            output() {
              return { type: 'number' };
            },
          },
        }),
  };
  return { schema: { '~standard': props } as StandardSchema<string, number>, calls };
}

function invoked(
  set: ReturnType<typeof compileContracts>,
  contract: string,
  payload: unknown,
): ContractInvocation {
  const result = gateMessage(set, 'agent-x', createContractMessage({ name: contract }, payload));
  expect(result.kind).toBe('contract');
  return (result as { invocation: ContractInvocation }).invocation;
}

function refused(set: ReturnType<typeof compileContracts>, contract: string, payload: unknown): A2AError {
  const error = thrown(() => gateMessage(set, 'agent-x', createContractMessage({ name: contract }, payload)));
  expect(error).toBeInstanceOf(A2AError);
  expect((error as A2AError).type).toBe('InvalidParamsError');
  return error as A2AError;
}

describe('converting a validator to the JSON Schema the contract publishes', () => {
  it('asks any vendor for its 2020-12 input JSON Schema through Standard JSON Schema', () => {
    const { schema, calls } = acmeDecimal();
    const contract = defineContract({ name: 'even', input: schema, libraryOptions: { strict: true } });
    expect(calls).toEqual([{ target: 'draft-2020-12', libraryOptions: { strict: true } }]);
    expect(contract.input).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'string',
      pattern: '^\\d+$',
    });
    // The validator is kept, but not as data: the contract serialises to its JSON Schemas only.
    expect(Object.keys(contract)).toEqual(['name', 'input']);
    expect(JSON.parse(JSON.stringify(contract))).toEqual({ name: 'even', input: contract.input });
    expect(Object.isFrozen(contract)).toBe(true);
  });

  it('keeps plain data only, not the hidden validator zod puts on the schemas it writes', () => {
    const contract = defineContract({ name: 'z', input: z.object({ a: z.string() }) });
    expect(Object.getPrototypeOf(contract.input)).toBe(Object.prototype);
    expect(contract.input).not.toHaveProperty('~standard');
    expect(contract.input).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  it('names the contract, the vendor and the remedy when a validator gives no JSON Schema', () => {
    expect(() => defineContract({ name: 'invoice.total', input: v.object({ total: v.number() }) })).toThrow(
      new TypeError(
        'defineContract "invoice.total" input: the valibot validator gives no JSON Schema (it does not ' +
          'implement Standard JSON Schema, ~standard.jsonSchema), and contracts publish and check JSON ' +
          'Schema: wrap it with toStandardJsonSchema() from @valibot/to-json-schema (npm install @valibot/to-json-schema)',
      ),
    );
    const { schema } = acmeDecimal({ jsonSchema: false });
    expect(() => defineContract({ name: 'even', output: schema })).toThrow(
      /^defineContract "even" output: the acme validator gives no JSON Schema .*: use a validator that implements Standard JSON Schema \(zod >= 4\.2, arktype >= 2\.1\.28, valibot through @valibot\/to-json-schema\), or declare this side as JSON Schema$/,
    );
  });

  it('says why a validator cannot be converted, and refuses another dialect', () => {
    expect(() => defineContract({ name: 'when', input: z.object({ at: z.date() }) })).toThrow(
      'defineContract "when" input: the zod validator cannot be converted to JSON Schema (draft-2020-12): ' +
        'Date cannot be represented in JSON Schema. Describe the wire value with types JSON Schema can ' +
        'express, or declare this side as JSON Schema',
    );
    const { schema } = acmeDecimal({ dialect: 'http://json-schema.org/draft-07/schema#' });
    expect(() => defineContract({ name: 'even', input: schema })).toThrow(
      'defineContract "even" input: the acme validator answered with a http://json-schema.org/draft-07/schema# ' +
        'schema, though draft-2020-12 was asked for; contracts compile JSON Schema 2020-12 only',
    );
  });

  it('refuses a validator given to compileContracts directly, pointing at defineContract', () => {
    const error = thrown(() =>
      compileContracts('agent-x', {
        contracts: {
          zod: { input: z.object({ a: z.string() }) },
          valibot: { output: v.object({ a: v.string() }) },
        } as never,
      }),
    );
    expect(error).toBeInstanceOf(ContractLoadError);
    expect((error as ContractLoadError).problems).toEqual([
      {
        contract: 'zod',
        field: '/contracts/zod/input',
        message:
          'is a zod validator, not JSON Schema: declare the contract with defineContract(), which converts it to JSON Schema',
      },
      {
        contract: 'valibot',
        field: '/contracts/valibot/output',
        message:
          'is a valibot validator, not JSON Schema: declare the contract with defineContract(), which converts it to JSON Schema',
      },
    ]);
    // What zod's own converter writes is JSON Schema, hidden `~standard` and all.
    const set = compileContracts('agent-x', {
      contracts: { z: { input: z.toJSONSchema(z.object({ a: z.string() }), { target: 'draft-2020-12' }) } },
    });
    expect(set.validateInput('z', {})).toEqual([{ path: '/a', keyword: 'required', message: 'is required' }]);
  });
});

describe('the gate of a contract declared with a validator', () => {
  it('checks the JSON Schema first, then the validator, whose issues point into the payload', () => {
    const { schema } = acmeDecimal();
    const set = compileContracts('agent-x', { contracts: [defineContract({ name: 'even', input: schema })] });
    // The JSON Schema refuses: the validator is not asked (its message would be another).
    expect(refused(set, 'even', 'x1').violations).toEqual([
      {
        field: '/message/parts/0/data/payload',
        description: String.raw`pattern: must match pattern "^\\d+$", got "x1"`,
      },
    ]);
    // The JSON Schema passes, the validator refuses: keyword is the vendor, path its issue's path.
    const odd = refused(set, 'even', '7');
    expect(odd.violations).toEqual([
      { field: '/message/parts/0/data/payload/a~1b/0/s', description: 'acme: must be an even number' },
    ]);
    expect(odd.message).toBe('Contract "even" input validation failed: /a~1b/0/s: must be an even number');
  });

  it("delivers the validator's output as the payload", () => {
    const { schema } = acmeDecimal();
    const set = compileContracts('agent-x', { contracts: [defineContract({ name: 'even', input: schema })] });
    expect(invoked(set, 'even', '42').payload).toBe(42);
    expect(set.parseInput('even', '42')).toEqual({ violations: [], value: 42 });
    expect(set.validateInput('even', '7')).toEqual([
      { path: '/a~1b/0/s', keyword: 'acme', message: 'must be an even number' },
    ]);
  });

  it('checks replies with the output validator too', () => {
    const { schema } = acmeDecimal();
    const set = compileContracts('agent-x', {
      contracts: [defineContract({ name: 'even', output: schema })],
    });
    expect(set.validateOutput('even', '8')).toEqual([]);
    expect(set.validateOutput('even', '9')).toEqual([
      { path: '/a~1b/0/s', keyword: 'acme', message: 'must be an even number' },
    ]);
  });

  it('runs a valibot check that JSON Schema cannot express, left out of the conversion by libraryOptions', () => {
    const range = v.pipe(
      v.object({ from: v.number(), to: v.number() }),
      v.forward(
        v.check((r) => r.from < r.to, 'to must be above from'),
        ['to'],
      ),
    );
    expect(() => defineContract({ name: 'range', input: toStandardJsonSchema(range) })).toThrow(
      'The "check" action cannot be converted to JSON Schema',
    );
    const contract = defineContract({
      name: 'range',
      input: toStandardJsonSchema(range),
      libraryOptions: { errorMode: 'ignore' },
    });
    const set = compileContracts('agent-x', { contracts: [contract] });
    expect(refused(set, 'range', { from: 1, to: 'x' }).violations?.[0]?.field).toBe(
      '/message/parts/0/data/payload/to',
    );
    expect(refused(set, 'range', { from: 3, to: 2 }).violations).toEqual([
      { field: '/message/parts/0/data/payload/to', description: 'valibot: to must be above from' },
    ]);
    expect(invoked(set, 'range', { from: 2, to: 3 }).payload).toEqual({ from: 2, to: 3 });
  });

  it('fails clearly, and settles the promise, when a validator is asynchronous', async () => {
    const { schema } = acmeDecimal({ async: true });
    const set = compileContracts('agent-x', { contracts: [defineContract({ name: 'even', input: schema })] });
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      expect(() => set.parseInput('even', '4')).toThrow(
        new TypeError(
          'Contract "even" input: the acme validator is asynchronous (validate returned a Promise); ' +
            'contracts run validators synchronously, so use synchronous checks only',
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', listener);
    }
    expect(unhandled).toEqual([]);
  });
});
