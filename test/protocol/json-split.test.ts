/**
 * JsonSplitter (decision 0173): the elements of the arrays at a path are taken out of a document
 * read in chunks of any size, each exactly as JSON.parse reads it, with the indexes leading to it,
 * and the rest of the document (with `placeholder` in each emptied array) is what remains.
 */
import { describe, expect, it } from 'vitest';
import { JsonSplitter } from '../../src/protocol/json-split.js';

/** Splits `text` into chunks of `size` characters (random sizes up to it when `random`). */
function chunksOf(text: string, size: number, random = false): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const n = random ? 1 + Math.floor(Math.random() * size) : size;
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

function split(text: string, path: string[], size: number, random = false) {
  const splitter = new JsonSplitter(path, '{"p":0}');
  const taken = chunksOf(text, size, random).flatMap((chunk) => splitter.push(chunk));
  return {
    taken: taken.map((t) => ({ value: JSON.parse(t.text) as unknown, at: t.at })),
    rest: JSON.parse(splitter.end()) as unknown,
  };
}

const tricky =
  'quotes " and \\" and \\\\" backslashes \\\\\\\\ unicode \u00e9\u4e2d \ud83d\ude00 and "parts":[1,2]';
const doc = {
  jsonrpc: '2.0',
  id: 'x"y',
  result: {
    id: 't',
    status: { state: 'done', message: { parts: [{ text: 'not me' }] } },
    history: [{ parts: [{ text: 'nor me' }] }],
    artifacts: [
      {
        artifactId: 'a',
        parts: [{ text: tricky }, { raw: 'QUJD'.repeat(500) }, { data: { nested: [[], {}, [{ a: [1] }]] } }],
        metadata: { parts: ['x'] },
      },
      { parts: [{ text: '' }], artifactId: 'b' },
      { artifactId: 'c', parts: [] },
      { artifactId: 'd', parts: [7, 'eight', null, true, [9]] },
    ],
    metadata: { artifacts: [{ parts: [{ text: 'not me either' }] }] },
  },
};

describe('JsonSplitter', () => {
  const text = JSON.stringify(doc, null, 1);
  const expectedTaken = doc.result.artifacts.flatMap((a, i) =>
    a.parts.map((p, j) => ({ value: p, at: [i, j] })),
  );
  const expectedRest = JSON.parse(JSON.stringify(doc)) as typeof doc;
  for (const a of expectedRest.result.artifacts)
    if (a.parts.length > 0) (a as { parts: unknown[] }).parts = [{ p: 0 }];

  it.each([1, 2, 3, 5, 16, 1000, text.length])(
    'takes out exactly the elements at the path, in chunks of %i',
    (size) => {
      const { taken, rest } = split(text, ['result', 'artifacts', '*', 'parts'], size);
      expect(taken).toEqual(expectedTaken);
      expect(rest).toEqual(expectedRest);
    },
  );

  it('reads chunks of random sizes, and compact JSON', () => {
    for (let round = 0; round < 200; round++) {
      const { taken, rest } = split(JSON.stringify(doc), ['result', 'artifacts', '*', 'parts'], 40, true);
      expect(taken).toEqual(expectedTaken);
      expect(rest).toEqual(expectedRest);
    }
  });

  it('takes nothing where the path is not, and keeps the document whole', () => {
    const { taken, rest } = split(text, ['artifacts', '*', 'parts'], 7);
    expect(taken).toEqual([]);
    expect(rest).toEqual(doc);
  });

  it('refuses a document cut short, and an element over the bound', () => {
    const cut = new JsonSplitter(['artifacts', '*', 'parts'], '0');
    cut.push('{"artifacts":[{"parts":[{"text":"abc');
    expect(() => cut.end()).toThrow(/ended before/);
    const big = new JsonSplitter(['artifacts', '*', 'parts'], '0', 100);
    expect(() => big.push(`{"artifacts":[{"parts":[{"text":"${'x'.repeat(200)}"}]}]}`)).toThrow(
      /over 100 characters/,
    );
  });
});
