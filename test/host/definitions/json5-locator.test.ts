import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { createJson5Locator } from '../../../src/host/definitions/index.js';

/** The source is checked with JSON5 itself first, as the loader does. */
function locate(source: string): ReturnType<typeof createJson5Locator> {
  JSON5.parse(source);
  return createJson5Locator(source);
}

describe('createJson5Locator', () => {
  it('gives the line of each key in nested objects and arrays', () => {
    const locator = locate(
      [
        '{', // 1
        '  a: 1,', // 2
        '  b: {', // 3
        '    c: [', // 4
        '      10,', // 5
        '      { d: true },', // 6
        '    ],', // 7
        '  },', // 8
        '}', // 9
      ].join('\n'),
    );
    expect(locator.lineOf('')).toBe(1);
    expect(locator.lineOf('/a')).toBe(2);
    expect(locator.lineOf('/b')).toBe(3);
    expect(locator.lineOf('/b/c')).toBe(4);
    expect(locator.lineOf('/b/c/0')).toBe(5);
    expect(locator.lineOf('/b/c/1')).toBe(6);
    expect(locator.lineOf('/b/c/1/d')).toBe(6);
  });

  it('skips line and block comments, counting the lines inside them', () => {
    const locator = locate('// one\n/* two\n three\n*/ {\n  // x: 1,\n  x: 2, /* y: 3 */\n  y: 4\n}');
    expect(locator.lineOf('/x')).toBe(6);
    expect(locator.lineOf('/y')).toBe(7);
  });

  it('decodes quoted keys with escapes and escapes them as pointer segments', () => {
    const locator = locate(
      [
        '{',
        "  'it\\'s': 1,",
        '  "a/b": 2,',
        '  "t~x": 3,',
        '  "\\u0041": 4,',
        '  $id_1: 5,',
        '  \\u0062c: 6',
        '}',
      ].join('\n'),
    );
    expect(locator.lineOf("/it's")).toBe(2);
    expect(locator.lineOf('/a~1b')).toBe(3);
    expect(locator.lineOf('/t~0x')).toBe(4);
    expect(locator.lineOf('/A')).toBe(5);
    expect(locator.lineOf('/$id_1')).toBe(6);
    expect(locator.lineOf('/bc')).toBe(7);
  });

  it('is not misled by braces, quotes and comment markers inside strings', () => {
    const locator = locate(['{', "  a: '{ [ // \"',", '  b: "} ] /* \\"",', '  c: 1', '}'].join('\n'));
    expect(locator.lineOf('/b')).toBe(3);
    expect(locator.lineOf('/c')).toBe(4);
  });

  it('counts line continuations inside strings and CRLF, CR and U+2028 line ends', () => {
    const locator = locate('{\r\n  a: "one \\\n two",\r  b: 1,\u2028  c: 2\n}');
    expect(locator.lineOf('/a')).toBe(2);
    expect(locator.lineOf('/b')).toBe(4);
    expect(locator.lineOf('/c')).toBe(5);
  });

  it('handles JSON5 numbers and literals, trailing commas and values on the key line', () => {
    const locator = locate(
      '{\n  h: 0xFF, i: Infinity, n: -.5,\n  list: [+1., NaN, null,],\n  last: false,\n}',
    );
    expect(locator.lineOf('/i')).toBe(2);
    expect(locator.lineOf('/list/2')).toBe(3);
    expect(locator.lineOf('/last')).toBe(4);
  });

  it('falls back to the nearest ancestor for a pointer that is not written', () => {
    const locator = locate('{\n  a: {\n    b: 1,\n  },\n}');
    expect(locator.lineOf('/a/missing')).toBe(2);
    expect(locator.lineOf('/nothing/here')).toBe(1);
  });

  it('reports keys written twice in one object, not the same key in sibling objects', () => {
    const locator = locate('{\n  a: { k: 1 },\n  b: { k: 2 },\n  a: 3,\n}');
    expect(locator.duplicateKeys).toEqual([{ pointer: '/a', line: 4 }]);
  });
});
