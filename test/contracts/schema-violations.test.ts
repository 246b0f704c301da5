/**
 * What a failed validation reports: for each JSON Schema 2020-12 feature, the JSON Pointer of the
 * failing value, the keyword, and a message naming the limit and the value.
 */
import { describe, expect, it } from 'vitest';
import type { A2AError } from '../../src/protocol/index.js';
import { compileContracts, gateMessage, type ContractViolation } from '../../src/contracts/index.js';
import { envelopeMessage, thrown } from './fixtures.js';

type Expected = { path: string; keyword: string; message?: string };
type Case = [title: string, schema: Record<string, unknown>, payload: unknown, expected: Expected[]];

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

const CASES: Case[] = [
  [
    'type: string',
    obj({ q: { type: 'string' } }),
    { q: 5 },
    [{ path: '/q', keyword: 'type', message: 'must be string, got integer 5' }],
  ],
  [
    'type: integer refuses 5.5',
    obj({ n: { type: 'integer' } }),
    { n: 5.5 },
    [{ path: '/n', keyword: 'type', message: 'must be integer, got number 5.5' }],
  ],
  [
    'type: boolean refuses "true"',
    obj({ b: { type: 'boolean' } }),
    { b: 'true' },
    [{ path: '/b', keyword: 'type', message: 'must be boolean, got string "true"' }],
  ],
  [
    'type: object refuses a string at the root',
    obj({}),
    'text',
    [{ path: '', keyword: 'type', message: 'must be object, got string "text"' }],
  ],
  [
    'type union',
    obj({ v: { type: ['string', 'null'] } }),
    { v: [] },
    [{ path: '/v', keyword: 'type', message: 'must be string or null, got an array' }],
  ],
  [
    'enum',
    obj({ depth: { enum: ['shallow', 'deep'] } }),
    { depth: 'medium' },
    [{ path: '/depth', keyword: 'enum', message: 'must be one of ["shallow", "deep"], got "medium"' }],
  ],
  [
    'format: email',
    obj({ email: { type: 'string', format: 'email' } }),
    { email: 'nope' },
    [{ path: '/email', keyword: 'format', message: 'must be a valid email, got "nope"' }],
  ],
  [
    'format: date-time',
    obj({ at: { type: 'string', format: 'date-time' } }),
    { at: '2024-13-01' },
    [{ path: '/at', keyword: 'format', message: 'must be a valid date-time, got "2024-13-01"' }],
  ],
  [
    'format: uri',
    obj({ link: { type: 'string', format: 'uri' } }),
    { link: 'not a uri' },
    [{ path: '/link', keyword: 'format' }],
  ],
  [
    'format: uuid',
    obj({ id: { type: 'string', format: 'uuid' } }),
    { id: '1234' },
    [{ path: '/id', keyword: 'format', message: 'must be a valid uuid, got "1234"' }],
  ],
  [
    'minimum',
    obj({ n: { type: 'integer', minimum: 1 } }),
    { n: 0 },
    [{ path: '/n', keyword: 'minimum', message: 'must be >= 1, got 0' }],
  ],
  [
    'maximum is inclusive',
    obj({ n: { maximum: 10 } }),
    { n: 11 },
    [{ path: '/n', keyword: 'maximum', message: 'must be <= 10, got 11' }],
  ],
  [
    'exclusiveMaximum',
    obj({ n: { exclusiveMaximum: 10 } }),
    { n: 10 },
    [{ path: '/n', keyword: 'exclusiveMaximum', message: 'must be < 10, got 10' }],
  ],
  [
    'multipleOf',
    obj({ n: { multipleOf: 5 } }),
    { n: 7 },
    [{ path: '/n', keyword: 'multipleOf', message: 'must be a multiple of 5, got 7' }],
  ],
  [
    'minLength',
    obj({ s: { minLength: 3 } }),
    { s: 'ab' },
    [{ path: '/s', keyword: 'minLength', message: 'must be at least 3 characters long, got 2' }],
  ],
  [
    'maxLength counts code points',
    obj({ s: { maxLength: 2 } }),
    { s: 'a😀b' },
    [{ path: '/s', keyword: 'maxLength', message: 'must be at most 2 characters long, got 3' }],
  ],
  [
    'pattern',
    obj({ code: { pattern: '^[A-Z]{3}$' } }),
    { code: 'abc' },
    [{ path: '/code', keyword: 'pattern', message: 'must match pattern "^[A-Z]{3}$", got "abc"' }],
  ],
  [
    'required points at the missing property',
    obj({ customer: obj({}, { required: ['email'] }) }),
    { customer: {} },
    [{ path: '/customer/email', keyword: 'required', message: 'is required' }],
  ],
  [
    'additionalProperties points at the extra property',
    obj({ a: {} }, { additionalProperties: false }),
    { a: 1, extra: 2 },
    [
      {
        path: '/extra',
        keyword: 'additionalProperties',
        message: 'is not allowed (additionalProperties is false)',
      },
    ],
  ],
  [
    'nested arrays of objects',
    obj({
      orders: {
        type: 'array',
        items: obj({ lines: { type: 'array', items: obj({ sku: { type: 'string' } }) } }),
      },
    }),
    { orders: [{ lines: [] }, { lines: [{ sku: 1 }] }] },
    [{ path: '/orders/1/lines/0/sku', keyword: 'type' }],
  ],
  [
    'minItems',
    obj({ tags: { type: 'array', minItems: 1 } }),
    { tags: [] },
    [{ path: '/tags', keyword: 'minItems', message: 'must have at least 1 item, got 0' }],
  ],
  [
    'maxItems',
    obj({ tags: { type: 'array', maxItems: 2 } }),
    { tags: [1, 2, 3] },
    [{ path: '/tags', keyword: 'maxItems', message: 'must have at most 2 items, got 3' }],
  ],
  [
    'uniqueItems',
    obj({ tags: { uniqueItems: true } }),
    { tags: ['a', 'b', 'a'] },
    [
      {
        path: '/tags',
        keyword: 'uniqueItems',
        message: 'must not contain duplicates, items 0 and 2 are equal',
      },
    ],
  ],
  [
    '$ref into $defs',
    {
      $defs: { address: obj({ zip: { type: 'string', pattern: '^\\d{5}$' } }, { required: ['zip'] }) },
      ...obj({ ship: { $ref: '#/$defs/address' }, bill: { $ref: '#/$defs/address' } }),
    },
    { ship: { zip: '1' }, bill: {} },
    [
      { path: '/ship/zip', keyword: 'pattern' },
      { path: '/bill/zip', keyword: 'required' },
    ],
  ],
  [
    'oneOf matching none, with the branches',
    obj({ pay: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }),
    { pay: true },
    [
      {
        path: '/pay',
        keyword: 'oneOf',
        message:
          'must match exactly one schema of oneOf (0: must be string, got boolean true; 1: must be integer, got boolean true)',
      },
    ],
  ],
  [
    'oneOf matching two',
    obj({ n: { oneOf: [{ type: 'number' }, { type: 'integer' }] } }),
    { n: 1 },
    [{ path: '/n', keyword: 'oneOf', message: 'must match exactly one schema of oneOf, matches 0 and 1' }],
  ],
  [
    'anyOf, with nested branch paths',
    obj({ c: { anyOf: [obj({}, { required: ['email'] }), obj({}, { required: ['phone'] })] } }),
    { c: {} },
    [
      {
        path: '/c',
        keyword: 'anyOf',
        message: 'must match at least one schema of anyOf (0: /email is required; 1: /phone is required)',
      },
    ],
  ],
  [
    'const',
    obj({ version: { const: 2 } }),
    { version: 1 },
    [{ path: '/version', keyword: 'const', message: 'must be 2, got 1' }],
  ],
  [
    'not',
    obj({ name: { not: { const: 'admin' } } }),
    { name: 'admin' },
    [{ path: '/name', keyword: 'not', message: 'must not match the "not" schema, got "admin"' }],
  ],
  [
    'if/then',
    { if: obj({ kind: { const: 'card' } }, { required: ['kind'] }), then: { required: ['cardNumber'] } },
    { kind: 'card' },
    [
      { path: '/cardNumber', keyword: 'required' },
      { path: '', keyword: 'if', message: 'must match the "then" schema of an if/then rule' },
    ],
  ],
  [
    'dependentRequired points at the missing property',
    obj({}, { dependentRequired: { card: ['cvc'] } }),
    { card: '4111' },
    [{ path: '/cvc', keyword: 'dependentRequired', message: 'is required when "card" is present' }],
  ],
  [
    'propertyNames points at each bad name',
    obj({}, { propertyNames: { pattern: '^[a-z]+$' } }),
    { ok: 1, Bad: 2 },
    [
      {
        path: '/Bad',
        keyword: 'propertyNames',
        message: 'property name "Bad" is invalid (must match pattern "^[a-z]+$", got "Bad")',
      },
    ],
  ],
  [
    'contains',
    obj({ items: { type: 'array', contains: { type: 'integer' } } }),
    { items: ['a', 'b'] },
    [{ path: '/items', keyword: 'contains', message: 'must contain at least 1 item matching "contains"' }],
  ],
  [
    'maxContains',
    obj({ items: { contains: { const: 1 }, maxContains: 1 } }),
    { items: [1, 1] },
    [{ path: '/items', keyword: 'contains', message: 'must contain at most 1 item matching "contains"' }],
  ],
  [
    'prefixItems and closed tuples',
    obj({ point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } }),
    { point: [1, 'y', 3] },
    [
      { path: '/point/1', keyword: 'type' },
      { path: '/point', keyword: 'items', message: 'must have at most 2 items, got 3' },
    ],
  ],
  [
    'unevaluatedProperties',
    { allOf: [obj({ a: {} })], unevaluatedProperties: false },
    { a: 1, x: 2 },
    [{ path: '/x', keyword: 'unevaluatedProperties' }],
  ],
  [
    'minProperties',
    obj({ filter: { type: 'object', minProperties: 1 } }),
    { filter: {} },
    [{ path: '/filter', keyword: 'minProperties', message: 'must have at least 1 property, got 0' }],
  ],
  [
    'a false schema',
    obj({ legacy: false }),
    { legacy: 1 },
    [{ path: '/legacy', keyword: 'false schema', message: 'is not allowed (the schema is false)' }],
  ],
  [
    'pointer escaping of ~ and /',
    obj({ 'a/b': { type: 'string' } }, { required: ['c~d'] }),
    { 'a/b': 1 },
    [
      { path: '/c~0d', keyword: 'required' },
      { path: '/a~1b', keyword: 'type' },
    ],
  ],
];

