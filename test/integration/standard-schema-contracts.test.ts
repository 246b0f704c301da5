/**
 * Contracts declared with Standard Schema validators (decision 0165), served by code agents over
 * a real socket: one agent's contract is zod 4, the other's valibot (through
 * @valibot/to-json-schema). The served card carries the converted JSON Schema; a payload that
 * misses it is refused by the agent's gate with JSON Pointers into the request, before any
 * handler runs, whether the JSON Schema refuses it or only the validator's own refinement does;
 * a good payload reaches the handler as the validator's output (defaults and transforms
 * applied), and the client parses the reply with the contract's output validator.
 */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  A2AClient,
  A2AClientError,
  CardCache,
  ContractRefusedError,
  type ClientBinding,
} from '../../src/client/internal.js';
import { createContractMessage, defineContract } from '../../src/contracts/index.js';
import type { ProtocolVersion } from '../../src/protocol/index.js';
import { listen, type RunningServer } from '../../src/server/adapters/node.js';
import { contractAgent, createA2AServer, type AgentCardInput } from '../../src/server/index.js';

const tripPlan = defineContract({
  name: 'trip.plan',
  description: 'Plans a stay in a city',
  input: z
    .object({
      city: z.string().min(1),
      from: z.iso.date(),
      to: z.iso.date(),
      travellers: z.number().int().positive().default(1),
    })
    // JSON Schema cannot compare two members: only the validator checks this.
    .refine((trip) => trip.from < trip.to, { path: ['to'], message: 'must be after from' }),
  output: z.object({
    nights: z.number().int(),
    summary: z.string().transform((text) => text.toUpperCase()),
  }),
});

const invoiceTotal = defineContract({
  name: 'invoice.total',
  input: toStandardJsonSchema(
    v.object({
      currency: v.picklist(['EUR', 'USD']),
      lines: v.array(
        v.object({
          sku: v.pipe(v.string(), v.regex(/^[A-Z]{3}-\d+$/)),
          quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
          price: v.number(),
        }),
      ),
    }),
  ),
  output: toStandardJsonSchema(v.object({ total: v.number(), currency: v.string() })),
});

/** What each handler received, in order. */
const received: { contract: string; payload: unknown }[] = [];

function card(name: string, skill: string): AgentCardInput {
  return {
    name,
    description: `${name} (a code agent with Standard Schema contracts)`,
    version: '1.0.0',
    capabilities: { streaming: true },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: [{ id: skill, name: skill, description: skill, tags: ['contract'] }],
  };
}

const DAY_MS = 86_400_000;

let zodAgent: RunningServer;
let valibotAgent: RunningServer;
beforeAll(async () => {
  const planner = contractAgent({
    name: 'planner',
    contracts: [tripPlan],
    handlers: {
      'trip.plan': (trip) => {
        received.push({ contract: 'trip.plan', payload: trip });
        const nights = (Date.parse(trip.to) - Date.parse(trip.from)) / DAY_MS;
        return { nights, summary: `${trip.travellers} in ${trip.city}` };
      },
    },
  });
  const cashier = contractAgent({
    name: 'cashier',
    contracts: [invoiceTotal],
    handlers: {
      'invoice.total': (invoice, context, updater) => {
        received.push({ contract: context.contract.name, payload: invoice });
        const total = invoice.lines.reduce((sum, line) => sum + line.quantity * line.price, 0);
        updater.addArtifact([{ data: { total, currency: invoice.currency } }]);
        updater.complete();
      },
    },
  });
  zodAgent = await listen(createA2AServer({ agentCard: card('Planner', 'trip.plan'), ...planner }), {
    port: 0,
  });
  valibotAgent = await listen(createA2AServer({ agentCard: card('Cashier', 'invoice.total'), ...cashier }), {
    port: 0,
  });
});
afterAll(async () => {
  await zodAgent?.close();
  await valibotAgent?.close();
});

/** The contracts extension of the card as served (0.3 well-known form, no A2A-Version). */
async function servedContracts(url: string): Promise<Record<string, unknown>[]> {
  const response = await fetch(new URL('.well-known/agent-card.json', url));
  const json = (await response.json()) as {
    capabilities: { extensions?: { uri: string; params?: { contracts: Record<string, unknown>[] } }[] };
  };
  const extension = json.capabilities.extensions?.find((e) => e.uri === 'urn:concord:a2a-contracts:v1');
  return extension?.params?.contracts ?? [];
}

describe('the served card', () => {
  it('carries the JSON Schema converted from the zod contract', async () => {
    const [contract] = await servedContracts(zodAgent.url);
    expect(contract).toEqual({
      name: 'trip.plan',
      description: 'Plans a stay in a city',
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1 },
          from: expect.objectContaining({ type: 'string', format: 'date' }),
          to: expect.objectContaining({ type: 'string', format: 'date' }),
          travellers: expect.objectContaining({ type: 'integer', default: 1, exclusiveMinimum: 0 }),
        },
        // What a sender must send: `travellers` has a default, so it is not required.
        required: ['city', 'from', 'to'],
      },
      // The reply as written on the wire: what the output validator accepts (its input side).
      output: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          nights: expect.objectContaining({ type: 'integer' }),
          summary: { type: 'string' },
        },
        required: ['nights', 'summary'],
      },
    });
  });

  it('carries the JSON Schema converted from the valibot contract', async () => {
    const [contract] = await servedContracts(valibotAgent.url);
    expect(contract).toEqual({
      name: 'invoice.total',
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          currency: { type: 'string', enum: ['EUR', 'USD'] },
          lines: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
                quantity: { type: 'integer', minimum: 1 },
                price: { type: 'number' },
              },
              required: ['sku', 'quantity', 'price'],
            },
          },
        },
        required: ['currency', 'lines'],
      },
      output: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { total: { type: 'number' }, currency: { type: 'string' } },
        required: ['total', 'currency'],
      },
    });
  });
});

