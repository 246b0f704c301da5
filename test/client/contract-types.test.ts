/**
 * The static types of contract-aware send (decision 0032): a `TypedContract` fixes the payload
 * type and the reply type of `client.sendContract`, `withContracts` does the same by name, and a
 * wrong payload or an unknown name does not compile (checked by `npm run typecheck`). No request
 * is made: the calls sit in functions that are only type-checked.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { A2AClient, type ContractResult } from '../../src/client/index.js';
import { defineContract } from '../../src/contracts/index.js';
import type { AgentCard } from '../../src/protocol/index.js';

const researchRequest = defineContract({
  name: 'research.request',
  input: {
    type: 'object',
    properties: { query: { type: 'string' }, depth: { type: 'string', enum: ['shallow', 'deep'] } },
    required: ['query'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: { findings: { type: 'string' }, sources: { type: 'array', items: { type: 'string' } } },
    required: ['findings'],
  },
} as const);

const reviewFindings = defineContract({
  name: 'review.findings',
  input: {
    type: 'object',
    properties: { findings: { type: 'string' } },
    required: ['findings'],
    additionalProperties: false,
  },
} as const);

type Findings = { findings: string; sources?: string[]; [key: string]: unknown };

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

describe('sendContract types', () => {
  it('types the reply from a typed contract', () => {
    const send = () => client.sendContract(researchRequest, { query: 'q', depth: 'deep' });
    expectTypeOf(send).returns.resolves.toEqualTypeOf<ContractResult<Findings>>();
    expectTypeOf<Awaited<ReturnType<typeof send>>['reply']>().toEqualTypeOf<Findings | undefined>();
    // A contract without an output schema replies `unknown`; a name alone knows nothing.
    const review = () => client.sendContract(reviewFindings, { findings: 'ok' });
    expectTypeOf(review).returns.resolves.toEqualTypeOf<ContractResult<unknown>>();
    const named = () => client.sendContract('research.request', 42);
    expectTypeOf(named).returns.resolves.toEqualTypeOf<ContractResult<unknown>>();
    expect([send, review, named]).toHaveLength(3);
  });

  it('refuses a wrong payload at compile time', () => {
    // @ts-expect-error: depth must be "shallow" or "deep"
    const wrongEnum = () => client.sendContract(researchRequest, { query: 'q', depth: 'medium' });
    // @ts-expect-error: query is required
    const missing = () => client.sendContract(researchRequest, { depth: 'deep' });
    // @ts-expect-error: no extra properties
    const extra = () => client.sendContract(reviewFindings, { findings: 'f', score: 3 });
    expect([wrongEnum, missing, extra]).toHaveLength(3);
  });

  it('types sends by name through withContracts', () => {
    const typed = client.withContracts(researchRequest, reviewFindings);
    const byName = () => typed.sendContract('research.request', { query: 'q' });
    expectTypeOf(byName).returns.resolves.toEqualTypeOf<ContractResult<Findings>>();
    const other = () => typed.sendContract('review.findings', { findings: 'f' });
    expectTypeOf(other).returns.resolves.toEqualTypeOf<ContractResult<unknown>>();
    // @ts-expect-error: not one of the given contracts
    const unknownName = () => typed.sendContract('research.summarise', { query: 'q' });
    // @ts-expect-error: the payload of review.findings, not research.request
    const swapped = () => typed.sendContract('research.request', { findings: 'f' });
    expect([byName, other, unknownName, swapped]).toHaveLength(4);
  });
});
