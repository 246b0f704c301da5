/**
 * Discovery and the deprecation audit on the seed's own config shape: the seed writes
 * `{ agents: { list: [...] } }` ("Declaring contracts", "Example: multi-agent research
 * pipeline"), the host's parsed config has `agents: [...]`; both are read, anything else is
 * refused with the JSON Pointer of what is wrong.
 */
import { describe, expect, it } from 'vitest';
import {
  discoverContracts,
  findContract,
  listAgentContracts,
  listDeprecatedContracts,
  type ContractsAgent,
} from '../../src/contracts/internal.js';

/**
 * OpenClaw PR #19293 a2a-contracts.md, literally: the multi-agent pipeline, with the researcher's contracts
 * replaced by the "Versioning & deprecation" example (the seed writes that one as a bare `a2a`
 * section; here it sits where the seed says sections go).
 */
const SEED_AGENTS: ContractsAgent[] = [
  {
    id: 'coordinator',
    // Coordinator sends structured requests to specialized agents
  },
  {
    id: 'researcher',
    a2a: {
      allowFreeform: false, // Only accept structured requests
      contracts: {
        // New version
        'research.query-v2': {
          version: '2.0.0',
          description: 'Submit a research query (v2 — adds maxSources)',
          input: {
            type: 'object',
            properties: {
              topic: { type: 'string' },
              maxSources: { type: 'integer' },
            },
            required: ['topic'],
          },
        },

        // Old version — still works but emits warnings
        'research.query': {
          version: '1.0.0',
          deprecated: true,
          deprecatedMessage: 'Use research.query-v2 for improved source control',
          supersededBy: 'research.query-v2',
          description: 'Submit a research query',
          input: {
            type: 'object',
            properties: { topic: { type: 'string' } },
            required: ['topic'],
          },
        },
      },
    },
  },
  {
    id: 'reviewer',
    a2a: {
      contracts: {
        'review.findings': {
          description: 'Review and validate research findings',
          input: {
            type: 'object',
            properties: {
              findings: { type: 'string' },
              sources: { type: 'array', items: { type: 'string' } },
            },
            required: ['findings'],
          },
        },
      },
    },
  },
];
const SEED_CONFIG = { agents: { list: SEED_AGENTS } };

const SEED_DEPRECATED = [
  {
    agentId: 'researcher',
    contract: 'research.query',
    message: 'Use research.query-v2 for improved source control',
    supersededBy: 'research.query-v2',
    version: '1.0.0',
  },
];

describe("the seed's config shape, { agents: { list: [...] } }", () => {
  it('listDeprecatedContracts(cfg) audits it', () => {
    expect(listDeprecatedContracts(SEED_CONFIG)).toEqual(SEED_DEPRECATED);
  });

  it('discovery reads it in agent order, then declaration order', () => {
    expect(discoverContracts(SEED_CONFIG).map((c) => `${c.agentId}:${c.contract}`)).toEqual([
      'researcher:research.query-v2',
      'researcher:research.query',
      'reviewer:review.findings',
    ]);
    expect(listAgentContracts(SEED_CONFIG, 'researcher').map((c) => c.contract)).toEqual([
      'research.query-v2',
      'research.query',
    ]);
    expect(listAgentContracts(SEED_CONFIG, 'coordinator')).toEqual([]);
    expect(findContract(SEED_CONFIG, 'reviewer', 'review.findings')?.spec.description).toBe(
      'Review and validate research findings',
    );
  });

  it('reads the same agents written as a bare list', () => {
    const bare = { agents: SEED_AGENTS };
    expect(listDeprecatedContracts(bare)).toEqual(SEED_DEPRECATED);
    expect(discoverContracts(bare)).toEqual(discoverContracts(SEED_CONFIG));
  });

  it('finds nothing in a config without agents, or with an empty list', () => {
    expect(listDeprecatedContracts({})).toEqual([]);
    expect(discoverContracts({ agents: {} })).toEqual([]);
    expect(discoverContracts({ agents: { list: [] } })).toEqual([]);
  });
});

describe('a config of any other shape', () => {
  const cases: [string, unknown, string][] = [
    ['no config', undefined, 'the config must be an object, got undefined'],
    [
      'agents as a string',
      { agents: 'researcher' },
      '/agents: must be a list of agents or an object with a `list` of agents, got a string',
    ],
    [
      'list as an object',
      { agents: { list: { id: 'x' } } },
      '/agents/list: must be a list of agents, got an object',
    ],
    [
      'an agent that is not an object',
      { agents: { list: [{ id: 'a' }, null] } },
      '/agents/list/1: must be an agent object, got null',
    ],
    [
      'an agent in a bare list that is a string',
      { agents: ['a'] },
      '/agents/0: must be an agent object, got a string',
    ],
    [
      'a2a that is not an object',
      { agents: { list: [{ id: 'a', a2a: true }] } },
      '/agents/list/0/a2a: must be an object, got a boolean',
    ],
    [
      'contracts as a string',
      { agents: { list: [{ id: 'a', a2a: { contracts: 'research.query' } }] } },
      '/agents/list/0/a2a/contracts: must be an object of named contracts (or a list of them), got a string',
    ],
    [
      'a listed contract without a name',
      { agents: [{ id: 'a', a2a: { contracts: [{ name: 'x' }, { description: 'unnamed' }] } }] },
      '/agents/0/a2a/contracts/1/name: must be a string, got undefined',
    ],
    [
      'a contract that is not an object',
      { agents: [{ id: 'a', a2a: { contracts: { 'research/query': 1 } } }] },
      '/agents/0/a2a/contracts/research~1query: must be a contract object, got a number',
    ],
  ];

  it.each(cases)('%s is refused with the pointer of the mistake', (_name, cfg, message) => {
    for (const run of [
      () => listDeprecatedContracts(cfg as never),
      () => discoverContracts(cfg as never),
      () => listAgentContracts(cfg as never, 'a'),
      () => findContract(cfg as never, 'a', 'x'),
    ]) {
      expect(run).toThrow(TypeError);
      expect(run).toThrow(`Invalid contracts config: ${message}`);
    }
  });
});