const INTERFACES: [ClientBinding, ProtocolVersion][] = [
  ['JSONRPC', '1.0'],
  ['HTTP+JSON', '0.3'],
];

function connect(url: string, binding: ClientBinding, version: ProtocolVersion): Promise<A2AClient> {
  return A2AClient.connect(url, {
    allowPrivateNetworks: true,
    cardCache: new CardCache(),
    prefer: { bindings: [binding], versions: [version] },
  });
}

/** Sends `payload` under `contract` as it is, past the client's own check: the agent's gate decides. */
async function refusalOverTheWire(
  client: A2AClient,
  contract: string,
  payload: unknown,
): Promise<A2AClientError> {
  const message = createContractMessage({ name: contract }, payload);
  const error = await client.sendMessage({ message }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(A2AClientError);
  return error as A2AClientError;
}

describe.each(INTERFACES)('over %s %s', (binding, version) => {
  let planner: A2AClient;
  let cashier: A2AClient;
  beforeAll(async () => {
    planner = await connect(zodAgent.url, binding, version);
    cashier = await connect(valibotAgent.url, binding, version);
  });
  afterAll(() => {
    planner.close();
    cashier.close();
  });

  it('refuses a zod payload that misses the JSON Schema, with JSON Pointers, before the handler runs', async () => {
    const before = received.length;
    const bad = { city: '', from: 'soon', travellers: 0 };
    const error = await refusalOverTheWire(planner, 'trip.plan', bad);
    expect(error.type).toBe('InvalidParamsError');
    // `from` misses both the date pattern and the date format zod wrote: one violation each.
    expect([...new Set(error.violations?.map((v) => v.field))].sort()).toEqual(
      [
        '/message/parts/0/data/payload/to',
        '/message/parts/0/data/payload/city',
        '/message/parts/0/data/payload/from',
        '/message/parts/0/data/payload/travellers',
      ].sort(),
    );
    // The client runs the same published gate before sending, and says the same.
    const local = await planner.sendContract(tripPlan, bad as never).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(ContractRefusedError);
    expect((local as ContractRefusedError).violations).toEqual(error.violations);
    expect(received.length).toBe(before);
  });

  it("refuses what only the zod validator's refinement catches, at its path, before the handler runs", async () => {
    const before = received.length;
    // Valid JSON Schema (the card's gate, run by the client, lets it through), but `to` is not after `from`.
    const error = await planner
      .sendContract(tripPlan, { city: 'Lyon', from: '2025-06-10', to: '2025-06-03' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2AClientError);
    expect((error as A2AClientError).type).toBe('InvalidParamsError');
    expect((error as A2AClientError).violations).toEqual([
      { field: '/message/parts/0/data/payload/to', description: 'zod: must be after from' },
    ]);
    expect(received.length).toBe(before);
  });

  it("hands the zod handler the validator's output and parses the reply with the output validator", async () => {
    const result = await planner.sendContract(tripPlan, {
      city: 'Lyon',
      from: '2025-06-03',
      to: '2025-06-10',
    });
    expect(result.state).toBe('TASK_STATE_COMPLETED');
    // The default was filled in by the validator before the handler ran.
    expect(received.at(-1)).toEqual({
      contract: 'trip.plan',
      payload: { city: 'Lyon', from: '2025-06-03', to: '2025-06-10', travellers: 1 },
    });
    // On the wire the reply is as the handler wrote it; `reply` is the output validator's output.
    expect(result.replies).toEqual([{ nights: 7, summary: '1 in Lyon' }]);
    expect(result.reply).toEqual({ nights: 7, summary: '1 IN LYON' });
  });

  it('refuses a valibot payload with JSON Pointers into nested lists, before the handler runs', async () => {
    const before = received.length;
    const bad = {
      currency: 'GBP',
      lines: [
        { sku: 'ABC-1', quantity: 1, price: 2 },
        { sku: 'x', quantity: 0 },
      ],
    };
    const error = await refusalOverTheWire(cashier, 'invoice.total', bad);
    expect(error.type).toBe('InvalidParamsError');
    expect(error.violations?.map((v) => v.field).sort()).toEqual(
      [
        '/message/parts/0/data/payload/currency',
        '/message/parts/0/data/payload/lines/1/price',
        '/message/parts/0/data/payload/lines/1/sku',
        '/message/parts/0/data/payload/lines/1/quantity',
      ].sort(),
    );
    expect(received.length).toBe(before);
  });

  it('hands the valibot handler its typed payload and checks the reply', async () => {
    const invoice = {
      currency: 'EUR' as const,
      lines: [
        { sku: 'ABC-1', quantity: 2, price: 5 },
        { sku: 'XYZ-9', quantity: 1, price: 1.5 },
      ],
    };
    const result = await cashier.sendContract(invoiceTotal, invoice);
    expect(received.at(-1)).toEqual({ contract: 'invoice.total', payload: invoice });
    expect(result.reply).toEqual({ total: 11.5, currency: 'EUR' });
  });
});
