/**
 * The static types of contracts declared with Standard Schema validators (decision 0165), checked
 * by `npm run typecheck`: a sender's payload is what the input validator accepts, the handler
 * gets what it produces, the handler answers what the output validator accepts and the caller's
 * reply is what that produces; a wrong payload, a wrong reply or a missing handler does not
 * compile. JSON Schema literals keep their types. Nothing is sent: the calls sit in functions that
 * are only type-checked.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { A2AClient, type ContractResult } from '../../src/client/index.js';
import {
  defineContract,
  type ContractInput,
  type ContractOutput,
  type ContractPayload,
  type ContractReply,
} from '../../src/contracts/index.js';
import type { AgentCard } from '../../src/protocol/index.js';
import { contractAgent, type ContractHandler } from '../../src/server/index.js';

const tripPlan = defineContract({
  name: 'trip.plan',
  input: z.object({
    city: z.string(),
    from: z.string().transform((day) => new Date(day)),
    travellers: z.number().default(1),
  }),
  output: z.object({ nights: z.number(), summary: z.string().transform((s) => s.length) }),
});

const invoiceTotal = defineContract({
  name: 'invoice.total',
  input: toStandardJsonSchema(
    v.object({ currency: v.picklist(['EUR', 'USD']), lines: v.array(v.object({ price: v.number() })) }),
  ),
  output: toStandardJsonSchema(v.object({ total: v.number() })),
});

const literal = defineContract({
  name: 'literal',
  input: {
    type: 'object',
    properties: { query: { type: 'string' } },
    required: ['query'],
    additionalProperties: false,
  },
} as const);

type TripWire = { city: string; from: string; travellers?: number | undefined };
type TripParsed = { city: string; from: Date; travellers: number };

describe('types of a zod contract', () => {
  it('follow the validator: input for senders, output for the handler, and back for the reply', () => {
    expectTypeOf<ContractInput<typeof tripPlan>>().toEqualTypeOf<TripWire>();
    expectTypeOf<ContractPayload<typeof tripPlan>>().toEqualTypeOf<TripParsed>();
    expectTypeOf<ContractReply<typeof tripPlan>>().toEqualTypeOf<{ nights: number; summary: string }>();
    expectTypeOf<ContractOutput<typeof tripPlan>>().toEqualTypeOf<{ nights: number; summary: number }>();
    expectTypeOf(tripPlan.name).toEqualTypeOf<'trip.plan'>();
  });
});

describe("the handler's types", () => {
  it('infers each handler input from its contract, valibot and zod alike', () => {
    const agent = () =>
      contractAgent({
        contracts: [tripPlan, invoiceTotal, literal],
        handlers: {
          'trip.plan': (trip, context) => {
            expectTypeOf(trip).toEqualTypeOf<TripParsed>();
            expectTypeOf(context.contract.payload).toEqualTypeOf<TripParsed>();
            return { nights: 2, summary: trip.city };
          },
          'invoice.total': (invoice) => {
            expectTypeOf(invoice).toEqualTypeOf<{ currency: 'EUR' | 'USD'; lines: { price: number }[] }>();
            return { total: invoice.lines.length };
          },
          literal: (payload, _context, updater) => {
            expectTypeOf(payload).toEqualTypeOf<{ query: string }>();
            updater.complete();
          },
        },
      });
    const handler: ContractHandler<typeof tripPlan> = (trip) => ({ nights: trip.travellers, summary: '' });
    expectTypeOf(handler).parameter(0).toEqualTypeOf<TripParsed>();
    expect([agent, handler]).toHaveLength(2);
  });

  it('refuses a wrong reply, a missing handler and an unknown one at compile time', () => {
    const wrongReply = () =>
      contractAgent({
        contracts: [invoiceTotal],
        // @ts-expect-error: total must be a number
        handlers: { 'invoice.total': () => ({ total: 'eleven' }) },
      });
    const missing = () =>
      contractAgent({
        contracts: [tripPlan, invoiceTotal],
        // @ts-expect-error: no handler for invoice.total
        handlers: { 'trip.plan': () => undefined },
      });
    const unknownName = () =>
      contractAgent({
        contracts: [invoiceTotal],
        // @ts-expect-error: not a declared contract
        handlers: { 'invoice.total': () => undefined, 'invoice.void': () => undefined },
      });
    expect([wrongReply, missing, unknownName]).toHaveLength(3);
  });
});

const card: AgentCard = {
  name: 'typed',
  description: 'never called',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'https://agent.example/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: {},
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json'],
  skills: [],
};
const client = new A2AClient({ card });

describe("the contract client's types", () => {
  it("takes the input validator's input and returns the output validator's output", () => {
    const send = () => client.sendContract(tripPlan, { city: 'Lyon', from: '2025-06-03' });
    expectTypeOf(client.sendContract<typeof tripPlan>)
      .parameter(1)
      .toEqualTypeOf<TripWire>();
    expectTypeOf(send).returns.resolves.toEqualTypeOf<ContractResult<{ nights: number; summary: number }>>();
    const byName = () =>
      client.withContracts(invoiceTotal).sendContract('invoice.total', { currency: 'EUR', lines: [] });
    expectTypeOf(byName).returns.resolves.toEqualTypeOf<ContractResult<{ total: number }>>();
    expect([send, byName]).toHaveLength(2);
  });

  it('refuses a wrong payload at compile time', () => {
    // @ts-expect-error: `from` is sent as a string; the Date is what the handler gets
    const parsedSent = () => client.sendContract(tripPlan, { city: 'Lyon', from: new Date() });
    // @ts-expect-error: currency must be EUR or USD
    const wrongEnum = () => client.sendContract(invoiceTotal, { currency: 'GBP', lines: [] });
    expect([parsedSent, wrongEnum]).toHaveLength(2);
  });
});
