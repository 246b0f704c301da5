/**
 * The delivery gate through the public entry: every row of the seed's two tables
 * (OpenClaw PR #19293 a2a-contracts.md "Validation behavior"), for each way an envelope travels, with the
 * upstream wording of each refusal and the request pointers of each violation.
 */
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/protocol/index.js';
import {
  CONTRACT_MEDIA_TYPE,
  compileContracts,
  gateMessage,
  parseStructuredMessage,
  type ContractSpec,
} from '../../src/contracts/internal.js';
import {
  envelopeMessage,
  envelopePart,
  message,
  RESEARCH_SECTION,
  textMessage,
  thrown,
  type Carrier,
} from './fixtures.js';

const research = compileContracts('research-bot', RESEARCH_SECTION);

function refusal(fn: () => unknown): A2AError {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(A2AError);
  const a2a = error as A2AError;
  expect(a2a.type).toBe('InvalidParamsError');
  expect(a2a.entry.code).toBe(-32602);
  expect(a2a.entry.httpStatus).toBe(400);
  return a2a;
}

describe.each<Carrier>(['text', 'data', 'media-type'])('structured messages carried as %s', (carrier) => {
  const payloadField = carrier === 'text' ? '/message/parts/0/text' : '/message/parts/0/data/payload';
  const contractField = carrier === 'text' ? '/message/parts/0/text' : '/message/parts/0/data/contract';
  const envelope = (contract: string, payload: unknown, correlationId?: string) =>
    envelopeMessage({ _a2a: true, contract, payload, ...(correlationId ? { correlationId } : {}) }, carrier);

  it('delivers a payload that matches the input schema, with the contract context', () => {
    const payload = { query: 'What are the latest trends in AI?', depth: 'deep' };
    const result = gateMessage(research, 'research-bot', envelope('research.request', payload, 'corr-1'));
    expect(result.kind).toBe('contract');
    if (result.kind !== 'contract') return;
    expect(result.invocation).toEqual({
      name: 'research.request',
      description: 'Submit a research query',
      payload,
      correlationId: 'corr-1',
      outputSchema: RESEARCH_SECTION.contracts['research.request'].output,
      requiresApproval: false,
      warnings: [],
    });
    expect(result.structured).toMatchObject({ partIndex: 0, carrier: carrier === 'text' ? 'text' : 'data' });
  });

  it('rejects a payload that fails validation, listing every failure', () => {
    const error = refusal(() =>
      gateMessage(research, 'research-bot', envelope('research.request', { depth: 'medium', extra: 1 })),
    );
    expect(error.message).toBe(
      'Contract "research.request" input validation failed: /query: is required; ' +
        '/depth: must be one of ["shallow", "deep"], got "medium"',
    );
    if (carrier === 'text') {
      expect(error.violations).toEqual([
        { field: payloadField, description: 'required: is required (at payload /query)' },
        {
          field: payloadField,
          description: 'enum: must be one of ["shallow", "deep"], got "medium" (at payload /depth)',
        },
      ]);
    } else {
      expect(error.violations).toEqual([
        { field: `${payloadField}/query`, description: 'required: is required' },
        {
          field: `${payloadField}/depth`,
          description: 'enum: must be one of ["shallow", "deep"], got "medium"',
        },
      ]);
    }
    expect(error.data).toEqual({
      agentId: 'research-bot',
      contract: 'research.request',
      errors: [
        { path: '/query', keyword: 'required', message: 'is required' },
        { path: '/depth', keyword: 'enum', message: 'must be one of ["shallow", "deep"], got "medium"' },
      ],
    });
    expect(error.metadata).toEqual({ agentId: 'research-bot', contract: 'research.request' });
  });

  it('rejects an unknown contract on an agent that has contracts, listing them', () => {
    const error = refusal(() => gateMessage(research, 'research-bot', envelope('research.nope', {})));
    expect(error.message).toBe(
      'Agent "research-bot" does not expose contract "research.nope". Available: research.request',
    );
    expect(error.violations).toEqual([
      { field: contractField, description: 'unknown contract "research.nope"' },
    ]);
  });

  it('lists at most ten available contracts, then the total', () => {
    const contracts: Record<string, ContractSpec> = {};
    for (let i = 1; i <= 12; i++) contracts[`c${i}`] = {};
    const many = compileContracts('many', { contracts });
    const error = refusal(() => gateMessage(many, 'many', envelope('zz', {})));
    expect(error.message).toBe(
      'Agent "many" does not expose contract "zz". Available: c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 ... (12 total)',
    );
  });

  it('delivers an unknown contract best-effort when the agent declares none', () => {
    const payload = { anything: ['goes'] };
    for (const set of [compileContracts('plain', {}), undefined]) {
      const result = gateMessage(set, 'plain', envelope('whatever', payload, 'c-9'));
      expect(result).toEqual({
        kind: 'best-effort',
        structured: {
          contract: 'whatever',
          payload,
          correlationId: 'c-9',
          partIndex: 0,
          carrier: carrier === 'text' ? 'text' : 'data',
        },
      });
    }
  });

  it('delivers best-effort even to allowFreeform: false when it declares no contracts (seed order)', () => {
    const strictEmpty = compileContracts('strict', { allowFreeform: false });
    expect(gateMessage(strictEmpty, 'strict', envelope('x', 1)).kind).toBe('best-effort');
  });
});

