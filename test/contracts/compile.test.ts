/**
 * Loading an `a2a` section: what compiles, and every way a declaration is refused, each problem
 * at its JSON Pointer.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { A2ASection, AgentDefinition } from '../../src/card/index.js';
import {
  compileContracts,
  ContractLoadError,
  type ContractLoadProblem,
  type ContractSection,
  type ContractsConfig,
} from '../../src/contracts/internal.js';
import { RESEARCH_SECTION, thrown } from './fixtures.js';

function problemsOf(section: ContractSection): readonly ContractLoadProblem[] {
  const error = thrown(() => compileContracts('agent-x', section));
  expect(error).toBeInstanceOf(ContractLoadError);
  expect((error as ContractLoadError).agentId).toBe('agent-x');
  return (error as ContractLoadError).problems;
}

describe('compileContracts', () => {
  it('compiles the seed section, keeping declaration order and the declarations', () => {
    const set = compileContracts('research-bot', {
      contracts: {
        b: {},
        a: { version: '1' },
        'research.request': RESEARCH_SECTION.contracts['research.request'],
      },
    });
    expect(set.agentId).toBe('research-bot');
    expect(set.names()).toEqual(['b', 'a', 'research.request']);
    expect(set.size).toBe(3);
    expect(set.get('a')).toEqual({ name: 'a', version: '1' });
    expect(set.get('zzz')).toBeUndefined();
    expect(set.has('b')).toBe(true);
  });

  it('accepts the list form and an absent section', () => {
    const set = compileContracts('lister', {
      contracts: [{ name: 'one' }, { name: 'two', deprecated: true }],
    });
    expect(set.names()).toEqual(['one', 'two']);
    const empty = compileContracts('bare');
    expect(empty.names()).toEqual([]);
    expect(empty.allowFreeform).toBe(true);
  });

  it('refuses schemas that do not compile, naming the contract, the side and the cause', () => {
    const problems = problemsOf({
      contracts: {
        'bad.type': { input: { type: 'strin' } },
        'bad.ref': { output: { $ref: '#/$defs/missing' } },
        'bad.regex': { input: { type: 'string', pattern: '(' } },
        'bad.kind': { input: [] as unknown as Record<string, unknown> },
      },
    });
    expect(problems.map((p) => [p.contract, p.field])).toEqual([
      ['bad.type', '/contracts/bad.type/input'],
      ['bad.ref', '/contracts/bad.ref/output'],
      ['bad.regex', '/contracts/bad.regex/input'],
      ['bad.kind', '/contracts/bad.kind/input'],
    ]);
    expect(problems[0]?.message).toMatch(/^does not compile: schema is invalid: data\/type must be/);
    expect(problems[1]?.message).toContain("can't resolve reference #/$defs/missing");
    expect(problems[2]?.message).toContain('Invalid regular expression');
    expect(problems[3]?.message).toBe(
      'does not compile: must be a JSON Schema (an object or a boolean), got an array',
    );
  });

  it('tolerates unknown keywords and annotations (strict: false)', () => {
    const set = compileContracts('lenient', {
      contracts: { c: { input: { type: 'object', 'x-ui': { widget: 'text' }, examples: [{}] } } },
    });
    expect(set.validateInput('c', {})).toEqual([]);
  });

  it('refuses a supersededBy naming a missing contract, itself, or a cycle', () => {
    const problems = problemsOf({
      contracts: {
        old: { deprecated: true, supersededBy: 'gone' },
        self: { supersededBy: 'self' },
        a: { supersededBy: 'b' },
        b: { supersededBy: 'a' },
      },
    });
    expect(problems).toEqual([
      {
        contract: 'old',
        field: '/contracts/old/supersededBy',
        message: 'names contract "gone", which this agent does not declare (declared: old, self, a, b)',
      },
      {
        contract: 'self',
        field: '/contracts/self/supersededBy',
        message: 'a contract cannot supersede itself',
      },
      {
        contract: 'a',
        field: '/contracts/a/supersededBy',
        message: 'supersededBy forms a cycle (a -> b -> a): no contract replaces them',
      },
    ]);
  });

  it('refuses a repeated name in the list form, pointing at both places', () => {
    const problems = problemsOf({ contracts: [{ name: 'q' }, { name: 'r' }, { name: 'q', version: '2' }] });
    expect(problems).toEqual([
      {
        contract: 'q',
        field: '/contracts/2',
        message: 'duplicate contract name "q" (first declared at /contracts/0)',
      },
    ]);
  });

  it('refuses fields of the wrong type and collects every problem before throwing', () => {
    const error = thrown(() =>
      compileContracts('agent-x', {
        allowFreeform: 'no' as unknown as boolean,
        contracts: {
          'a/b': { description: 5, requiresApproval: 'yes', input: { minimum: 'x' } } as never,
          '': {},
        },
      }),
    ) as ContractLoadError;
    expect(error.problems.map((p) => p.field)).toEqual([
      '/allowFreeform',
      '/contracts/',
      '/contracts/a~1b/description',
      '/contracts/a~1b/requiresApproval',
      '/contracts/a~1b/input',
    ]);
    expect(error.message).toMatch(
      /^Agent "agent-x" declares invalid contracts: \/allowFreeform: must be a boolean, got string; /,
    );
  });

  it('lets contracts reuse a $id, across agents and within one', () => {
    const schema = { $id: 'https://example.com/query', type: 'object', required: ['q'] };
    const one = compileContracts('one', { contracts: { a: { input: schema, output: { ...schema } } } });
    const two = compileContracts('two', { contracts: { b: { input: { ...schema, required: ['z'] } } } });
    expect(one.validateInput('a', {})).toEqual([{ path: '/q', keyword: 'required', message: 'is required' }]);
    expect(two.validateInput('b', {})).toEqual([{ path: '/z', keyword: 'required', message: 'is required' }]);
  });

  it('accepts any payload for a contract without schemas, and refuses unknown names loudly', () => {
    const set = compileContracts('open', { contracts: { free: {}, closed: { input: false } } });
    expect(set.validateInput('free', { anything: 1 })).toEqual([]);
    expect(set.validateOutput('free', 'x')).toEqual([]);
    expect(set.validateInput('closed', {})).toEqual([
      { path: '', keyword: 'false schema', message: 'is not allowed (the schema is false)' },
    ]);
    expect(() => set.validateInput('nope', {})).toThrow('Agent "open" does not declare contract "nope"');
  });

  it('never changes the payload it validates (no coercion, no defaults)', () => {
    const set = compileContracts('pure', {
      contracts: { c: { input: { type: 'object', properties: { n: { type: 'number', default: 1 } } } } },
    });
    const payload = { m: '2' };
    expect(set.validateInput('c', payload)).toEqual([]);
    expect(payload).toEqual({ m: '2' });
  });

  it('takes the host’s loaded definitions as they are', () => {
    expectTypeOf<A2ASection>().toExtend<ContractSection>();
    expectTypeOf<{ agents: AgentDefinition[] }>().toExtend<ContractsConfig>();
  });
});
