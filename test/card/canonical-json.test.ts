import { describe, expect, it } from 'vitest';
import { canonicalJson, CanonicalJsonError } from '../../src/card/internal.js';

/** The IEEE 754 double with the given bit pattern (RFC 8785 Appendix B lists vectors that way). */
function double(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

function rejection(value: unknown): CanonicalJsonError {
  try {
    canonicalJson(value);
  } catch (error) {
    expect(error).toBeInstanceOf(CanonicalJsonError);
    return error as CanonicalJsonError;
  }
  throw new Error('canonicalJson accepted the value');
}

describe('canonicalJson (RFC 8785)', () => {
  it('serialises the §3.2.2 example: literals, numbers, string escapes', () => {
    // The input text of RFC 8785 §3.2.2, parsed as any JSON reader would.
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        '"literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('orders members by UTF-16 code units (§3.2.3)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control",' +
        '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
        // The emoji (surrogates D83D DE00) sorts before U+FB33 by code unit, though not by code point.
        '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('formats numbers as ECMAScript does (Appendix B vectors)', () => {
    const vectors: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [hex, expected] of vectors) expect(canonicalJson(double(hex)), hex).toBe(expected);
  });

  it('escapes control characters in the short form where one exists, else as lowercase \\u00xx', () => {
    expect(canonicalJson('\b\t\n\f\r\u0001\u001f"\\/\u007f\u2028')).toBe(
      '"\\b\\t\\n\\f\\r\\u0001\\u001f\\"\\\\/\u007f\u2028"',
    );
  });

  it('sorts nested members and keeps array order', () => {
    expect(canonicalJson({ b: [3, { z: 1, a: 2 }], a: { d: null, c: true } })).toBe(
      '{"a":{"c":true,"d":null},"b":[3,{"a":2,"z":1}]}',
    );
  });

  it('rejects values that are not plain JSON, naming where', () => {
    expect(rejection({ skills: [{ id: 'a', tags: undefined }] }).message).toBe(
      'cannot canonicalize /skills/0/tags: undefined is not a JSON value',
    );
    expect(rejection({ a: [1, undefined] }).path).toBe('/a/1');
    expect(rejection({ run() {} }).message).toContain('/run: function is not a JSON value');
    expect(rejection({ n: NaN }).message).toContain('/n: NaN is not a JSON number');
    expect(rejection([Infinity]).path).toBe('/0');
    expect(rejection({ big: 1n }).message).toContain('bigint is not a JSON value');
    expect(rejection({ when: new Date(0) }).message).toContain('a Date object is not plain JSON');
    expect(rejection({ 'a/b~c': Symbol('s') }).path).toBe('/a~1b~0c');
    expect(rejection({ s: 'x\ud800y' }).message).toContain('/s: the string contains a lone UTF-16 surrogate');
    expect(rejection({ ['\udc00']: 1 }).message).toContain(
      'the member name contains a lone UTF-16 surrogate',
    );
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(rejection(cyclic).message).toContain('/self: the value contains a cycle');
    expect(rejection(undefined).message).toBe('cannot canonicalize the value: undefined is not a JSON value');
  });

  it('accepts the same object twice (shared, not cyclic) and null-prototype objects', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const bare = Object.create(null) as Record<string, unknown>;
    bare.k = 'v';
    expect(canonicalJson(bare)).toBe('{"k":"v"}');
  });
});