describe('plain messages', () => {
  const strict = compileContracts('researcher', { ...RESEARCH_SECTION, allowFreeform: false });

  it('delivers plain text when allowFreeform is true or absent (the default)', () => {
    const defaulted = compileContracts('research-bot', { contracts: RESEARCH_SECTION.contracts });
    expect(defaulted.allowFreeform).toBe(true);
    for (const set of [research, defaulted, undefined]) {
      expect(gateMessage(set, 'research-bot', textMessage('Hello there'))).toEqual({ kind: 'freeform' });
    }
  });

  it('rejects plain text when allowFreeform is false, listing the contracts', () => {
    const error = refusal(() => gateMessage(strict, 'researcher', textMessage('please research AI')));
    expect(error.message).toBe(
      'Agent "researcher" requires structured A2A messages (allowFreeform=false). Available contracts: research.request',
    );
    expect(error.violations).toEqual([
      { field: '/message/parts', description: 'no part carries a contract envelope' },
    ]);
  });

  it('says "none" when an allowFreeform: false agent declares no contracts', () => {
    const none = compileContracts('closed', { allowFreeform: false });
    expect(refusal(() => gateMessage(none, 'closed', textMessage('hi'))).message).toBe(
      'Agent "closed" requires structured A2A messages (allowFreeform=false). Available contracts: none',
    );
  });

  it('counts any message without an envelope as free-form, whatever its parts', () => {
    const dataOnly = message([{ data: { query: 'not an envelope' } }]);
    const fileOnly = message([{ url: 'https://example.com/report.pdf', mediaType: 'application/pdf' }]);
    const jsonText = textMessage('{"query": "looks structured", "_a2a": false}');
    const braceProse = textMessage('{not json at all');
    for (const m of [dataOnly, fileOnly, jsonText, braceProse]) {
      expect(gateMessage(research, 'research-bot', m)).toEqual({ kind: 'freeform' });
      expect(() => gateMessage(strict, 'researcher', m)).toThrow(/requires structured A2A messages/);
    }
  });

  it('delivers an envelope with extra parts under the contract (the envelope decides)', () => {
    const m = message([
      { text: 'see attachment' },
      envelopePart({ _a2a: true, contract: 'research.request', payload: { query: 'q' } }, 'data'),
      { url: 'https://example.com/a.pdf' },
    ]);
    const result = gateMessage(strict, 'researcher', m);
    expect(result.kind).toBe('contract');
    if (result.kind === 'contract') expect(result.structured.partIndex).toBe(1);
  });
});

describe('malformed and ambiguous envelopes', () => {
  it('rejects a declared envelope that lacks its payload, at the member', () => {
    const error = refusal(() =>
      gateMessage(
        research,
        'research-bot',
        envelopeMessage({ _a2a: true, contract: 'research.request' }, 'data'),
      ),
    );
    expect(error.message).toBe('Malformed contract envelope in message part 0: is required');
    expect(error.violations).toEqual([
      { field: '/message/parts/0/data/payload', description: 'is required' },
    ]);
  });

  it('rejects a text envelope with a non-string contract, naming the member', () => {
    const error = refusal(() =>
      gateMessage(
        research,
        'research-bot',
        envelopeMessage({ _a2a: true, contract: 7, payload: {} }, 'text'),
      ),
    );
    expect(error.violations).toEqual([
      {
        field: '/message/parts/0/text',
        description: 'the envelope\'s "contract" must be a contract name (a non-empty string), got 7',
      },
    ]);
  });

  it('treats the media type as the marker, and rejects what it marks when it is no envelope', () => {
    const unmarked = message([
      { data: { contract: 'research.request', payload: { query: 'q' } }, mediaType: CONTRACT_MEDIA_TYPE },
    ]);
    expect(gateMessage(research, 'research-bot', unmarked).kind).toBe('contract');
    const notObject = message([{ data: ['research.request'], mediaType: CONTRACT_MEDIA_TYPE }]);
    expect(refusal(() => gateMessage(research, 'research-bot', notObject)).violations).toEqual([
      { field: '/message/parts/0/data', description: 'must be a contract envelope object' },
    ]);
    const falseMarker = message([
      { data: { _a2a: false, contract: 'x', payload: 1 }, mediaType: CONTRACT_MEDIA_TYPE },
    ]);
    expect(refusal(() => gateMessage(research, 'research-bot', falseMarker)).violations?.[0]?.field).toBe(
      '/message/parts/0/data/_a2a',
    );
  });

  it('rejects a message that invokes two contracts', () => {
    const env = { _a2a: true, contract: 'research.request', payload: { query: 'q' } };
    const two = message([envelopePart(env, 'text'), { text: 'and' }, envelopePart(env, 'data')]);
    const error = refusal(() => gateMessage(research, 'research-bot', two));
    expect(error.message).toBe(
      'A message invokes at most one contract; parts 0 and 2 both carry a contract envelope',
    );
  });
});

