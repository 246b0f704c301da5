/**
 * Versioning, deprecation and discovery (seed "Versioning & deprecation", "Discovery"): warnings
 * in the upstream wording and order, the audit list, and agent-then-declaration ordering.
 */
import { describe, expect, it } from 'vitest';
import {
  compileContracts,
  deprecationWarnings,
  discoverContracts,
  findContract,
  gateMessage,
  listAgentContracts,
  listDeprecatedContracts,
  validateContractOutput,
  type ContractsAgent,
  type ContractsConfig,
} from '../../src/contracts/internal.js';
import { envelopeMessage } from './fixtures.js';

const topic = { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] };

/** The seed's versioning example. */
const RESEARCHER: ContractsAgent = {
  id: 'researcher',
  a2a: {
    contracts: {
      'research.query-v2': {
        version: '2.0.0',
        description: 'Submit a research query (v2 — adds maxSources)',
        input: {
          type: 'object',
          properties: { topic: { type: 'string' }, maxSources: { type: 'integer' } },
          required: ['topic'],
        },
      },
      'research.query': {
        version: '1.0.0',
        deprecated: true,
        deprecatedMessage: 'Use research.query-v2 for improved source control',
        supersededBy: 'research.query-v2',
        description: 'Submit a research query',
        input: topic,
        output: { type: 'object', required: ['summary'] },
      },
    },
  },
};

/** The researcher, plus a second agent and one without contracts. */
const CONFIG: ContractsConfig = {
  agents: [
    { id: 'coordinator' },
    RESEARCHER,
    { id: '', a2a: { contracts: { ghost: { deprecated: true } } } },
    { id: 'reviewer', a2a: { contracts: [{ name: 'review.findings', deprecated: true }] } },
  ],
};

describe('deprecation warnings', () => {
  it('gives the custom message, then the replacement', () => {
    expect(
      deprecationWarnings({ deprecated: true, deprecatedMessage: 'Old, sorry', supersededBy: 'research-v2' }),
    ).toEqual(['Old, sorry', 'Use "research-v2" instead.']);
  });

  it('gives the default message when none is set, and nothing when not deprecated', () => {
    expect(deprecationWarnings({ deprecated: true })).toEqual(['This contract is deprecated.']);
    expect(deprecationWarnings({ supersededBy: 'x', deprecatedMessage: 'ignored' })).toEqual([]);
  });

  it('still validates a deprecated contract: valid delivers with warnings, invalid is refused', () => {
    const set = compileContracts('researcher', RESEARCHER.a2a);
    const send = (payload: unknown) =>
      envelopeMessage({ _a2a: true, contract: 'research.query', payload }, 'text');
    const ok = gateMessage(set, 'researcher', send({ topic: 'AI' }));
    expect(ok).toMatchObject({
      kind: 'contract',
      invocation: {
        version: '1.0.0',
        warnings: ['Use research.query-v2 for improved source control', 'Use "research.query-v2" instead.'],
      },
    });
    expect(() => gateMessage(set, 'researcher', send({}))).toThrow(
      'Contract "research.query" input validation failed: /topic: is required',
    );
    expect(validateContractOutput(set, 'research.query', {})).toEqual([
      { path: '/summary', keyword: 'required', message: 'is required' },
    ]);
  });
});

describe('listDeprecatedContracts', () => {
  it('lists deprecated contracts in agent order then key order, skipping agents without an id', () => {
    expect(listDeprecatedContracts(CONFIG)).toEqual([
      {
        agentId: 'researcher',
        contract: 'research.query',
        message: 'Use research.query-v2 for improved source control',
        supersededBy: 'research.query-v2',
        version: '1.0.0',
      },
      { agentId: 'reviewer', contract: 'review.findings', message: 'This contract is deprecated.' },
    ]);
  });

  it('is empty when nothing is deprecated', () => {
    expect(listDeprecatedContracts({ agents: [{ id: 'a', a2a: { contracts: { x: {} } } }] })).toEqual([]);
    expect(listDeprecatedContracts({ agents: [] })).toEqual([]);
  });
});

describe('discovery', () => {
  it('discovers every contract with its agent, in order', () => {
    expect(discoverContracts(CONFIG).map((c) => `${c.agentId}:${c.contract}`)).toEqual([
      'researcher:research.query-v2',
      'researcher:research.query',
      'reviewer:review.findings',
    ]);
    expect(discoverContracts({ agents: [{ id: 'coordinator' }] })).toEqual([]);
  });

  it('lists and finds one agent’s contracts', () => {
    expect(listAgentContracts(CONFIG, 'researcher').map((c) => c.contract)).toEqual([
      'research.query-v2',
      'research.query',
    ]);
    expect(listAgentContracts(CONFIG, 'nobody')).toEqual([]);
    expect(findContract(CONFIG, 'researcher', 'research.query-v2')?.spec.description).toBe(
      'Submit a research query (v2 — adds maxSources)',
    );
    expect(findContract(CONFIG, 'reviewer', 'research.query-v2')).toBeUndefined();
    expect(findContract(CONFIG, 'reviewer', 'review.findings')?.spec).toEqual({ deprecated: true });
  });
});
