/**
 * The contract context given to the target agent (seed "Contract context injection"), line for
 * line as upstream, including the 4000-character payload cut.
 */
import { describe, expect, it } from 'vitest';
import { compileContracts, contractContextText, gateMessage } from '../../src/contracts/index.js';
import { envelopeMessage, RESEARCH_SECTION } from './fixtures.js';

const set = compileContracts('research-bot', RESEARCH_SECTION);

function invocationFor(payload: unknown, correlationId?: string) {
  const envelope = {
    _a2a: true,
    contract: 'research.request',
    payload,
    ...(correlationId ? { correlationId } : {}),
  };
  const result = gateMessage(set, 'research-bot', envelopeMessage(envelope, 'data'));
  if (result.kind !== 'contract') throw new Error(`expected a contract delivery, got ${result.kind}`);
  return result.invocation;
}

describe('contractContextText', () => {
  it('writes the invocation, description, payload, correlation id and output schema', () => {
    const text = contractContextText(invocationFor({ query: 'test' }, 'corr-1'));
    const schema = JSON.stringify(RESEARCH_SECTION.contracts['research.request'].output, null, 2);
    expect(text).toBe(
      [
        'Structured A2A contract invocation: "research.request".',
        'Contract description: Submit a research query',
        'Input payload: {"query":"test"}',
        'Correlation ID: corr-1',
        'Expected output schema (respond with JSON matching this schema):',
        schema,
      ].join('\n'),
    );
    expect(text).toContain('"findings"');
    expect(text).toContain('"sources"');
  });

  it('leaves out the lines it has nothing for', () => {
    const text = contractContextText({
      name: 'bare',
      payload: undefined,
      requiresApproval: false,
      warnings: [],
    });
    expect(text).toBe('Structured A2A contract invocation: "bare".\nInput payload: null');
  });

  it('cuts a payload over 4000 characters and marks it', () => {
    const text = contractContextText(invocationFor({ query: 'x'.repeat(5000) }));
    const line = text.split('\n').find((l) => l.startsWith('Input payload: '))!;
    expect(line).toBe(`Input payload: ${`{"query":"${'x'.repeat(5000)}"}`.slice(0, 4000)}... (truncated)`);
    expect(text.length).toBeLessThan(6000);
  });

  it('keeps a payload of exactly the limit whole, and honours a custom limit', () => {
    const payload = { query: 'y'.repeat(4000 - '{"query":""}'.length) };
    expect(JSON.stringify(payload)).toHaveLength(4000);
    const whole = contractContextText(invocationFor(payload));
    expect(whole).not.toContain('(truncated)');
    const short = contractContextText(invocationFor({ query: 'abcdef' }), { maxPayloadChars: 5 });
    expect(short).toContain('Input payload: {"que... (truncated)');
    expect(() => contractContextText(invocationFor({ query: 'a' }), { maxPayloadChars: -1 })).toThrow(
      'maxPayloadChars must be a non-negative integer, got -1',
    );
  });
});
