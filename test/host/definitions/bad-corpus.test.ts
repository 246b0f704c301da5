/**
 * Every case of the bad corpus (test/host/fixtures/bad/<case>) is rejected with a
 * DefinitionError naming the right file, line and field — and all of a case's problems at once.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DefinitionError, loadHost, type DefinitionProblem } from '../../../src/host/definitions/index.js';

const BAD = resolve(import.meta.dirname, '../fixtures/bad');

/** Expected problem: file relative to the case directory, message as a fragment. */
type Expected = [file: string, line: number, field: string, fragment: string];

async function problemsOf(target: string, env: NodeJS.ProcessEnv = {}): Promise<DefinitionError> {
  const error = await loadHost(target, { env }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DefinitionError);
  return error as DefinitionError;
}

function expectProblems(error: DefinitionError, dir: string, expected: Expected[]): void {
  expect(error.problems).toEqual(
    expected.map(([file, line, field, fragment]) => ({
      file: join(dir, file),
      line,
      field,
      message: expect.stringContaining(fragment) as string,
    })),
  );
  // The message lists each problem as file:line: field: message.
  for (const p of error.problems) {
    const field = p.field === '' ? '' : `${p.field}: `;
    expect(error.message).toContain(`${p.file}:${p.line}: ${field}${p.message}`);
  }
}

const cases: Array<{ name: string; target?: string; expected: Expected[] }> = [
  {
    name: 'bad-yaml',
    target: 'agent.md',
    expected: [['agent.md', 5, '', 'YAML: Flow sequence in block collection must be sufficiently indented']],
  },
  { name: 'unknown-field', expected: [['agent.md', 4, '/colour', 'unknown field']] },
  {
    name: 'wrong-type',
    expected: [
      ['agent.md', 4, '/exposed', 'must be a boolean (true or false) (got "yes")'],
      ['agent.md', 5, '/version', 'must be a string (got 1); quote it'],
      ['agent.md', 6, '/tags', 'must be a list (array) (got "order")'],
    ],
  },
  {
    name: 'temperature-range',
    expected: [
      ['agent.md', 4, '/temperature', 'must be <= 2 (got 2.5)'],
      ['agent.md', 5, '/maxTokens', 'must be >= 1 (got 0)'],
    ],
  },
  {
    name: 'duplicate-id',
    expected: [
      ['agents/helper.md', 3, '/name', 'duplicate agent id "Helper" (also defined at '],
      ['concord.config.json5', 6, '/agents/list/1/id', 'duplicate agent id "Helper" (also defined at '],
    ],
  },
  {
    // Two markdown files, no config: both files are named, each pointing at the other.
    name: 'duplicate-markdown',
    expected: [
      [
        'agents/orders-copy.md',
        4,
        '/name',
        `duplicate agent id "Orders" (also defined at ${join(BAD, 'duplicate-markdown/orders.md')}:2)`,
      ],
      [
        'orders.md',
        2,
        '/name',
        `duplicate agent id "Orders" (also defined at ${join(BAD, 'duplicate-markdown/agents/orders-copy.md')}:4)`,
      ],
    ],
  },
  {
    name: 'mcp-undefined-server',
    expected: [
      [
        'agent.md',
        6,
        '/mcpServers/orders',
        'MCP server "orders" is not defined in the host config\'s mcpServers (defined: order-db, broken)',
      ],
      ['agent.md', 9, '/mcpServers/order-db/1', 'tool "create_order" is listed twice'],
      ['concord.config.json5', 5, '/mcpServers/broken/url', 'must be an http or https URL (got ftp:)'],
    ],
  },
  {
    // An empty tool list could only ever be a mistake: the agent would get nothing from the server.
    name: 'mcp-empty-tools',
    expected: [
      ['agent.md', 5, '/mcpServers/order-db', 'must not be empty'],
      ['agent.md', 8, '/mcpServers/own/tools', 'must not be empty'],
    ],
  },
  {
    name: 'bad-contract-schema',
    expected: [
      [
        'concord.config.json5',
        11,
        '/agents/list/0/a2a/contracts/research.request/input',
        'bad contract schema: /properties/query/type must be equal to one of the allowed values',
      ],
      [
        'concord.config.json5',
        15,
        '/agents/list/0/a2a/contracts/research.request/output',
        'bad contract schema: strict mode: unknown keyword: "requird"',
      ],
    ],
  },
  {
    name: 'handler-missing',
    expected: [
      [
        'agent.md',
        4,
        '/handler',
        `handler module not found: ${join(BAD, 'handler-missing/handlers/missing.mjs')}`,
      ],
    ],
  },
  {
    name: 'unknown-scheme',
    expected: [
      [
        'concord.config.json5',
        6,
        '/security/requirements/1/oauth',
        'unknown security scheme "oauth" (declared: bearer)',
      ],
      ['concord.config.json5', 13, '/agents/list/0/security/0/mtls', 'unknown security scheme "mtls"'],
    ],
  },
  {
    name: 'missing-env',
    expected: [
      [
        'concord.config.json5',
        8,
        '/security/schemes/partnerKey/keys/0/key',
        'environment variable CONCORD_TEST_UNSET_KEY is not set',
      ],
      [
        'concord.config.json5',
        12,
        '/model/apiKey',
        'environment variable CONCORD_TEST_UNSET_MODEL_KEY is not set',
      ],
    ],
  },
  { name: 'bad-json5', expected: [['concord.config.json5', 6, '', "JSON5: invalid character '{'"]] },
  {
    name: 'model-and-handler',
    expected: [
      ['agent.md', 2, '', 'must be only one of: a model agent (with `model`), a code agent (with `handler`)'],
      ['agent.md', 4, '/handler', 'must be a path to a .js, .mjs, .cjs, .ts, .mts or .cts module'],
    ],
  },
  {
    // Problems of several files are all collected before failing; notes.md (no frontmatter) is skipped.
    name: 'many-files',
    expected: [
      ['agents/one.md', 4, '/maxTokens', 'must be an integer (got 1.5)'],
      ['agents/two.md', 2, '', 'must be a model agent (with `model`) or a code agent (with `handler`)'],
      ['agents/two.md', 2, '/name', 'must be an id of letters, digits'],
      ['concord.config.json5', 2, '/organization/url', 'required field missing'],
      ['concord.config.json5', 3, '/agents/list/0/temperature', 'must be >= 0 (got -1)'],
    ],
  },
];

describe('loadHost on the bad corpus', () => {
  for (const { name, target, expected } of cases) {
    it(`rejects ${name}`, async () => {
      const dir = join(BAD, name);
      expectProblems(await problemsOf(target ? join(dir, target) : dir), dir, expected);
    });
  }

  it('never prints the value of a secret, only the variable name', async () => {
    const dir = join(BAD, 'missing-env');
    const error = await problemsOf(dir, { CONCORD_TEST_UNSET_KEY: 'visible-only-if-leaked' });
    expect(error.problems.map((p: DefinitionProblem) => p.field)).toEqual(['/model/apiKey']);
    expect(error.message).not.toContain('visible-only-if-leaked');
  });
});
