/**
 * The fuzzer's mutations (test/integration/fuzz.test.ts): a seeded random source, and ways to break
 * a JSON value (a strange value at a random JSON Pointer, a missing or unknown member, deep
 * nesting, prototype keys) or its bytes (truncation, insertion, invalid UTF-8). Each says what it did.
 */

/** A seeded source of numbers in [0, 1) (mulberry32): the same seed replays the same run. */
export type Rng = () => number;

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Rng, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function randomBytes(random: Rng, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(random() * 256);
  return out;
}

/**
 * Deep values travel as a marker string and become text only after JSON.stringify, which would
 * itself overflow the test's stack on 20,000 levels.
 */
const DEEP = '\u0001deep:';

function nested(depth: number, asArray: boolean): string {
  return `${DEEP}${asArray ? 'array' : 'object'}:${depth}`;
}

/** The JSON text of `value` with every deep marker expanded. */
function stringify(value: unknown): string {
  return JSON.stringify(value).replace(
    /"\\u0001deep:(array|object):(\d+)"/g,
    (_, kind: string, n: string) => {
      const depth = Number(n);
      return kind === 'array'
        ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
        : `${'{"n":'.repeat(depth)}"leaf"${'}'.repeat(depth)}`;
    },
  );
}

/** Values no field expects; `nested` ones probe every depth limit up to far past the stack's. */
function strangeValue(random: Rng): { value: unknown; how: string } {
  const depth = pick(random, [8, 30, 33, 49, 50, 64, 100, 1000, 4100, 5000, 20000]);
  const choices: [string, () => unknown][] = [
    ['null', () => null],
    ['true', () => true],
    ['0', () => 0],
    ['-1', () => -1],
    ['1.5', () => 1.5],
    ['2^53+2', () => 2 ** 53 + 2],
    ['1e300', () => 1e300],
    ['""', () => ''],
    ['long string', () => 'x'.repeat(pick(random, [300, 70_000]))],
    ['unicode', () => '\u0000\ud800\u202e\uffff'],
    ['[]', () => []],
    ['{}', () => ({})],
    ['[1,"a",null]', () => [1, 'a', null]],
    [`object ${depth} deep`, () => nested(depth, false)],
    [`array ${depth} deep`, () => nested(depth, true)],
    ['many keys', () => Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]))],
  ];
  const [how, make] = pick(random, choices);
  return { value: make(), how };
}

interface Slot {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  pointer: string;
}

function slots(value: unknown, pointer = '', out: Slot[] = []): Slot[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push({ parent: value, key: i, pointer: `${pointer}/${i}` });
      slots(item, `${pointer}/${i}`, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push({ parent: value as Record<string, unknown>, key, pointer: `${pointer}/${key}` });
      slots(item, `${pointer}/${key}`, out);
    }
  }
  return out;
}

/** Breaks one place of a JSON value; returns the text to send and what was done where. */
export function mutateJson(random: Rng, value: unknown): { text: string; how: string } {
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const places = slots(copy);
  if (places.length === 0) {
    const strange = strangeValue(random);
    return { text: stringify(strange.value), how: `whole body ${strange.how}` };
  }
  const slot = pick(random, places);
  const roll = random();
  if (roll < 0.6) {
    const strange = strangeValue(random);
    (slot.parent as Record<string | number, unknown>)[slot.key] = strange.value;
    return { text: stringify(copy), how: `${slot.pointer} = ${strange.how}` };
  }
  if (roll < 0.75) {
    if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
    else delete slot.parent[slot.key as string];
    return { text: stringify(copy), how: `${slot.pointer} removed` };
  }
  if (roll < 0.9) {
    const target = (slot.parent as Record<string | number, unknown>)[slot.key];
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      const member = pick(random, ['unknownField', 'kind', 'role', 'id']);
      const strange = strangeValue(random);
      (target as Record<string, unknown>)[member] = strange.value;
      return { text: stringify(copy), how: `${slot.pointer}/${member} added = ${strange.how}` };
    }
    (slot.parent as Record<string | number, unknown>)[slot.key] = [target];
    return { text: stringify(copy), how: `${slot.pointer} wrapped in an array` };
  }
  // A prototype key only survives as text: JSON.stringify of `{__proto__: …}` would drop it.
  const key = pick(random, ['__proto__', 'constructor', 'prototype']);
  const text = stringify(copy).replace(/^\{/, `{"${key}":{"polluted":true},`);
  return { text, how: `${key} key at the top` };
}

/** Breaks the bytes of a body: truncation, insertion, a bad UTF-8 sequence, a BOM or duplication. */
export function mutateText(random: Rng, input: string | Buffer): { bytes: Buffer; how: string } {
  const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input);
  const at = Math.floor(random() * (bytes.length + 1));
  const roll = random();
  if (roll < 0.3) return { bytes: bytes.subarray(0, at), how: `truncated at ${at}` };
  if (roll < 0.5) {
    const noise = pick(random, ['{', '}', '"', ',', '\\', '\u0000', ']]]]', 'ÿ', '\\ud800']);
    return {
      bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from(noise), bytes.subarray(at)]),
      how: `"${noise}" at ${at}`,
    };
  }
  if (roll < 0.65) {
    return {
      bytes: Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), bytes.subarray(at)]),
      how: `bad UTF-8 at ${at}`,
    };
  }
  if (roll < 0.75) return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), how: 'BOM' };
  if (roll < 0.85) return { bytes: Buffer.concat([bytes, bytes]), how: 'twice' };
  const flipped = Buffer.from(bytes);
  if (flipped.length > 0) {
    const i = at % flipped.length;
    flipped[i] = flipped[i]! ^ (1 << Math.floor(random() * 8));
  }
  return { bytes: flipped, how: `bit flip at ${at}` };
}
