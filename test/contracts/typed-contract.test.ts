/**
 * The typed API (decision 0032): payload and reply types follow from the schemas, a wrong
 * payload does not compile, and the built message passes the gate of an agent declaring the same
 * contract.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Message } from '../../src/protocol/index.js';
import {
  CONTRACT_MEDIA_TYPE,
  compileContracts,
  createContractEnvelope,
  createContractMessage,
  createContractPart,
  defineContract,
  gateMessage,
  type ContractInput,
  type ContractOutput,
} from '../../src/contracts/internal.js';

const researchRequest = defineContract({
  name: 'research.request',
  description: 'Submit a research query',
  input: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      depth: { type: 'string', enum: ['shallow', 'deep'] },
    },
    required: ['query'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      findings: { type: 'string' },
      sources: { type: 'array', items: { type: 'string' } },
    },
    required: ['findings'],
    additionalProperties: false,
  },
} as const);

const untyped = defineContract({ name: 'free.form' });

describe('defineContract types', () => {
  it('derives the payload and reply types from the schemas', () => {
    expectTypeOf<ContractInput<typeof researchRequest>>().toEqualTypeOf<{
      query: string;
      depth?: 'shallow' | 'deep';
    }>();
    expectTypeOf<ContractOutput<typeof researchRequest>>().toEqualTypeOf<{
      findings: string;
      sources?: string[];
    }>();
    expectTypeOf(researchRequest.name).toEqualTypeOf<'research.request'>();
    expectTypeOf<ContractInput<typeof untyped>>().toBeUnknown();
  });

  it('refuses a wrong payload at compile time', () => {
    // @ts-expect-error: depth must be "shallow" or "deep"
    const wrongEnum = () => createContractMessage(researchRequest, { query: 'q', depth: 'medium' });
    // @ts-expect-error: query is required
    const missing = () => createContractPart(researchRequest, { depth: 'deep' });
    // @ts-expect-error: no extra properties
    const extra = () => createContractEnvelope(researchRequest, { query: 'q', limit: 3 });
    expect([wrongEnum, missing, extra]).toHaveLength(3);
    expectTypeOf(createContractMessage<ContractInput<typeof researchRequest>>)
      .parameter(1)
      .toEqualTypeOf<{ query: string; depth?: 'shallow' | 'deep' }>();
    // Anything goes for a contract without an input schema.
    expectTypeOf(createContractMessage(untyped, [1, 'two'])).toEqualTypeOf<Message>();
  });
});

describe('building contract messages', () => {
  it('builds the envelope, leaving out a falsy correlation id', () => {
    expect(createContractEnvelope(researchRequest, { query: 'q' })).toEqual({
      _a2a: true,
      contract: 'research.request',
      payload: { query: 'q' },
    });
    expect(createContractEnvelope(researchRequest, { query: 'q' }, '')).not.toHaveProperty('correlationId');
    expect(createContractEnvelope(researchRequest, { query: 'q' }, 'c-1').correlationId).toBe('c-1');
  });

  it('builds a data part with the contract media type', () => {
    expect(createContractPart(researchRequest, { query: 'q', depth: 'deep' }, 'c-2')).toEqual({
      data: {
        _a2a: true,
        contract: 'research.request',
        payload: { query: 'q', depth: 'deep' },
        correlationId: 'c-2',
      },
      mediaType: CONTRACT_MEDIA_TYPE,
    });
  });

  it('builds a whole message that the declaring agent admits', () => {
    const a = createContractMessage(researchRequest, { query: 'AI trends' }, 'corr-7');
    const b = createContractMessage(
      researchRequest,
      { query: 'AI trends' },
      { messageId: 'm-9', contextId: 'ctx' },
    );
    expect(a.role).toBe('ROLE_USER');
    expect(a.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatchObject({ messageId: 'm-9', contextId: 'ctx' });
    const agent = compileContracts('research-bot', { allowFreeform: false, contracts: [researchRequest] });
    const result = gateMessage(agent, 'research-bot', a);
    expect(result).toMatchObject({
      kind: 'contract',
      invocation: { name: 'research.request', payload: { query: 'AI trends' }, correlationId: 'corr-7' },
    });
  });

  it('refuses an empty name at run time, and freezes the declaration', () => {
    expect(() => defineContract({ name: '' })).toThrow(
      'defineContract: name must be a non-empty string, got ""',
    );
    expect(Object.isFrozen(researchRequest)).toBe(true);
  });
});