const contracts = Object.fromEntries(CASES.map(([title, schema]) => [title, { input: schema }]));
const set = compileContracts('schemas', { contracts });

describe('input violations', () => {
  it('covers at least 25 distinct kinds of failure', () => {
    const kinds = new Set(
      CASES.map(([title, , , [first]]) => (first?.keyword === 'format' ? title : first?.keyword)),
    );
    expect(kinds.size).toBeGreaterThanOrEqual(25);
  });

  it.each(CASES)('%s', (title, _schema, payload, expected) => {
    const got: ContractViolation[] = set.validateInput(title, payload);
    expect(got.map(({ path, keyword }) => ({ path, keyword }))).toEqual(
      expected.map(({ path, keyword }) => ({ path, keyword })),
    );
    expected.forEach((e, i) => {
      if (e.message !== undefined) expect(got[i]?.message).toBe(e.message);
    });
  });

  it('accepts the valid counterparts', () => {
    const valid: [string, unknown][] = [
      ['maximum is inclusive', { n: 10 }],
      ['format: email', { email: 'a@example.com' }],
      ['format: date-time', { at: '2024-02-29T12:00:00Z' }],
      ['format: uuid', { id: '0b0e3b5c-6a9f-4e0e-9d6b-6b1b1b1b1b1b' }],
      ['oneOf matching none, with the branches', { pay: 'card' }],
      ['if/then', { kind: 'cash' }],
      ['prefixItems and closed tuples', { point: [1, 2] }],
    ];
    for (const [name, payload] of valid) expect(set.validateInput(name, payload), name).toEqual([]);
  });

  it('reports every failure of one payload, in one rejection', () => {
    const all = compileContracts('multi', {
      contracts: {
        signup: {
          input: obj(
            {
              email: { type: 'string', format: 'email' },
              age: { type: 'integer', minimum: 18 },
              tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
            },
            { required: ['email', 'name'], additionalProperties: false },
          ),
        },
      },
    });
    const payload = { email: 'x', age: 12.5, tags: [1, 'a', 'b'], nick: 'z' };
    const error = thrown(() =>
      gateMessage(all, 'multi', envelopeMessage({ _a2a: true, contract: 'signup', payload }, 'data')),
    ) as A2AError;
    expect(error.violations?.map((v) => v.field).sort()).toEqual(
      [
        '/message/parts/0/data/payload/name',
        '/message/parts/0/data/payload/nick',
        '/message/parts/0/data/payload/email',
        '/message/parts/0/data/payload/age',
        '/message/parts/0/data/payload/age',
        '/message/parts/0/data/payload/tags',
        '/message/parts/0/data/payload/tags/0',
      ].sort(),
    );
    expect(error.violations?.find((v) => v.description.startsWith('minimum'))?.description).toBe(
      'minimum: must be >= 18, got 12.5',
    );
  });

  it('validates replies against the output schema the same way', () => {
    expect(set.validateOutput('format: email', 'anything')).toEqual([]);
    const research = compileContracts('r', {
      contracts: { q: { output: obj({ sources: { type: 'array', items: { type: 'string' } } }) } },
    });
    expect(research.validateOutput('q', { sources: ['a', 2] })).toEqual([
      { path: '/sources/1', keyword: 'type', message: 'must be string, got integer 2' },
    ]);
  });
});