describe('invocation details', () => {
  const set = compileContracts('svc', {
    contracts: {
      'order.place': {
        version: '2.1.0',
        requiresApproval: true,
        input: { type: 'object', required: ['sku'] },
      },
      'order.old': {
        deprecated: true,
        deprecatedMessage: 'Use order.place for approvals',
        supersededBy: 'order.place',
        input: { type: 'object', required: ['sku'] },
      },
    },
  });
  const send = (contract: string, payload: unknown) =>
    envelopeMessage({ _a2a: true, contract, payload }, 'data');

  it('carries version and requiresApproval, and leaves absent fields out', () => {
    const result = gateMessage(set, 'svc', send('order.place', { sku: 'A1' }));
    expect(result).toMatchObject({
      kind: 'contract',
      invocation: { name: 'order.place', version: '2.1.0', requiresApproval: true, warnings: [] },
    });
    if (result.kind !== 'contract') return;
    expect(Object.keys(result.invocation).sort()).toEqual(
      ['name', 'payload', 'requiresApproval', 'version', 'warnings'].sort(),
    );
  });

  it('delivers a deprecated contract with its warnings, and reports them when it refuses one', () => {
    const ok = gateMessage(set, 'svc', send('order.old', { sku: 'A1' }));
    expect(ok.kind === 'contract' && ok.invocation.warnings).toEqual([
      'Use order.place for approvals',
      'Use "order.place" instead.',
    ]);
    const error = refusal(() => gateMessage(set, 'svc', send('order.old', {})));
    expect(error.data).toMatchObject({
      errors: [{ path: '/sku', keyword: 'required' }],
      warnings: ['Use order.place for approvals', 'Use "order.place" instead.'],
    });
  });

  it('admits through the server seam: invocation, undefined, or the same refusal', () => {
    expect(set.admit(send('order.place', { sku: 'B' }))?.name).toBe('order.place');
    expect(research.admit(textMessage('hi'))).toBeUndefined();
    expect(compileContracts('none').admit(send('x', 1))).toBeUndefined();
    expect(() => set.admit(send('order.place', {}))).toThrow(
      'Contract "order.place" input validation failed',
    );
    expect(set.checkOutput('order.place', 42)).toEqual([]);
  });
});

describe('parseStructuredMessage (upstream parseA2AMessage, per part)', () => {
  const parse = (text: string) => parseStructuredMessage(textMessage(text));

  it('parses a valid envelope, omitting a falsy correlation id', () => {
    expect(parse('{"_a2a":true,"contract":"research.request","payload":{"query":"test"}}')).toEqual({
      contract: 'research.request',
      payload: { query: 'test' },
      partIndex: 0,
      carrier: 'text',
    });
    expect(parse('  {"_a2a":true,"contract":"c","payload":null,"correlationId":""}')).toEqual({
      contract: 'c',
      payload: null,
      partIndex: 0,
      carrier: 'text',
    });
  });

  it('returns undefined for plain text, unmarked JSON, _a2a false, no contract, no payload', () => {
    for (const text of [
      'hello',
      '{"contract":"c","payload":{}}',
      '{"_a2a":false,"contract":"c","payload":{}}',
      '{"_a2a":true,"payload":{}}',
      '{"_a2a":true,"contract":"c"}',
      '[1,2]',
      '{broken',
    ]) {
      expect(parse(text)).toBeUndefined();
    }
  });

  it('finds the envelope in a later data part', () => {
    const m = message([
      { text: 'intro' },
      { data: { _a2a: true, contract: 'c', payload: 1, correlationId: 'k' } },
    ]);
    expect(parseStructuredMessage(m)).toEqual({
      contract: 'c',
      payload: 1,
      correlationId: 'k',
      partIndex: 1,
      carrier: 'data',
    });
  });
});
